import assert from "node:assert/strict";
import { evaluateSlos } from "../../../../runner/gates/slo/evaluate_slos.ts";
import type { Histogram } from "../../../../runner/hdr/mod.ts";
import { toEncodedHistogram } from "../../../../runner/hdr/encoded_histogram.ts";
import type { Verdict } from "../../../../runner/model/run_result.ts";
import {
  gateResult,
  type GateResultOptions,
  pointsUs,
  type StageSpec,
  uniformUs,
} from "../../../_helpers/gate_fixtures.ts";

/** One 10 s stage at 1k/s holding `response` under the label "GET /a". */
function oneStage(response: Histogram, errors = 0): StageSpec {
  return { ratePerSec: 1000, durationMs: 10_000, labels: [{ label: "GET /a", response, errors }] };
}

/** The verdicts of `slos` on one stage holding `response`. */
function judgeOne(response: Histogram, slos: string[], over: GateResultOptions = {}): Verdict[] {
  return evaluateSlos(gateResult([oneStage(response)], { ...over, slos }));
}

/** 10,000 response times spread evenly over 500..1500 µs: p99 is 1490 µs. */
const spread = () => uniformUs(10_000, 500, 1500);

Deno.test("a percentile under its bound passes with the measured value and a positive margin", () => {
  const [v] = judgeOne(spread(), ["p99 < 2ms"]);
  assert.equal(v.kind, "slo");
  assert.equal(v.status, "pass");
  assert.equal(v.name, "p99 < 2ms");
  assert.equal(v.line, 20);
  assert.deepEqual(v.stageIndexes, [0]);
  assert.equal(v.measured, 1490);
  assert.equal(v.bound, 2000);
  assert.equal(v.unit, "us");
  assert.ok(Math.abs(v.margin! - 0.255) < 1e-12, `margin ${v.margin}`);
  assert.deepEqual(v.ci95, [1488, 1492]);
  assert.match(
    v.message,
    /^passed: measured 1\.49ms \(95% interval 1\.488ms to 1\.492ms\) against < 2ms, 25\.5% headroom$/,
  );
});

Deno.test("a percentile over its bound fails with a negative margin saying how far over", () => {
  const [v] = judgeOne(spread(), ["p99 < 1ms"]);
  assert.equal(v.status, "fail");
  assert.equal(v.measured, 1490);
  assert.equal(v.bound, 1000);
  assert.ok(Math.abs(v.margin! + 0.49) < 1e-12, `margin ${v.margin}`);
  assert.match(v.message, /^failed: .*49% over/);
});

Deno.test("at equality `<=` passes and `<` cannot pass; `>=` passes and `>` fails", () => {
  // 9,000 at 500 µs and 1,000 at 1 ms: p99 is exactly 1 ms; 10,000 requests in 10 s is 1k/s.
  // The interval's upper end is 1 ms too: `<` cannot pass, and its lower end is 1 ms, so it
  // cannot be failed beyond doubt either (what the generator may have added is 10 µs).
  const h = pointsUs([[500, 9_000], [1000, 1_000]]);
  const [le, lt, ge, gt] = judgeOne(h, [
    "p99 <= 1ms",
    "p99 < 1ms",
    "throughput >= 1k/s",
    "throughput > 1k/s",
  ]);
  assert.deepEqual([le.measured, lt.measured, ge.measured, gt.measured], [1000, 1000, 1000, 1000]);
  assert.deepEqual(
    [le.status, lt.status, ge.status, gt.status],
    ["pass", "inconclusive", "pass", "fail"],
  );
  assert.equal(le.margin, 0);
  assert.equal(ge.margin, 0);
});

Deno.test("p99.9 with 2,000 requests all under the bound is inconclusive and says what decides", () => {
  const [v, p99] = judgeOne(uniformUs(2_000, 500, 1500), ["p99.9 < 10ms", "p99 < 10ms"]);
  assert.equal(v.status, "inconclusive");
  assert.deepEqual(v.causes, ["sampling"]);
  assert.ok(v.measured! > 1490, "the measured value is shown whatever the verdict");
  // No request beyond 10 ms in 2,000: a true p99.9 above it would leave none 13.5% of the time.
  assert.match(
    v.message,
    /about 3688 requests \(0 failed\) would decide it \(these stages had 2000\)/,
  );
  // 1,688 more requests at the stage's intended 200/s (2,000 scheduled over 10 s).
  assert.match(v.message, /run about 9s longer at 200\/s/);
  assert.equal(p99.status, "pass", "p99 needs only 367 requests with none beyond");
});

