/**
 * The committed tailgate_*.hlog files are renderHlog() of the fixtures in ./_hlog_fixtures.ts, and
 * reference_hlog_vectors.json holds what the Rust `hdrhistogram` crate 7.6.0 read from them: see
 * ./_hlog_vectors.ts for how they were produced (once, outside this repository).
 */
import assert from "node:assert/strict";
import { HLOG_LEGEND, renderHlog } from "../../../runner/hdr/hlog.ts";
import { parseHlog } from "../../../runner/hdr/hlog_reader.ts";
import { hlogTag, parseHlogTag } from "../../../runner/hdr/hlog_tag.ts";
import { decodeHistogram } from "../../../runner/hdr/hdr_codec.ts";
import { createHistogram, toEncodedHistogram } from "../../../runner/hdr/mod.ts";
import type { EncodedHistogram, RunResult } from "../../../runner/model/run_result.ts";
import { assertSameHistogram, bucketsOf } from "../../_helpers/histogram_assertions.ts";
import { HLOG_FIXTURES, intervalsResult } from "./_hlog_fixtures.ts";
import { ignoreWithoutHdrh, readWithHdrh } from "../../_helpers/python_hdrh.ts";
import {
  durationMs,
  HLOG_VECTORS,
  readTestLog,
  usBucketOfNs,
  usBucketsOf,
} from "./_hlog_vectors.ts";

interface ExpectedLine {
  tag: string | undefined;
  startMs: number;
  durationMs: number;
  histogram: EncodedHistogram;
}

/** The lines a result's log holds, in order: per interval all requests, then each label. */
function expectedLines(result: RunResult): ExpectedLine[] {
  return result.intervals.flatMap((i) => {
    const at = { startMs: i.startMs, durationMs: i.durationMs };
    return [
      { ...at, tag: undefined, histogram: i.response },
      { ...at, tag: "service", histogram: i.service },
      ...i.labels.flatMap((l) => [
        { ...at, tag: hlogTag("response", l.label), histogram: l.response },
        { ...at, tag: hlogTag("service", l.label), histogram: l.service },
      ]),
    ];
  });
}

Deno.test("renderHlog() writes the version, StartTime, BaseTime and legend as Java's writer does", () => {
  const lines = renderHlog(intervalsResult()).split("\n");
  assert.equal(lines[0], "#[Logged with tailgate 0.0.0-test]");
  assert.equal(lines[1], "#[Histogram log format version 1.3]");
  assert.equal(
    lines[2],
    "#[StartTime: 1741064767.089 (seconds since epoch), Tue Mar 04 05:06:07 UTC 2025]",
  );
  assert.equal(lines[3], "#[BaseTime: 1741064767.089 (seconds since epoch)]");
  assert.equal(lines[6], HLOG_LEGEND);
  assert.equal(
    HLOG_LEGEND,
    '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"',
  );
  assert.ok(lines.slice(0, 6).every((l) => l.startsWith("#[")));
  assert.equal(lines.at(-1), "", "the last line ends with a newline");
  assert.match(lines[7], /^0\.000,1\.000,\d+\.\d{3},HISTF/);
  assert.match(lines.at(-2)!, /^Tag=service:caf%C3%A9%20100%25,3\.000,0\.510,\d+\.\d{3},HISTF/);
});

Deno.test("renderHlog() of the fixtures is byte for byte the log the Rust crate read", async () => {
  for (const { file, fixture } of HLOG_VECTORS.readByReference) {
    assert.equal(renderHlog(HLOG_FIXTURES[fixture]()), await readTestLog(file), file);
  }
});

