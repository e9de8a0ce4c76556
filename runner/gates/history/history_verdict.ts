/**
 * The history document's verdict, the rule stated once: it fails when a change for the worse
 * (its whole 95% interval on the worse side) lies within the newest `failRecent` runs (a trend
 * that is still going counts); a change whose interval includes no change counts for nothing.
 * With `failRecent` 0 it only reports, and passes.
 *
 * @module
 */
import type { HistoryReport, HistorySettings, PlanHistory } from "../../model/mod.ts";

/**
 * The verdict of `plans` under `settings`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyVerdict } from "./history_verdict.ts";
 * const settings = { maxPValue: 0.001, windowRuns: 50, minMagnitude: 0.05, failRecent: 0 };
 * assert.equal(historyVerdict([], settings).status, "pass");
 * ```
 */
export function historyVerdict(
  plans: readonly PlanHistory[],
  settings: HistorySettings,
): HistoryReport["verdict"] {
  const all = plans.flatMap((p) => p.changes.map((c) => ({ plan: p.plan, change: c })));
  const failing = all.filter(({ change }) => change.worse && change.recent);
  const worse = all.filter(({ change }) => change.worse).length;
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const unclear = (n: number) => n === 0 ? "" : `, ${n} whose interval includes no change`;
  if (settings.failRecent === 0) {
    const unsure = all.filter(({ change }) => change.direction === "unclear").length;
    return {
      status: "pass",
      message: `${count(all.length, "change")} found (${worse} for the worse${unclear(unsure)}); ` +
        "report only (--fail-recent 0)",
    };
  }
  const within = `within the newest ${count(settings.failRecent, "run")}`;
  if (failing.length === 0) {
    const unsure = all.filter(({ change }) => change.direction === "unclear" && change.recent);
    const note = unsure.length === 0
      ? ""
      : ` (${count(unsure.length, "change")} whose 95% interval includes no change: not counted)`;
    return { status: "pass", message: `no change for the worse ${within}${note}` };
  }
  // The terminal and the reports list every change; the verdict names the first and counts the rest.
  const [{ plan, change }] = failing;
  const first = plans.length > 1 ? `${plan}: ${change.text}` : change.text;
  const more = failing.length > 1 ? `; and ${failing.length - 1} more` : "";
  return {
    status: "fail",
    message: `${count(failing.length, "change")} for the worse ${within}: ${first}${more}`,
  };
}
