/**
 * The reference logs and readings come from the Rust `hdrhistogram` crate 7.6.0: see
 * ./_hlog_vectors.ts for how tests/testdata/hdr/reference_hlog_vectors.json and the .hlog files
 * were produced (once, outside this repository).
 */
import assert from "node:assert/strict";
import { HLOG_LEGEND, renderHlog } from "../../../runner/hdr/hlog.ts";
import { type HlogLog, HlogParseError, parseHlog } from "../../../runner/hdr/hlog_reader.ts";
import { bucketsOf } from "../../_helpers/histogram_assertions.ts";
import { intervalsResult } from "./_hlog_fixtures.ts";
import {
  durationMs,
  HLOG_VECTORS,
  readTestLog,
  usBucketOfNs,
  usBucketsOf,
} from "./_hlog_vectors.ts";

/** Seconds in a log as exact milliseconds (3-decimal logs). */
const ms = (sec: number) => Math.round(sec * 1000);

Deno.test("parseHlog() reads the Rust crate's logs, compressed or not, with the crate's readings", async () => {
  assert.equal(HLOG_VECTORS.rustWritten.length, 2);
  for (const rust of HLOG_VECTORS.rustWritten) {
    const log = parseHlog(await readTestLog(rust.file));
    assert.equal(ms(log.startTimeSec!), durationMs(rust.startTimes[0]), rust.file);
    assert.equal(ms(log.baseTimeSec!), durationMs(rust.baseTimes[0]), rust.file);
    assert.equal(log.entries.length, rust.entries.length, rust.file);
    log.entries.forEach((ours, i) => {
      const theirs = rust.entries[i];
      const at = `${rust.file} entry ${i}`;
      assert.equal(ours.tag, theirs.tag ?? undefined, at);
      assert.equal(ms(ours.startTimestampSec), durationMs(theirs.startTimestamp), at);
      assert.equal(
        ms(ours.absoluteStartSec),
        durationMs(rust.baseTimes[0]) + ms(ours.startTimestampSec),
        at,
      );
      assert.equal(ms(ours.intervalLengthSec), durationMs(theirs.duration), at);
      assert.equal(ours.intervalMaxMs, theirs.max, at);
      const h = theirs.histogram;
      assert.equal(ours.histogram.totalCount, h.totalCount, at);
      assert.deepEqual(bucketsOf(ours.histogram), usBucketsOf(h.recorded), at);
      assert.equal(
        ours.histogram.maxValue,
        h.totalCount === 0 ? 0 : usBucketOfNs(h.max).highest,
        at,
      );
      for (const [p, valueNs] of h.percentiles) {
        const expected = h.totalCount === 0 ? 0 : usBucketOfNs(valueNs).highest;
        assert.equal(ours.histogram.getValueAtPercentile(p), expected, `${at} p${p}`);
      }
    });
  }
});

Deno.test("the Rust logs exercise tags, an empty histogram, sub-microsecond values and foreign layouts", () => {
  const entries = HLOG_VECTORS.rustWritten[0].entries;
  const tags = new Set(entries.map((e) => e.tag));
  assert.deepEqual(
    [...tags].sort(),
    [null, "gc-pauses", "response:GET%20/orders", "service"].sort(),
  );
  assert.ok(entries.some((e) => e.histogram.totalCount === 0));
  assert.ok(entries.some((e) => e.histogram.recorded.some(([ns]) => ns > 0 && ns < 1000)));
  const layouts = new Set(entries.map((e) => JSON.stringify(e.histogram.layout)));
  assert.equal(layouts.size, 3);
});

Deno.test("parseHlog() skips comments, the legend and blank lines, and accepts CRLF line ends", () => {
  const text = renderHlog(intervalsResult());
  const lf = parseHlog(text);
  const crlf = parseHlog(text.replaceAll("\n", "\r\n"));
  const spaced = parseHlog(text.replace(HLOG_LEGEND, `${HLOG_LEGEND}\n\n# a comment`));
  for (const other of [crlf, spaced]) {
    assert.equal(other.entries.length, lf.entries.length);
    other.entries.forEach((e, i) => {
      assert.equal(e.tag, lf.entries[i].tag);
      assert.equal(e.intervalMaxMs, lf.entries[i].intervalMaxMs);
      assert.deepEqual(bucketsOf(e.histogram), bucketsOf(lf.entries[i].histogram));
    });
  }
  assert.equal(spaced.entries[0].line, lf.entries[0].line + 2);
});

