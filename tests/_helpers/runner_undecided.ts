/**
 * A verdict's status as a test of the server's behaviour reads it: an SLO the runner alone left
 * undecided (the machine's contention, the generator's own delays, its schedule: the gates'
 * design on a busy machine, such as a test run beside others) reads as the pass it would have
 * been; a fail, and an SLO undecided for any other cause, read as they are.
 *
 * @module
 */
import type { Verdict } from "../../runner/model/mod.ts";

const RUNNER_CAUSES = new Set(["generator", "contention", "schedule"]);

/**
 * `v.status`, or `pass` for an `inconclusive` verdict whose every cause is the runner's.
 *
 * @example
 * ```ts
 * import { statusBesideRunner } from "./runner_undecided.ts";
 * statusBesideRunner({ status: "inconclusive", causes: ["contention"] } as never); // "pass"
 * ```
 */
export function statusBesideRunner(v: Verdict): Verdict["status"] {
  const runnerOnly = v.status === "inconclusive" && (v.causes?.length ?? 0) > 0 &&
    v.causes!.every((c) => RUNNER_CAUSES.has(c));
  return runnerOnly ? "pass" : v.status;
}