Deno.test("a certain failure is a fail however few requests lie beyond the percentile", () => {
  // 5,000 requests, a fifth slower than 1 s, p99.9 < 10ms: 1,000 beyond where 5 may be.
  const h = pointsUs([[800, 4_000], [1_200_000, 1_000]]);
  const [v] = judgeOne(h, ["p99.9 < 10ms"]);
  assert.equal(v.status, "fail");
  assert.equal(v.measured, h.getValueAtPercentile(99.9));
});

Deno.test("50 requests cannot pass p99.99 < 10s: inconclusive, the interval has no upper end", () => {
  const [v] = judgeOne(uniformUs(50, 500, 1500), ["p99.99 < 10s"]);
  assert.equal(v.status, "inconclusive");
  assert.equal(v.ci95, undefined);
  // Said plainly: the interval's lower end, and that it has no upper one.
  assert.match(v.message, /\(95% interval: at least 1\.\d+ms, no upper end\)/);
  assert.doesNotMatch(v.message, /unbounded/);
});

Deno.test("a percentile among the failed requests says its whole interval is there too", () => {
  // 10 answers and 990 failures: p50 and its whole interval fall among the failures.
  const [v] = evaluateSlos(gateResult([{
    ratePerSec: 100,
    durationMs: 10_000,
    labels: [{ label: "GET /a", response: uniformUs(10, 500, 1500), errors: 990 }],
  }], { slos: ["p50 < 10ms"] }));
  assert.equal(v.status, "fail");
  assert.doesNotMatch(v.message, /beyond every bound to/);
  assert.match(
    v.message,
    /p50 falls among the 990 failed requests \(beyond every bound\), its 95% interval too;/,
  );
});

Deno.test("the sample rule's boundary: 3,687 requests with none beyond cannot pass p99.9, 3,688 can", () => {
  // The smallest n with 0.999^n <= 2.5%.
  assert.equal(Math.ceil(Math.log(0.025) / Math.log(0.999)), 3688);
  const [short] = judgeOne(uniformUs(3_687, 500, 1500), ["p99.9 < 10ms"]);
  const [enough] = judgeOne(uniformUs(3_688, 500, 1500), ["p99.9 < 10ms"]);
  assert.equal(short.status, "inconclusive");
  assert.equal(enough.status, "pass");
});

Deno.test("a run that fell behind passes no gate but still fails one beyond doubt", () => {
  // Half the requests at 1 ms, half at 100 ms; the generator's send lag p99 is 42 ms.
  const h = pointsUs([[1000, 5_000], [100_000, 5_000]]);
  const [certain, flattered, loose] = judgeOne(h, ["p99 < 10ms", "p25 < 2ms", "p99 < 1h"], {
    toolLimited: true,
  });
  assert.equal(certain.status, "fail", "100 ms less 42 ms of lateness is still beyond 10 ms");
  assert.equal(flattered.status, "inconclusive");
  assert.deepEqual(flattered.causes, ["schedule"]);
  assert.match(
    flattered.message,
    /fell behind its schedule \(its send lag p99 was 42\.\d*ms, above 10ms\)/,
  );
  assert.equal(flattered.measured, 1000, "the measured value is kept");
  // Late by 42 ms is on schedule for an hour-long bound (10% of it is allowed).
  assert.equal(loose.status, "pass");
});

