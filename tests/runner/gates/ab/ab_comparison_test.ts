import assert from "node:assert/strict";
import {
  AB_DEFAULT_MIN_TAIL_SAMPLES,
  compareRounds,
  type RoundPair,
} from "../../../../runner/gates/ab/ab_comparison.ts";
import { abVerdict } from "../../../../runner/gates/ab/ab_verdict.ts";
import { abSloVerdicts } from "../../../../runner/gates/ab/ab_slos.ts";
import { evaluateSlos } from "../../../../runner/gates/slo/evaluate_slos.ts";
import type { RunResult } from "../../../../runner/model/run_result.ts";
import { gateResult, scaledUs } from "../../../_helpers/gate_fixtures.ts";

/** A run whose 20,000 response times are `scale` × 0.5..1.5 ms (uniform), two labels. */
function run(scale: number, options: { toolLimited?: boolean } = {}): RunResult {
  const r = gateResult([{
    ratePerSec: 1000,
    durationMs: 20_000,
    labels: [
      { label: "GET /a", response: scaledUs(10_000, scale) },
      { label: "GET /b", response: scaledUs(10_000, scale) },
    ],
  }], { slos: ["p99 < 1.8ms"], ...options });
  r.verdicts = evaluateSlos(r);
  return r;
}

/** Rounds whose machine noise moves both runs alike (±15%), head `factor` × base. */
function rounds(factor: number, noise = [1, 1.15, 0.9, 1.1, 0.95]): RoundPair[] {
  return noise.map((n) => ({ base: run(n), head: run(n * factor) }));
}

Deno.test("compareRounds(): every stage and label, each metric of the floors, paired over the rounds", () => {
  const checks = compareRounds(rounds(1), { p50: 0.05, p99: 0.05 }, 0.999, true);
  assert.deepEqual(checks.map((c) => c.name), [
    "p50 head vs base: stage 0",
    "p99 head vs base: stage 0",
    "p50 head vs base: stage 0 [GET /a]",
    "p99 head vs base: stage 0 [GET /a]",
    "p50 head vs base: stage 0 [GET /b]",
    "p99 head vs base: stage 0 [GET /b]",
  ]);
  assert.ok(checks.every((c) => c.status === "pass"), JSON.stringify(checks.map((c) => c.message)));
  assert.equal(checks[0].base.length, 5);
  assert.equal(checks[0].unit, "us");
});

