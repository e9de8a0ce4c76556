import assert from "node:assert/strict";
import { abVerdict, headSloVerdicts } from "../../../../runner/gates/ab/ab_verdict.ts";
import { judgeRun } from "../../../../runner/gates/judge_run.ts";
import type { RunResult } from "../../../../runner/model/run_result.ts";
import { gateResult, scaledUs } from "../../../_helpers/gate_fixtures.ts";

/** A head run of 20,000 requests, `errors` of them failed, judged as `tailgate ab` judges it. */
async function head(errors: number, slos: string[] = ["p50 < 10ms"]): Promise<RunResult> {
  const r = gateResult([{
    ratePerSec: 1000,
    durationMs: 20_000,
    labels: [{ label: "GET /a", response: scaledUs(20_000 - errors, 1), errors }],
  }], { slos });
  await judgeRun(r);
  return r;
}

Deno.test("headSloVerdicts(): the implicit error gate joins once a head run needed it, judged on every run", async () => {
  // 5% failed in round 1; 0.5% and none in the others (within the share: no gate of their own).
  const heads = [await head(1_000), await head(100), await head(0)];
  assert.deepEqual(heads.map((h) => h.verdicts.filter((v) => v.implicit).length), [1, 0, 0]);
  const slos = headSloVerdicts(heads);
  assert.deepEqual(slos.map((s) => [s.name, s.implicit, s.perRound, s.status]), [
    ["p50 < 10ms", undefined, ["pass", "pass", "pass"], "pass"],
    ["error_rate <= 1% (implicit)", true, ["fail", "pass", "pass"], "fail"],
  ]);
  assert.equal(slos[1].line, undefined);
  assert.equal(abVerdict([], slos).status, "fail");
});

Deno.test("headSloVerdicts(): a head run just under the share is judged by the rule, not counted a pass", async () => {
  // 0.95% of 20,000: no gate of its own, but its interval reaches over 1%.
  const [slo] = headSloVerdicts([await head(190), await head(1_000)]).filter((s) => s.implicit);
  assert.deepEqual(slo.perRound, ["inconclusive", "fail"]);
  assert.equal(slo.status, "fail");
  const [close] = headSloVerdicts([await head(190), await head(210)]).filter((s) => s.implicit);
  assert.deepEqual(close.perRound, ["inconclusive", "inconclusive"]);
  assert.equal(close.status, "inconclusive");
});

Deno.test("headSloVerdicts(): no implicit gate when no head run needed it or the plan sets errors", async () => {
  const clean = headSloVerdicts([await head(0), await head(100)]);
  assert.deepEqual(clean.map((s) => s.name), ["p50 < 10ms"]);
  const written = headSloVerdicts([await head(1_000, ["error_rate < 10%"])]);
  assert.deepEqual(written.map((s) => [s.name, s.status]), [["error_rate < 10%", "pass"]]);
});

Deno.test("abVerdict(): a head run stopped by fail-fast ends the comparison a fail, saying why", () => {
  const slo = {
    name: "error_rate < 1%",
    status: "fail" as const,
    perRound: ["fail" as const],
    message: "head's 1 run: 1 fail",
  };
  const stop = { round: 2, slo: "error_rate < 1%", reason: "90 requests already failed, …" };
  const verdict = abVerdict([], [slo], stop);
  assert.equal(verdict.status, "fail");
  assert.equal(
    verdict.message,
    "head's run in round 2 was stopped by fail-fast: 90 requests already failed, …",
  );
  // With nothing compared, no stop is a fail: it is the stop that decides.
  assert.equal(abVerdict([], [], stop).status, "fail");
  assert.equal(abVerdict([], []).status, "inconclusive");
});