Deno.test("an excess the generator's own delays could explain is inconclusive, beyond them a fail", () => {
  // p99 measured 1.49 ms against < 1.2 ms: 290 µs over; the generator's delays reach 400 µs.
  const [close] = judgeOne(spread(), ["p99 < 1.2ms"], { lateSendUs: 100, floorUs: 300 });
  assert.equal(close.status, "inconclusive");
  assert.deepEqual(close.causes, ["generator"]);
  assert.equal(close.generatorAllowance, 400);
  assert.match(close.message, /generator's own delays at this percentile \(up to 400us/);
  const [far] = judgeOne(spread(), ["p99 < 1ms"], { lateSendUs: 100, floorUs: 300 });
  assert.equal(far.status, "fail");
  assert.match(far.message, /beyond what the generator's own delays \(up to 400us\) could explain/);
});

Deno.test("failed requests count beyond every latency bound, never as fast samples", () => {
  // A target killed 1 s into an 8 s run: 869 fast answers, then 7,131 failures.
  const result = gateResult([{
    ratePerSec: 1000,
    durationMs: 8_000,
    labels: [{ label: "GET /a", response: uniformUs(869, 300, 700), errors: 7_131 }],
  }], { slos: ["p99 < 100ms", "p50 < 100ms", "max < 1s", "mean < 1s"] });
  const [p99, p50, max, mean] = evaluateSlos(result);
  for (const v of [p99, p50, max, mean]) {
    assert.equal(v.status, "fail", v.name);
    assert.equal(v.censored, true);
    assert.equal(v.measured, undefined);
    assert.equal(v.failures, 7_131);
  }
  assert.match(p99.message, /p99 falls among the 7131 failed requests/);
  assert.match(
    max.message,
    /7131 requests failed, and a failed request is beyond every latency bound/,
  );
});

Deno.test("`at <rate>` binds only the constant stages at that rate, never warmup or ramps", () => {
  const fast = () => [{ label: "GET /a", response: uniformUs(10_000, 500, 1500) }];
  const slow = () => [{ label: "GET /a", response: uniformUs(10_000, 9_000, 10_000) }];
  const result = gateResult([
    { warmup: true, ratePerSec: 1000, durationMs: 10_000, labels: slow() },
    { ratePerSec: 1000, durationMs: 10_000, labels: fast() },
    { kind: "ramp", ratePerSec: 1000, toPerSec: 2000, durationMs: 10_000, labels: slow() },
    { ratePerSec: 2000, durationMs: 5_000, labels: slow() },
  ], { slos: ["max < 2ms at 1k/s", "max < 2ms", "max < 20ms at 2k/s", "max < 2ms at 3k/s"] });
  const [atOne, unbound, atTwo, atThree] = evaluateSlos(result);
  assert.deepEqual(atOne.stageIndexes, [1]);
  assert.equal(atOne.status, "pass");
  assert.equal(atOne.measured, 1500);
  assert.deepEqual(unbound.stageIndexes, [1, 2, 3], "every non-warmup stage");
  assert.equal(unbound.status, "fail");
  assert.deepEqual(atTwo.stageIndexes, [3]);
  assert.equal(atTwo.status, "pass");
  assert.equal(atThree.status, "invalid");
  assert.match(atThree.message, /no stage at that rate/);
});

Deno.test('`for "label"` judges only that label\'s requests, and names it', () => {
  const result = gateResult([{
    ratePerSec: 1000,
    durationMs: 10_000,
    labels: [
      { label: "GET /a", response: uniformUs(10_000, 500, 1500) },
      { label: "GET /b", response: uniformUs(10_000, 5_000, 6_000) },
    ],
  }], { slos: ['p99 < 2ms for "GET /a"', 'p99 < 2ms for "GET /b"', 'p99 < 2ms for "GET /c"'] });
  const [a, b, c] = evaluateSlos(result);
  assert.equal(a.status, "pass");
  assert.equal(a.label, "GET /a");
  assert.equal(a.name, "p99 < 2ms [GET /a]");
  assert.equal(a.measured, 1490);
  assert.equal(b.status, "fail");
  assert.equal(b.label, "GET /b");
  assert.ok(b.measured! > 5_900);
  assert.equal(c.status, "invalid");
  assert.match(c.message, /no request is labelled "GET \/c"/);
});

Deno.test("error_rate is failed requests over completed ones, judged on its binomial interval", () => {
  const result = gateResult([oneStage(uniformUs(9_980, 500, 1500), 20)], {
    slos: ["error_rate < 0.5%", "error_rate < 0.1%", "error_rate < 0.25%"],
  });
  const [pass, fail, close] = evaluateSlos(result);
  assert.equal(pass.status, "pass");
  assert.equal(pass.measured, 0.002);
  assert.equal(pass.unit, "fraction");
  assert.equal(pass.bound, 0.005);
  assert.ok(Math.abs(pass.margin! - 0.6) < 1e-12);
  // Clopper-Pearson for 20 of 10,000: 0.122% to 0.309%.
  assert.ok(Math.abs(pass.ci95![0] - 0.00122) < 1e-5 && Math.abs(pass.ci95![1] - 0.00309) < 1e-5);
  assert.equal(fail.status, "fail");
  assert.ok(Math.abs(fail.margin! + 1) < 1e-12);
  assert.match(
    fail.message,
    /measured 0\.2% \(95% interval 0\.1\d+% to 0\.3\d+%\) against < 0\.1%/,
  );
  assert.equal(close.status, "inconclusive");
  assert.deepEqual(close.causes, ["sampling"]);
});

Deno.test("no error in 1,000 requests cannot show error_rate < 0.1%; in 10,000 it can", () => {
  const [few] = judgeOne(uniformUs(1_000, 500, 1500), ["error_rate < 0.1%"]);
  const [many] = judgeOne(spread(), ["error_rate < 0.1%"]);
  assert.equal(few.status, "inconclusive");
  assert.equal(many.status, "pass");
});

Deno.test("error_rate <= 0% is judged with a finite margin, or none, never NaN", () => {
  const clean = evaluateSlos(gateResult([oneStage(spread())], { slos: ["error_rate <= 0%"] }));
  const dirty = evaluateSlos(gateResult([oneStage(spread(), 1)], { slos: ["error_rate <= 0%"] }));
  assert.equal(clean[0].status, "pass");
  assert.equal(dirty[0].status, "fail");
  for (const v of [clean[0], dirty[0]]) {
    assert.ok(v.margin === undefined || Number.isFinite(v.margin), `margin ${v.margin}`);
    assert.doesNotMatch(v.message, /NaN|Infinity/);
  }
});

Deno.test("throughput is completed requests over the bound stages' length, judged as a floor", () => {
  const result = gateResult([
    oneStage(spread()),
    { ratePerSec: 2000, durationMs: 5_000, labels: [{ label: "GET /a", response: spread() }] },
  ], { slos: ["throughput >= 900/s at 1k/s", "throughput >= 1.5k/s"] });
  const [atOne, all] = evaluateSlos(result);
  assert.equal(atOne.status, "pass");
  assert.equal(atOne.measured, 1000);
  assert.equal(atOne.unit, "per_sec");
  assert.ok(Math.abs(atOne.margin! - 1 / 9) < 1e-12);
  assert.equal(all.status, "fail");
  assert.ok(Math.abs(all.measured! - 20_000 / 15) < 1e-9, `measured ${all.measured}`);
  assert.ok(all.margin! < 0);
});

Deno.test("max and mean are read off the merged histogram; the mean carries a normal interval", () => {
  const h = pointsUs([[1000, 9_990], [1800, 10]]);
  const [mean, max, maxOk] = judgeOne(h, ["mean < 1.1ms", "max < 1.5ms", "max <= 1.8ms"]);
  assert.equal(mean.status, "pass");
  assert.ok(Math.abs(mean.measured! - 1000.8) < 1e-9, `mean ${mean.measured}`);
  assert.equal(max.status, "fail");
  assert.equal(max.measured, 1800);
  assert.equal(maxOk.status, "pass");
  // mean ± 1.96 sd/sqrt(n): sd is about 39.96 µs here.
  assert.ok(Math.abs(mean.ci95![0] - 1000.30) < 0.01 && Math.abs(mean.ci95![1] - 1001.30) < 0.01);
  assert.equal(max.marginal, undefined);
  assert.equal(max.ci95, undefined, "an observed max has no sampling interval");
});

Deno.test("a judged percentile's 95% interval contains it; a bound inside it is inconclusive", () => {
  const [inside, farAbove, farBelow] = judgeOne(spread(), [
    "p99 < 1.491ms",
    "p99 < 2ms",
    "p99 < 1ms",
  ]);
  for (const v of [inside, farAbove, farBelow]) {
    const [low, high] = v.ci95!;
    assert.ok(low < v.measured! && v.measured! < high, `${low} < ${v.measured} < ${high}`);
  }
  assert.equal(inside.status, "inconclusive");
  assert.equal(inside.marginal, true);
  assert.match(inside.message, /the bound lies inside the 95% interval/);
  assert.equal(farAbove.status, "pass");
  assert.equal(farAbove.marginal, undefined);
  assert.equal(farBelow.status, "fail");
  assert.equal(farBelow.marginal, undefined);
});

Deno.test("stages are merged exactly: a percentile is never an average of stage percentiles", () => {
  // Stage 1's p99 is 1 ms, stage 2's is 5 ms (their mean 3 ms); merged, 150 of 20,000 requests
  // (0.75%) lie at 5 ms, so the merged p99 is 1 ms.
  const result = gateResult([
    oneStage(pointsUs([[1000, 10_000]])),
    oneStage(pointsUs([[1000, 9_850], [5000, 150]])),
  ], { slos: ["p99 < 2ms", "p99.5 < 2ms"] });
  const [p99, p995] = evaluateSlos(result);
  assert.deepEqual(p99.stageIndexes, [0, 1]);
  assert.equal(p99.measured, 1000);
  assert.equal(p99.status, "pass");
  assert.ok(p995.measured! >= 5000 && p995.status === "fail");
});

Deno.test("an SLO that does not parse and a stage without requests are not passed", () => {
  const verdicts = judgeOne(pointsUs([]), ["p99 << 1ms", "p99 < 1ms", "error_rate < 1%"]);
  assert.equal(verdicts[0].status, "invalid");
  assert.match(verdicts[0].message, /does not parse/);
  assert.equal(verdicts[1].status, "inconclusive");
  assert.match(verdicts[1].message, /no request completed/);
  assert.equal(verdicts[2].status, "inconclusive");
});

Deno.test("a throughput shortfall is failed unless a generator behind schedule sent too little", () => {
  // 1k/s measured against >= 1.2k/s.
  const onTime = evaluateSlos(gateResult([oneStage(spread())], { slos: ["throughput >= 1.2k/s"] }));
  assert.equal(onTime[0].status, "fail");
  const behind = gateResult([oneStage(spread())], {
    slos: ["throughput >= 1.2k/s"],
    toolLimited: true,
  });
  behind.health.intendedPerSec = 1000;
  behind.health.achievedPerSec = 700;
  const [v] = evaluateSlos(behind);
  assert.equal(v.status, "inconclusive");
  assert.deepEqual(v.causes, ["generator", "schedule"]);
  assert.match(
    v.message,
    /the generator, behind its schedule, sent up to 300\/s less than planned/,
  );
  // A shortfall beyond what it left unsent still fails.
  behind.health.achievedPerSec = 990;
  assert.equal(evaluateSlos(behind)[0].status, "fail");
});

/** One stage whose response times are `spread()` and whose times to first byte are 100 µs-5 ms. */
function withTtfb(slos: string[], errors = 0) {
  const r = gateResult([oneStage(spread(), errors)], { slos });
  const ttfb = toEncodedHistogram(uniformUs(10_000 - errors, 100, 5_000));
  r.stages[0].ttfb = ttfb;
  r.stages[0].labels[0].ttfb = ttfb;
  return r;
}

Deno.test("a ttfb SLO is judged on the times to first byte, not the response times", () => {
  // Response p99 is 1.49 ms; the first bytes' p99 is 4.95 ms.
  const [response, ttfb, labelled, max] = evaluateSlos(
    withTtfb(["p99 < 2ms", "ttfb.p99 < 2ms", 'ttfb.p99 < 10ms for "GET /a"', "ttfb.max < 6ms"]),
  );
  assert.equal(response.status, "pass");
  assert.equal(ttfb.status, "fail");
  assert.ok(Math.abs(ttfb.measured! - 4_951) < 10, `measured ${ttfb.measured}`);
  assert.equal(ttfb.name, "ttfb.p99 < 2ms");
  assert.equal(labelled.status, "pass");
  assert.equal(labelled.label, "GET /a");
  assert.equal(max.status, "pass");
});

Deno.test("a ttfb SLO counts failed requests beyond its bound, as a latency SLO does", () => {
  // 200 of 10,000 failed: 2% beyond every bound, so p99 lies among them.
  const [v] = evaluateSlos(withTtfb(["ttfb.p99 < 1s"], 200));
  assert.equal(v.status, "fail");
  assert.equal(v.failures, 200);
});

Deno.test("a ttfb SLO on a result written before ttfb was recorded is invalid, saying why", () => {
  const [v] = evaluateSlos(gateResult([oneStage(spread())], { slos: ["ttfb.p99 < 1s"] }));
  assert.equal(v.status, "invalid");
  assert.match(v.message, /the result holds no time to first byte/);
});
