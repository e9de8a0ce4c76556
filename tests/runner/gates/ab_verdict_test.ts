import assert from "node:assert/strict";
import { abVerdict } from "../../../runner/gates/ab_verdict.ts";

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
