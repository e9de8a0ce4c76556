import assert from "node:assert/strict";
import {
  coversErrors,
  IMPLICIT_ERROR_GATE,
  IMPLICIT_ERROR_PARSED,
  IMPLICIT_ERROR_SLO,
  implicitErrorGate,
  implicitErrorVerdict,
} from "../../../../runner/gates/slo/implicit_error_gate.ts";
import { evaluateSlos } from "../../../../runner/gates/slo/evaluate_slos.ts";
import type { RunResult } from "../../../../runner/model/run_result.ts";
import { parseSlo } from "../../../../runner/plan/slo/mod.ts";
import {
  gateResult,
  type GateResultOptions,
  pointsUs,
  type StageSpec,
  uniformUs,
} from "../../../_helpers/gate_fixtures.ts";

/** One 10 s stage at 1k/s of `GET /a`: `ok` answered requests (0.5 to 1.5 ms), `errors` failed. */
function stage(ok: number, errors: number, warmup = false): StageSpec {
  return {
    name: warmup ? "warmup" : "main",
    warmup,
    ratePerSec: 1000,
    durationMs: 10_000,
    labels: [{
      label: "GET /a",
      response: ok > 0 ? uniformUs(ok, 500, 1500) : pointsUs([]),
      errors,
    }],
  };
}

function run(ok: number, errors: number, options: GateResultOptions = {}): RunResult {
  return gateResult([stage(ok, errors)], options);
}

Deno.test("a plan without SLOs whose every request failed gets a failed implicit error gate", () => {
  const [gate, ...rest] = implicitErrorGate(run(0, 10_000));
  assert.deepEqual(rest, []);
  assert.equal(gate.name, IMPLICIT_ERROR_GATE);
  assert.equal(gate.name, "error_rate <= 1% (implicit)");
  assert.equal(gate.implicit, true);
  assert.equal(gate.kind, "slo");
  assert.equal(gate.status, "fail");
  assert.equal(gate.measured, 1);
  assert.equal(gate.bound, 0.01);
  assert.equal(gate.unit, "fraction");
  assert.equal(gate.line, undefined, "no line of the plan holds it");
  assert.deepEqual(gate.stageIndexes, [0]);
  assert.match(gate.message, /^failed: measured 100%/);
  // Each unexpected status by its code: what the server said.
  assert.match(gate.message, /10000 of 10000 judged requests failed \(500 × 10,000\)/);
  assert.match(gate.message, /add one to set the bound, or `allow_errors: true`/);
});

Deno.test("the implicit SLO, given parsed, is what the grammar reads from its text", () => {
  assert.deepEqual(parseSlo(IMPLICIT_ERROR_SLO), { ok: true, value: IMPLICIT_ERROR_PARSED });
});

Deno.test("the implicit gate is judged as the written SLO `error_rate <= 1%` would be", () => {
  for (const errors of [101, 150, 300, 10_000]) {
    const [implicit] = implicitErrorGate(run(10_000 - errors, errors));
    const [written] = evaluateSlos(run(10_000 - errors, errors, { slos: ["error_rate <= 1%"] }));
    const { name: _a, implicit: _b, message: m1, ...figures } = implicit;
    const { name: _c, line: _d, message: m2, ...same } = written;
    assert.deepEqual(figures, same, `${errors} errors`);
    assert.ok(m1.startsWith(m2), `${errors} errors: ${m1}`);
  }
});

Deno.test("errors just over 1% are inconclusive on sampling; 3% of 10,000 fail beyond doubt", () => {
  const [close] = implicitErrorGate(run(9_899, 101));
  assert.equal(close.status, "inconclusive");
  assert.deepEqual(close.causes, ["sampling"]);
  assert.match(close.message, /about \d+ requests would decide it/);
  const [clear] = implicitErrorGate(run(9_700, 300));
  assert.equal(clear.status, "fail");
  assert.ok(clear.ci95![0] > 0.01, `${clear.ci95}`);
});

Deno.test("at most 1% of the judged requests failed: no implicit gate", () => {
  assert.deepEqual(implicitErrorGate(run(10_000, 0)), []);
  assert.deepEqual(implicitErrorGate(run(9_900, 100)), [], "exactly 1% is within the share");
  assert.deepEqual(implicitErrorGate(gateResult([])), [], "nothing completed");
});

Deno.test("warmup stages are not judged: their errors neither add the gate nor count in it", () => {
  const warm = gateResult([stage(0, 10_000, true), stage(10_000, 0)]);
  assert.deepEqual(implicitErrorGate(warm), []);
  const both = gateResult([stage(0, 10_000, true), stage(9_000, 1_000)]);
  const [gate] = implicitErrorGate(both);
  assert.equal(gate.measured, 0.1);
  assert.deepEqual(gate.stageIndexes, [1]);
  assert.match(gate.message, /1000 of 10000 judged requests failed/);
  const allWarmup = gateResult([stage(0, 10_000, true)]);
  assert.deepEqual(implicitErrorGate(allWarmup), [], "no stage is judged");
  assert.equal(implicitErrorVerdict(allWarmup), undefined);
});

Deno.test("an error_rate SLO over all requests, or allow_errors, leaves errors to the plan", () => {
  for (const slo of ["error_rate < 5%", "error_rate <= 0.1% at 1k/s", "error_rate < 50%"]) {
    const result = run(5_000, 5_000, { slos: [slo] });
    assert.deepEqual(implicitErrorGate(result), [], slo);
    assert.equal(coversErrors(result.plan), true, slo);
  }
  const allowed = run(0, 10_000);
  allowed.plan.allowErrors = true;
  assert.deepEqual(implicitErrorGate(allowed), []);
});

Deno.test("an error_rate SLO for one label, or only latency SLOs, still get the implicit gate", () => {
  for (const slos of [['error_rate < 5% for "GET /a"'], ["p50 < 10ms"], ["p99 <<< 1ms"]]) {
    const result = run(9_000, 1_000, { slos });
    assert.equal(coversErrors(result.plan), false, slos[0]);
    assert.deepEqual(implicitErrorGate(result).map((v) => [v.name, v.status]), [
      [IMPLICIT_ERROR_GATE, "fail"],
    ], slos[0]);
  }
});

Deno.test("implicitErrorVerdict() judges a run however few of its requests failed", () => {
  const clean = implicitErrorVerdict(run(10_000, 0))!;
  assert.equal(clean.status, "pass");
  assert.equal(clean.implicit, true);
  assert.equal(clean.measured, 0);
  assert.match(
    clean.message,
    /0 of 10000 judged requests failed and the plan sets no `error_rate` SLO over all requests: /,
  );
});
