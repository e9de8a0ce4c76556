import assert from "node:assert/strict";
import { evaluateSlos } from "../../../../runner/gates/slo/evaluate_slos.ts";
import { createHistogram, type Histogram } from "../../../../runner/hdr/mod.ts";
import { toEncodedHistogram } from "../../../../runner/hdr/encoded_histogram.ts";
import { addCounts, emptyCounts } from "../../../../runner/model/request_counts.ts";
import type { IntervalResult, RunResult } from "../../../../runner/model/run_result.ts";
import { countsOf, gateResult, pointsUs, type StageSpec } from "../../../_helpers/gate_fixtures.ts";

/** One second of a run: requests at 1 ms, `slow` of them at 100 ms, `errors` failed. */
interface Second {
  fast: number;
  slow?: number;
  errors?: number;
  label?: string;
}

function secondHistogram(s: Second): Histogram {
  const points: Array<[number, number]> = [[1_000, s.fast], [100_000, s.slow ?? 0]];
  return pointsUs(points.filter(([, n]) => n > 0));
}

/**
 * A result whose stages hold exactly the given seconds, and whose 1 s intervals are those seconds:
 * the stage histograms are the intervals' merge, as a run writes them.
 */
function windowedResult(stages: Array<{ ratePerSec: number; seconds: Second[] }>, slos: string[]) {
  const specs: StageSpec[] = stages.map((stage) => {
    const merged = createHistogram();
    let errors = 0;
    for (const s of stage.seconds) {
      merged.add(secondHistogram(s));
      errors += s.errors ?? 0;
    }
    return {
      ratePerSec: stage.ratePerSec,
      durationMs: stage.seconds.length * 1000,
      labels: [{ label: "GET /", response: merged, errors }],
    };
  });
  const r: RunResult = gateResult(specs, { slos });
  const intervals: IntervalResult[] = [];
  let startMs = 0;
  stages.forEach((stage, stageIndex) => {
    for (const s of stage.seconds) {
      const h = toEncodedHistogram(secondHistogram(s));
      const total = s.fast + (s.slow ?? 0) + (s.errors ?? 0);
      const c = countsOf(total, s.errors ?? 0);
      intervals.push({
        startMs,
        durationMs: 1000,
        stageIndex,
        intendedPerSec: total,
        sentPerSec: total,
        completedPerSec: total,
        counts: c,
        response: h,
        service: h,
        labels: [{ label: "GET /", counts: c, response: h, service: h }],
      });
      startMs += 1000;
    }
  });
  r.intervals = intervals;
  return r;
}

/** `n` seconds of `fast` requests, with `episode` seconds from `at` changed. */
function seconds(n: number, fast: number, at = 0, episode: Second[] = []): Second[] {
  return Array.from(
    { length: n },
    (_, i) => i >= at && i < at + episode.length ? episode[i - at] : { fast },
  );
}

Deno.test("a 3 s episode passes the whole-stage p99 but fails the windowed one, named by time", () => {
  const episode = [{ fast: 850, slow: 150 }, { fast: 850, slow: 150 }, { fast: 850, slow: 150 }];
  const r = windowedResult(
    [{ ratePerSec: 1000, seconds: seconds(60, 1000, 20, episode) }],
    ["p99 < 50ms", "p99 < 50ms over 10s"],
  );
  const [whole, windowed] = evaluateSlos(r);
  assert.equal(whole.status, "pass", whole.message);
  assert.equal(windowed.status, "fail", windowed.message);
  assert.equal(windowed.windows?.judged, 51);
  // Every window that holds any of seconds 20–22 holds 150 to 450 slow requests of 10,000.
  assert.ok(windowed.windows!.failed >= 8 && windowed.windows!.failed <= 12, windowed.message);
  assert.match(windowed.message, /failed in \d+ of 51 windows of 10s/);
  assert.match(windowed.message, /failing: 1\d–3\d s \(stage 0\)/);
  const slowBucketUs = pointsUs([[100_000, 1]]).maxValue;
  assert.equal(windowed.measured, slowBucketUs, "the worst window's p99 is a 100 ms request");
  for (const f of windowed.windows!.findings) {
    assert.ok(f.startMs <= 22_000 && f.startMs + f.durationMs > 20_000, `${f.startMs} holds none`);
  }
});

Deno.test("every window within the bound passes, with the worst window's headroom", () => {
  const r = windowedResult([{ ratePerSec: 1000, seconds: seconds(30, 1000) }], [
    "p99 < 50ms over 10s",
  ]);
  const [v] = evaluateSlos(r);
  assert.equal(v.status, "pass", v.message);
  assert.match(v.message, /^passed in all 21 windows of 10s; the worst, \d+–\d+ s of stage/);
  assert.deepEqual(
    { failed: v.windows?.failed, undecided: v.windows?.undecided, findings: v.windows?.findings },
    { failed: 0, undecided: 0, findings: [] },
  );
});

