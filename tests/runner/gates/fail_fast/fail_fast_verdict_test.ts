import assert from "node:assert/strict";
import { judge } from "../../../../runner/api/judge.ts";
import { exitCodeOf } from "../../../../runner/result/read/mod.ts";
import { soundnessVerdicts } from "../../../../runner/result/read/run_soundness.ts";
import type { RunResult } from "../../../../runner/model/run_result.ts";
import { gateResult, scaledUs } from "../../../_helpers/gate_fixtures.ts";

const REASON = "300 requests already failed or are outstanding for over 100ms, of the 10000 " +
  'planned in stage "steady": `p99 < 50ms` fails whatever the rest do';

/** 3 s of a 10 s stage ran, fast, before fail-fast stopped the run on `p99 < 50ms`. */
function stopped(toolLimited = false): RunResult {
  const result = gateResult(
    [{
      name: "steady",
      ratePerSec: 1000,
      durationMs: 10_000,
      labels: [{ label: "GET /", response: scaledUs(3000, 1) }],
    }],
    { slos: ["p99 < 50ms", "error_rate < 1%"], complete: false, toolLimited },
  );
  result.run.stopReason = "fail_fast";
  result.run.stoppedBy = { slo: "p99 < 50ms", line: 20, reason: REASON, atMs: 3000 };
  return result;
}

Deno.test("fail-fast's SLO fails with the certain reason, and the run fails (exit 1), not invalid", async () => {
  const result = (await judge(stopped())).result;
  const [p99, errors] = result.verdicts;
  assert.deepEqual([p99.name, p99.status, p99.bound, p99.unit], [
    "p99 < 50ms",
    "fail",
    50_000,
    "us",
  ]);
  assert.equal(p99.message, `failed for certain (fail-fast stopped the run 3.0 s in): ${REASON}`);
  // What ran is fast: the figures of the part measured are not shown as the SLO's.
  assert.equal(p99.measured, undefined);
  // The other gates are judged on what ran; no `run complete` gate: the stop is the failure.
  assert.deepEqual([errors.name, errors.status], ["error_rate < 1%", "pass"]);
  assert.equal(result.verdicts.length, 2);
  assert.equal(result.verdict!.status, "fail");
  assert.equal(result.verdict!.reason, `fail-fast stopped the run 3.0 s in: ${REASON}`);
  assert.equal(exitCodeOf(result.verdict!), 1);
});

Deno.test("a fail-fast stop in a tool-limited run proves nothing: the SLO is inconclusive, the run invalid", async () => {
  const measured = stopped(true);
  const result = (await judge(measured)).result;
  const p99 = result.verdicts.find((v) => v.name === "p99 < 50ms")!;
  assert.equal(p99.status, "inconclusive");
  assert.deepEqual(p99.causes, ["generator"]);
  assert.match(p99.message, /but the generator fell behind its schedule \(send lag p99 42ms/);
  const complete = result.verdicts.find((v) => v.name === "run complete")!;
  assert.equal(complete.status, "invalid");
  assert.match(complete.message, /on `p99 < 50ms`, but the generator fell behind its schedule/);
  assert.equal(result.verdict!.status, "invalid");
  assert.match(result.verdict!.reason!, /the failure may be its own: run the plan again/);
  assert.equal(exitCodeOf(result.verdict!), 3);
});

Deno.test("a run stopped another way keeps its `run complete` gate and stays invalid", async () => {
  const measured = stopped();
  delete measured.run.stoppedBy;
  measured.run.stopReason = "interrupted";
  assert.equal(soundnessVerdicts(measured)[0].name, "run complete");
  const result = (await judge(measured)).result;
  assert.equal(result.verdicts.find((v) => v.name === "p99 < 50ms")!.status, "pass");
  assert.equal(result.verdict!.status, "invalid");
});