/** A log whose interval lines are `lines`, each holding a real histogram line's other fields. */
function logWith(header: string[], starts: string[]): string {
  const line = renderHlog(intervalsResult()).split("\n").find((l) => /^\d/.test(l))!;
  const rest = line.slice(line.indexOf(","));
  return [...header, ...starts.map((s) => s + rest), ""].join("\n");
}

Deno.test("parseHlog() places intervals in time as Java's HistogramLogReader does", () => {
  const start = "#[StartTime: 1700000000.500 (seconds since epoch), Tue Nov 14 22:13:20 UTC 2023]";
  const base = "#[BaseTime: 1700000000.000 (seconds since epoch)]";
  const absolute = (log: HlogLog) => log.entries.map((e) => ms(e.absoluteStartSec));
  // BaseTime given: timestamps are relative to it.
  assert.deepEqual(absolute(parseHlog(logWith([start, base], ["0.500", "1.500"]))), [
    1_700_000_000_500,
    1_700_000_001_500,
  ]);
  // StartTime only: timestamps over a year before it are relative to it, others absolute.
  assert.deepEqual(absolute(parseHlog(logWith([start], ["0.000", "1.000"]))), [
    1_700_000_000_500,
    1_700_000_001_500,
  ]);
  assert.deepEqual(absolute(parseHlog(logWith([start], ["1700000000.500"]))), [1_700_000_000_500]);
  // Neither: timestamps are absolute.
  const bare = parseHlog(logWith([], ["1700000002.000", "1700000003.000"]));
  assert.deepEqual(absolute(bare), [1_700_000_002_000, 1_700_000_003_000]);
  assert.equal(bare.startTimeSec, undefined);
  assert.equal(bare.baseTimeSec, undefined);
});

Deno.test("parseHlog() reports the line and the problem of malformed input", () => {
  const good = renderHlog(intervalsResult()).split("\n");
  const first = good.findIndex((l) => /^\d/.test(l));
  const [start, length, max, base64] = good[first].split(",");
  const cases: Array<[line: string, message: RegExp]> = [
    [`${start},${length},${base64}`, /found 3 field\(s\)/],
    [`${start},${length},${max},${base64},extra`, /found 5 field\(s\)/],
    [`abc,${length},${max},${base64}`, /StartTimestamp "abc" is not a non-negative number/],
    [`${start},-1.000,${max},${base64}`, /Interval_Length "-1.000"/],
    [`${start},${length},1e,${base64}`, /Interval_Max "1e"/],
    [`${start},${length},${max},not base64!`, /bad histogram: .*not base64/],
    [`${start},${length},${max},AAAAAAAAAAAA`, /bad histogram: .*bad cookie/],
    [`${start},${length},${max},${base64.slice(0, 40)}`, /bad histogram/],
    [`Tag=GET /a,${start},${length},${max},${base64}`, /tag "GET \/a" contains whitespace/],
    [`${start};${length};${max};${base64}`, /found 1 field\(s\)/],
  ];
  for (const [bad, message] of cases) {
    const lines = [...good];
    lines.splice(first + 1, 0, bad);
    assert.throws(
      () => parseHlog(lines.join("\n")),
      (e) => {
        assert.ok(e instanceof HlogParseError, String(e));
        assert.equal(e.line, first + 2);
        assert.match(e.message, new RegExp(`^line ${first + 2}: `));
        assert.match(e.message, message);
        return true;
      },
      bad,
    );
  }
});

Deno.test("parseHlog() treats unreadable StartTime and BaseTime comments as plain comments", () => {
  const log = parseHlog(logWith(["#[StartTime: soon]", "#[BaseTime:]"], ["1700000002.000"]));
  assert.equal(log.startTimeSec, undefined);
  assert.equal(log.baseTimeSec, undefined);
  assert.equal(log.entries.length, 1);
});