Deno.test("the Rust crate read from our logs the counts, max and percentiles the result holds", () => {
  assert.equal(HLOG_VECTORS.readByReference.length, 2);
  for (const rust of HLOG_VECTORS.readByReference) {
    const result = HLOG_FIXTURES[rust.fixture]();
    const startedAtMs = Date.parse(result.run.startedAt);
    assert.deepEqual(rust.startTimes.map(durationMs), [startedAtMs], rust.file);
    assert.deepEqual(rust.baseTimes.map(durationMs), [startedAtMs], rust.file);
    const expected = expectedLines(result);
    assert.equal(rust.entries.length, expected.length, rust.file);
    rust.entries.forEach((entry, i) => {
      const want = expected[i];
      const at = `${rust.file} entry ${i}`;
      assert.equal(entry.tag ?? undefined, want.tag, at);
      assert.equal(durationMs(entry.startTimestamp), want.startMs, at);
      assert.equal(durationMs(entry.duration), want.durationMs, at);
      const h = entry.histogram;
      assert.deepEqual(h.layout, {
        lowestDiscernibleValue: 1,
        highestTrackableValue: 3_600_000_000_000,
        significantValueDigits: 4,
      });
      assert.equal(h.totalCount, want.histogram.count, at);
      // Interval_Max: the line's histogram max in ms, rounded half up to 3 decimals (Java's rule).
      assert.equal(Math.round(entry.max * 1000), Math.round(h.max / 1000), at);
      if (h.totalCount === 0) return;
      assert.equal(usBucketOfNs(h.max).highest, want.histogram.maxUs, at);
      const source = decodeHistogram(want.histogram.hdr);
      assert.deepEqual(usBucketsOf(h.recorded), bucketsOf(source), at);
      for (const [p, valueNs] of h.percentiles) {
        assert.equal(usBucketOfNs(valueNs).highest, source.getValueAtPercentile(p), `${at} p${p}`);
      }
      for (const [p, valueUs] of Object.entries(want.histogram.percentilesUs)) {
        const valueNs = h.percentiles.find(([q]) => q === Number(p))?.[1];
        if (valueNs !== undefined) {
          assert.equal(usBucketOfNs(valueNs).highest, valueUs, `${at} p${p}`);
        }
      }
    });
  }
});

Deno.test("result -> renderHlog -> parseHlog gives back every interval histogram exactly", () => {
  for (const [name, make] of Object.entries(HLOG_FIXTURES)) {
    const result = make();
    const log = parseHlog(renderHlog(result));
    const expected = expectedLines(result);
    assert.equal(log.entries.length, expected.length, name);
    const startedAtMs = Date.parse(result.run.startedAt);
    assert.equal(Math.round(log.startTimeSec! * 1000), startedAtMs);
    assert.equal(Math.round(log.baseTimeSec! * 1000), startedAtMs);
    log.entries.forEach((entry, i) => {
      const want = expected[i];
      const at = `${name} entry ${i}`;
      assert.equal(entry.tag, want.tag, at);
      assert.equal(Math.round(entry.startTimestampSec * 1000), want.startMs, at);
      assert.equal(Math.round(entry.absoluteStartSec * 1000), startedAtMs + want.startMs, at);
      assert.equal(Math.round(entry.intervalLengthSec * 1000), want.durationMs, at);
      assertSameHistogram(entry.histogram, decodeHistogram(want.histogram.hdr));
      const h = entry.histogram;
      assert.equal(h.totalCount, want.histogram.count, at);
      assert.equal(h.maxValue, want.histogram.maxUs, at);
      assert.equal(h.minNonZeroValue, want.histogram.minUs, at);
      for (const [p, valueUs] of Object.entries(want.histogram.percentilesUs)) {
        assert.equal(h.getValueAtPercentile(Number(p)), valueUs, `${at} p${p}`);
      }
      // Interval_Max (to the microsecond) lies in the result's max bucket.
      const maxUs = Math.round(entry.intervalMaxMs * 1000);
      const bucket = usBucketOfNs(want.histogram.maxUs * 1000);
      if (h.totalCount === 0) assert.equal(maxUs, 0, at);
      else assert.ok(maxUs >= bucket.lowest && maxUs <= bucket.highest + 1, at);
    });
  }
});

Deno.test("renderHlog() tags every label's lines so parseHlogTag() names the label back", () => {
  const result = intervalsResult();
  const tags = parseHlog(renderHlog(result)).entries.map((e) => e.tag);
  const meanings = tags.map(parseHlogTag);
  assert.ok(meanings.every((m) => m !== undefined));
  const labels = new Set(meanings.map((m) => m!.label).filter((l) => l !== undefined));
  assert.deepEqual(labels, new Set(result.intervals.flatMap((i) => i.labels.map((l) => l.label))));
  for (const tag of tags) if (tag !== undefined) assert.doesNotMatch(tag, /[,\s]/);
});