Deno.test("compareRounds(): a 10% slower head is a regression although the rounds differ by 25%", () => {
  const checks = compareRounds(rounds(1.1), { p50: 0.05, p99: 0.05 }, 0.999, true);
  assert.ok(checks.every((c) => c.status === "fail"), JSON.stringify(checks.map((c) => c.message)));
  assert.match(
    checks[0].message,
    /^regression: head 10(\.\d)?% worse \(95% interval \d+(\.\d)?% worse to /,
  );
  assert.equal(abVerdict(checks, []).status, "fail");
  assert.match(abVerdict(checks, []).message, /6 regressions of head against base/);
});

Deno.test("compareRounds(): a tool-limited round is left out, and the message says so", () => {
  const pairs = rounds(1);
  pairs[2] = { base: run(1, { toolLimited: true }), head: run(1) };
  const [first] = compareRounds(pairs, { p50: 0.05 }, 0.999, true);
  assert.equal(first.base.length, 4);
  assert.match(first.message, /1 round left out \(tool-limited or stopped\)/);
});

Deno.test("compareRounds(): a default tail percentile too thin to judge is skipped; a named one is inconclusive", () => {
  // 20,000 requests: p99.9 has 20 beyond it, p99.99 only 2.
  const named = compareRounds(rounds(1), { "p99.9": 0.2, "p99.99": 0.2 } as never, 0.999, true);
  assert.deepEqual(named.filter((c) => c.label === undefined).map((c) => [c.metric, c.status]), [
    ["p99.9", "pass"],
    ["p99.99", "inconclusive"],
  ]);
  assert.match(
    named.find((c) => c.metric === "p99.99")!.message,
    /one had 20000 in all: run the stage for at least 100000 requests/,
  );
  const defaults = compareRounds(rounds(1), { "p99.99": 0.2 } as never, 0.999, false);
  assert.deepEqual(defaults, []);
});

Deno.test("abVerdict(): inconclusive comparisons alone are regression-only; an undecided SLO is not", () => {
  const headNoise = [1.08, 0.98, 1.1, 0.99, 1];
  const pairs = [1, 1.15, 0.9, 1.1, 0.95].map((n, i) => ({
    base: run(n),
    head: run(n * headNoise[i]),
  }));
  const checks = compareRounds(pairs, { p50: 0.05 }, 0.999, true);
  assert.ok(checks.some((c) => c.status === "inconclusive"), JSON.stringify(checks));
  const passing = abSloVerdicts(pairs.map((p) => p.head), pairs.map((p) => p.base));
  assert.deepEqual(passing.map((s) => s.status), ["pass"]);
  assert.deepEqual(abVerdict(checks, passing).regressionOnly, true);
  // Every head run fell behind its schedule: the pooled SLO cannot pass, for the runner's sake.
  const late = abSloVerdicts([run(1, { toolLimited: true })], [run(1)]);
  assert.deepEqual(late.map((s) => [s.status, s.causes]), [["inconclusive", ["schedule"]]]);
  assert.equal(abVerdict(checks, late).status, "inconclusive");
  assert.equal(abVerdict(checks, late).regressionOnly, undefined);
  assert.equal(abVerdict(checks, late).runnerOnly, true);
  assert.equal(abVerdict([], []).regressionOnly, undefined, "nothing compared is no warning");
});

Deno.test("compareRounds(): a default p99 needs 100 requests beyond it in every run, a named one 10", () => {
  // Each label's runs hold 10,000 requests (100 beyond p99), the whole stage 20,000 (200).
  const names = (floors: Record<string, number>, named: boolean) =>
    compareRounds(rounds(1), floors, 0.999, named).map((c) => c.name);
  assert.deepEqual(names({ p99: 0.1 }, false), [
    "p99 head vs base: stage 0",
    "p99 head vs base: stage 0 [GET /a]",
    "p99 head vs base: stage 0 [GET /b]",
  ]);
  // p99.9: 20 beyond it in the stage, 10 per label: compared when the plan names it, else not.
  assert.deepEqual(names({ "p99.9": 0.2 }, false), []);
  assert.equal(names({ "p99.9": 0.2 }, true).length, 3);
  assert.equal(AB_DEFAULT_MIN_TAIL_SAMPLES, 100);
});

Deno.test("compareRounds(): a tail's floor follows its rounds' spread up to 50%, p50's to 10%", () => {
  // Head and base alike but for each round's noise on head alone: a busy neighbour's swing.
  const swung = (factors: number[]) =>
    factors.map((f, i) => ({ base: run(1 + i * 0.01), head: run((1 + i * 0.01) * f) }));
  const p = (checks: ReturnType<typeof compareRounds>, metric: string) =>
    checks.find((c) => c.metric === metric && c.label === undefined)!;
  const moderate = compareRounds(swung([1.2, 0.85, 1.15, 0.88, 1.0]));
  assert.equal(p(moderate, "p99").status, "pass", p(moderate, "p99").message);
  assert.equal(p(moderate, "p99").floorSource, "spread");
  assert.ok(p(moderate, "p99").floor > 0.1 && p(moderate, "p99").floor < 0.5);
  // The same swing leaves a p50 undecided: its floor stops at the history gate's 10%.
  assert.equal(p(moderate, "p50").status, "inconclusive", p(moderate, "p50").message);
  assert.equal(p(moderate, "p50").floor, 0.1);
  const wild = compareRounds(swung([1.9, 0.55, 1.8, 0.6, 1.0]));
  assert.equal(p(wild, "p99").status, "inconclusive", p(wild, "p99").message);
  assert.equal(p(wild, "p99").floor, 0.5);
  assert.match(p(wild, "p99").message, /rule out a change beyond 50%/);
});