Deno.test("a window that fails only without Holm's correction is inconclusive, not failed", () => {
  // 10,000 requests a window with 127 beyond the bound: past p99's 95% interval alone, within the
  // level Holm's correction over 21 windows asks of the first to fail. 170 is past both.
  const at = (slow: number) =>
    windowedResult(
      [{ ratePerSec: 1000, seconds: seconds(30, 1000, 15, [{ fast: 1000 - slow, slow }]) }],
      ["p99 < 50ms over 10s"],
    );
  const [borderline] = evaluateSlos(at(127));
  assert.equal(borderline.status, "inconclusive", borderline.message);
  assert.equal(borderline.windows?.failed, 0);
  assert.equal(borderline.windows?.undecided, 10);
  const [clear] = evaluateSlos(at(170));
  assert.equal(clear.status, "fail", clear.message);
  assert.equal(clear.windows?.failed, 10);
});

Deno.test("windows with too few requests for the percentile are named and never pass", () => {
  const r = windowedResult([{ ratePerSec: 20, seconds: seconds(20, 20) }], ["p99 < 50ms over 5s"]);
  const [v] = evaluateSlos(r);
  assert.equal(v.status, "inconclusive", v.message);
  assert.equal(v.windows?.tooFew, 16);
  assert.ok(v.windows!.findings.every((f) => f.tooFew === true && f.requests === 100));
  assert.match(v.message, /16 windows held too few requests for p99 to pass \(the fewest, 100/);
  assert.match(v.message, /368 needed\): a window of 19s at 20\/s would hold enough/);
});

Deno.test("an error burst that is all of ten seconds fails error_rate over 10s, not the whole run", () => {
  const burst = Array.from({ length: 10 }, () => ({ fast: 0, errors: 100 }));
  const r = windowedResult(
    [{ ratePerSec: 100, seconds: seconds(180, 100, 170, burst) }],
    ["error_rate < 10%", "error_rate < 10% over 10s"],
  );
  const [whole, windowed] = evaluateSlos(r);
  assert.equal(whole.status, "pass", whole.message);
  assert.equal(windowed.status, "fail", windowed.message);
  assert.equal(windowed.measured, 1, "the last window is all failures");
  assert.match(windowed.message, /failing: 1\d\d–180 s/);
});

Deno.test("windows run on across adjacent bound stages but never bridge an unbound one", () => {
  const r = windowedResult(
    [
      { ratePerSec: 1000, seconds: seconds(6, 1000) },
      { ratePerSec: 1000, seconds: seconds(6, 1000) },
      { ratePerSec: 2000, seconds: seconds(6, 2000) },
      { ratePerSec: 1000, seconds: seconds(6, 1000) },
    ],
    ["p99 < 50ms over 10s", "p99 < 50ms over 10s at 1k/s", "p99 < 50ms over 8s at 2k/s"],
  );
  const [all, atOne, atTwo] = evaluateSlos(r);
  // Every non-warmup stage: 24 adjacent seconds, 15 windows.
  assert.equal(all.windows?.judged, 15, all.message);
  // At 1k/s: stages 0 and 1 (12 s, 3 windows); stage 3 alone is too short for one.
  assert.equal(atOne.windows?.judged, 3, atOne.message);
  assert.equal(atTwo.status, "inconclusive");
  assert.equal(atTwo.windows?.judged, 0);
  assert.match(
    atTwo.message,
    /no whole 8s window fits in the stages this SLO binds to \(they last 6s\)/,
  );
});

Deno.test("a labelled windowed SLO judges that label's share of each interval", () => {
  const r = windowedResult([{ ratePerSec: 1000, seconds: seconds(12, 1000) }], [
    'p99 < 50ms over 10s for "GET /"',
    'p99 < 50ms over 10s for "nope"',
  ]);
  const [label, missing] = evaluateSlos(r);
  assert.equal(label.status, "pass", label.message);
  assert.equal(label.label, "GET /");
  assert.equal(missing.status, "invalid");
});

Deno.test("the windows' tally sums in the verdict and survives JSON", () => {
  const r = windowedResult(
    [{ ratePerSec: 1000, seconds: seconds(20, 1000, 5, [{ fast: 500, errors: 500 }]) }],
    ["mean < 50ms over 5s"],
  );
  const [v] = evaluateSlos(r);
  assert.equal(v.status, "fail", v.message);
  const tally = JSON.parse(JSON.stringify(v.windows));
  assert.equal(tally.failed, 5);
  assert.equal(tally.findings.length, 5);
  assert.ok(tally.findings.every((f: { measured?: number }) => f.measured === undefined));
  const all = emptyCounts();
  for (const i of r.intervals) addCounts(all, i.counts);
  assert.equal(all.completed, r.stages[0].counts.completed);
});