Deno.test("renderHlog() refuses a result whose start time is not a date", () => {
  const result = intervalsResult();
  result.run.startedAt = "yesterday";
  assert.throws(() => renderHlog(result), RangeError);
});

Deno.test("renderHlog() leaves out the empty intervals after the schedule, keeps an empty one inside it", () => {
  const result = intervalsResult();
  const empty = toEncodedHistogram(createHistogram());
  const last = result.intervals.at(-1)!;
  const blank = (startMs: number) => ({
    ...structuredClone(last),
    startMs,
    response: empty,
    service: empty,
    labels: [],
  });
  const inside = blank(last.startMs + last.durationMs);
  const trailing = blank(inside.startMs + 1000);
  const withInside = { ...result, intervals: [...result.intervals, inside, structuredClone(last)] };
  withInside.intervals.at(-1)!.startMs = inside.startMs + 1000;
  const kept = parseHlog(renderHlog(withInside)).entries.filter((e) => e.tag === undefined);
  assert.equal(kept.length, result.intervals.length + 2, "an empty second between two is kept");
  const drained = {
    ...result,
    intervals: [...result.intervals, trailing, blank(trailing.startMs + 1000)],
  };
  const lines = parseHlog(renderHlog(drained)).entries.filter((e) => e.tag === undefined);
  assert.equal(lines.length, result.intervals.length);
  assert.equal(
    Math.round(lines.at(-1)!.startTimestampSec * 1000),
    last.startMs,
    "ends at the last",
  );
});

Deno.test("renderHlog() writes time to first byte as Tag=ttfb lines, all requests' and each label's", () => {
  const result = intervalsResult();
  for (const interval of result.intervals) {
    interval.ttfb = interval.service;
    for (const l of interval.labels) l.ttfb = l.service;
  }
  const text = renderHlog(result);
  assert.ok(text.includes("#[Tag=ttfb, Tag=ttfb:<label>: time to first byte"));
  const log = parseHlog(text);
  const expected = result.intervals.flatMap((i) => [
    { tag: undefined, histogram: i.response },
    { tag: "service", histogram: i.service },
    { tag: "ttfb", histogram: i.ttfb! },
    ...i.labels.flatMap((l) => [
      { tag: hlogTag("response", l.label), histogram: l.response },
      { tag: hlogTag("service", l.label), histogram: l.service },
      { tag: hlogTag("ttfb", l.label), histogram: l.ttfb! },
    ]),
  ]);
  // The trailing empty intervals are left out, as for the other lines.
  const kept = expected.slice(0, log.entries.length);
  assert.ok(log.entries.length > 3);
  log.entries.forEach((entry, i) => {
    assert.equal(entry.tag, kept[i].tag, `entry ${i}`);
    assertSameHistogram(entry.histogram, decodeHistogram(kept[i].histogram.hdr));
  });
  assert.deepEqual(parseHlogTag("ttfb"), { metric: "ttfb" });
  assert.deepEqual(parseHlogTag(hlogTag("ttfb", "GET /a")), { metric: "ttfb", label: "GET /a" });
});

Deno.test({
  name: "Python's hdrh reads the ttfb lines with their tags, counts and max",
  ignore: ignoreWithoutHdrh(),
  fn: async () => {
    const result = intervalsResult();
    for (const interval of result.intervals) {
      interval.ttfb = interval.service;
      for (const l of interval.labels) l.ttfb = l.service;
    }
    const entries = await readWithHdrh(renderHlog(result));
    const ours = parseHlog(renderHlog(result)).entries;
    assert.equal(entries.length, ours.length);
    const ttfb = entries.filter((e) => e.tag?.startsWith("ttfb"));
    assert.ok(ttfb.length >= 3, `${ttfb.length} ttfb lines`);
    entries.forEach((e, i) => {
      assert.equal(e.tag ?? undefined, ours[i].tag, `entry ${i}`);
      assert.equal(e.count, ours[i].histogram.totalCount, `entry ${i} count`);
      if (e.count === 0) return;
      // The same microsecond buckets, read in nanoseconds.
      assert.equal(usBucketOfNs(e.maxNs).highest, ours[i].histogram.maxValue, `entry ${i} max`);
    });
  },
});
