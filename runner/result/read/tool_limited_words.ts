/**
 * The one sentence every report gives a tool-limited run, agreeing with each gate's own status: a
 * tool-limited run voids no gate; each gate weighed the generator's lateness at its own figure
 * (docs/gates.md, "Tool-limited runs"), so some are withheld for it, some passed despite it, some
 * failed beyond it. The terminal, the Markdown summary (and so the Action's job summary), the HTML
 * report, JUnit and the Action's annotation all print this sentence.
 *
 * @module
 */
import type { RunResult, Verdict } from "../../model/mod.ts";
import { machinePaused } from "./lateness_cause.ts";
import { percentileOf } from "./measured_floor.ts";

/**
 * The sentence for a tool-limited run, or undefined for one that held its schedule.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolLimitedSummary } from "./tool_limited_words.ts";
 * const verdict = (status: "pass" | "inconclusive", causes?: ["schedule"]) =>
 *   ({ kind: "slo" as const, name: "p99 < 1s", status, stageIndexes: [], message: "", causes });
 * const empty = { count: 0, minUs: 0, maxUs: 0, meanUs: 0, percentilesUs: {}, hdr: "" };
 * const health = {
 *   toolLimited: true,
 *   cpu: { userMs: 9_000, systemMs: 0, perRequestUs: 90 },
 *   sendLag: { ...empty, count: 100, percentilesUs: { "99": 42_000 } },
 *   dispatchLag: empty,
 * };
 * const run = { durationMs: 10_000 };
 * const verdicts = [verdict("inconclusive", ["schedule"]), verdict("inconclusive", ["schedule"]), verdict("pass")];
 * assert.equal(
 *   toolLimitedSummary({ health, run, verdicts }),
 *   "tailgate fell behind its schedule: 2 gates withheld because the generator's lateness could " +
 *     "matter to them; 1 passed despite it",
 * );
 * ```
 */
export function toolLimitedSummary(
  result: {
    health:
      & Pick<RunResult["health"], "toolLimited" | "cpu" | "sendLag" | "dispatchLag">
      & Partial<Pick<RunResult["health"], "platformHiccup">>;
    run: Pick<RunResult["run"], "durationMs">;
    verdicts: readonly Pick<Verdict, "kind" | "status" | "causes">[];
  },
): string | undefined {
  const h = result.health;
  if (!h.toolLimited) return undefined;
  const gates = result.verdicts.filter((v) => v.kind !== "validity");
  const byLateness = (v: (typeof gates)[number]) =>
    v.causes?.some((c) => c === "schedule" || c === "generator") ?? false;
  const withheld = gates.filter((v) => v.status === "inconclusive" && byLateness(v)).length;
  const passed = gates.filter((v) => v.status === "pass").length;
  const failed = gates.filter((v) => v.status === "fail").length;
  const n = (k: number) => `${k} gate${k === 1 ? "" : "s"}`;
  const parts = [
    ...(withheld
      ? [`${n(withheld)} withheld because the generator's lateness could matter to them`]
      : []),
    ...(passed ? [`${withheld ? passed : n(passed)} passed despite it`] : []),
    ...(failed ? [`${withheld || passed ? failed : n(failed)} failed beyond it`] : []),
  ];
  const lateUs = Math.max(
    h.sendLag.count ? percentileOf(h.sendLag, 99) : 0,
    h.dispatchLag?.count ? percentileOf(h.dispatchLag, 99) : 0,
  );
  const paused = machinePaused(
    { cpu: h.cpu, durationMs: result.run.durationMs, platformHiccup: h.platformHiccup },
    lateUs,
  );
  const what = paused
    ? "the machine paused tailgate, which fell behind its schedule"
    : "tailgate fell behind its schedule";
  return parts.length ? `${what}: ${parts.join("; ")}` : `${what}: no gate was judged`;
}
