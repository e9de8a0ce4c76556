import assert from "node:assert/strict";
import { evaluateSlos } from "../../../runner/gates/evaluate_slos.ts";
import type { Histogram } from "../../../runner/recorder/_hdr.ts";
import type { Verdict } from "../../../runner/result/run_result.ts";
import {
  gateResult,
  type GateResultOptions,
  pointsUs,
  type StageSpec,
  uniformUs,
} from "../../_helpers/gate_fixtures.ts";

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
  assert.match(v.message, /^passed: measured 1\.49ms against < 2ms \(25\.5% headroom\)$/);
});

Deno.test("a percentile over its bound fails with a negative margin saying how far over", () => {
  const [v] = judgeOne(spread(), ["p99 < 1ms"]);
  assert.equal(v.status, "fail");
  assert.equal(v.measured, 1490);
  assert.equal(v.bound, 1000);
  assert.ok(Math.abs(v.margin! + 0.49) < 1e-12, `margin ${v.margin}`);
  assert.match(v.message, /^failed: .*49% over/);
});

Deno.test("at equality `<=` passes and `<` fails; `>=` passes and `>` fails", () => {
  // 9,000 at 500 µs and 1,000 at 1 ms: p99 is exactly 1 ms; 10,000 requests in 10 s is 1k/s.
  const h = pointsUs([[500, 9_000], [1000, 1_000]]);
  const [le, lt, ge, gt] = judgeOne(h, [
    "p99 <= 1ms",
    "p99 < 1ms",
    "throughput >= 1k/s",
    "throughput > 1k/s",
  ]);
  assert.deepEqual([le.measured, lt.measured, ge.measured, gt.measured], [1000, 1000, 1000, 1000]);
  assert.deepEqual([le.status, lt.status, ge.status, gt.status], ["pass", "fail", "pass", "fail"]);
  assert.equal(le.margin, 0);
  assert.equal(ge.margin, 0);
});

Deno.test("p99.9 with 5,000 requests is insufficient and says it needs 10,000", () => {
  const [v, p99] = judgeOne(uniformUs(5_000, 500, 1500), ["p99.9 < 10ms", "p99 < 10ms"]);
  assert.equal(v.status, "insufficient");
  assert.equal(v.measured, undefined);
  assert.equal(v.ci95, undefined);
  assert.match(v.message, /needs at least 10000 requests/);
  assert.match(v.message, /had 5000/);
  // 5,000 more requests at the stage's intended 500/s (5,000 scheduled over 10 s).
  assert.match(v.message, /about 10s longer at 500\/s/);
  assert.equal(p99.status, "pass", "p99 has 50 requests beyond it at 5,000");
});

Deno.test("the sample rule's boundary: 9,999 requests are insufficient for p99.9, 10,000 are not", () => {
  const [short] = judgeOne(uniformUs(9_999, 500, 1500), ["p99.9 < 10ms"]);
  const [enough] = judgeOne(uniformUs(10_000, 500, 1500), ["p99.9 < 10ms"]);
  assert.equal(short.status, "insufficient");
  assert.equal(enough.status, "pass");
});

Deno.test("a tool-limited run makes every SLO invalid, even ones its numbers would pass", () => {
  const verdicts = judgeOne(spread(), ["p99 < 1ms", "p99 < 1h", "error_rate < 1%"], {
    toolLimited: true,
  });
  assert.deepEqual(verdicts.map((v) => v.status), ["invalid", "invalid", "invalid"]);
  for (const v of verdicts) {
    assert.match(v.message, /tool-limited/);
    assert.equal(v.measured, undefined);
    assert.deepEqual(v.stageIndexes, [0]);
  }
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

Deno.test("error_rate is failed requests over completed ones, as a fraction", () => {
  const result = gateResult([oneStage(spread(), 20)], {
    slos: ["error_rate < 0.5%", "error_rate < 0.1%"],
  });
  const [pass, fail] = evaluateSlos(result);
  assert.equal(pass.status, "pass");
  assert.equal(pass.measured, 0.002);
  assert.equal(pass.unit, "fraction");
  assert.equal(pass.bound, 0.005);
  assert.ok(Math.abs(pass.margin! - 0.6) < 1e-12);
  assert.equal(fail.status, "fail");
  assert.ok(Math.abs(fail.margin! + 1) < 1e-12);
  assert.match(fail.message, /measured 0\.2% against < 0\.1%/);
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

Deno.test("max and mean are read off the merged histogram and carry no confidence interval", () => {
  const h = pointsUs([[1000, 9_990], [1800, 10]]);
  const [mean, max, maxOk] = judgeOne(h, ["mean < 1.1ms", "max < 1.5ms", "max <= 1.8ms"]);
  assert.equal(mean.status, "pass");
  assert.ok(Math.abs(mean.measured! - 1000.8) < 1e-9, `mean ${mean.measured}`);
  assert.equal(max.status, "fail");
  assert.equal(max.measured, 1800);
  assert.equal(maxOk.status, "pass");
  for (const v of [mean, max]) {
    assert.equal(v.ci95, undefined);
    assert.equal(v.marginal, undefined);
  }
});

Deno.test("a judged percentile's 95% interval contains it; a bound inside it is marginal", () => {
  const [inside, farAbove, farBelow] = judgeOne(spread(), [
    "p99 < 1.491ms",
    "p99 < 2ms",
    "p99 < 1ms",
  ]);
  for (const v of [inside, farAbove, farBelow]) {
    const [low, high] = v.ci95!;
    assert.ok(low < v.measured! && v.measured! < high, `${low} < ${v.measured} < ${high}`);
  }
  assert.equal(inside.status, "pass");
  assert.equal(inside.marginal, true);
  assert.match(inside.message, /marginal/);
  assert.equal(farAbove.marginal, false);
  assert.doesNotMatch(farAbove.message, /marginal/);
  assert.equal(farBelow.status, "fail");
  assert.equal(farBelow.marginal, false);
});

Deno.test("stages are merged exactly: a percentile is never an average of stage percentiles", () => {
  // Stage 1's p99 is 1 ms, stage 2's is 5 ms (their mean 3 ms); merged, 200 of 20,000 requests
  // (1%) lie at 5 ms, so the merged p99 is 1 ms.
  const result = gateResult([
    oneStage(pointsUs([[1000, 10_000]])),
    oneStage(pointsUs([[1000, 9_800], [5000, 200]])),
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
  assert.equal(verdicts[1].status, "insufficient");
  assert.match(verdicts[1].message, /no request completed/);
  assert.equal(verdicts[2].status, "insufficient");
});
