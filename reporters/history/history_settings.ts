/**
 * The settings the changes were found with, in words (both formats print them once). Pure.
 *
 * @module
 */
import type { HistorySettings } from "../../runner/model/history_result.ts";

/**
 * How the changes were found and when the history fails, in one sentence.
 *
 * @example
 * ```ts
 * import { settingsText } from "./history_settings.ts";
 * settingsText({ maxPValue: 0.001, windowRuns: 50, minMagnitude: 0.05, failRecent: 0 });
 * // "Changes found by E-divisive means, each tested by shuffling (p ≤ 0.001, windows of 50 runs), kept
 * // unless their whole 95% interval lies below 5%; report only (--fail-recent 0)."
 * ```
 */
export function settingsText(s: HistorySettings): string {
  const fails = s.failRecent > 0
    ? `a worse change within the newest ${s.failRecent} run${s.failRecent === 1 ? "" : "s"} ` +
      `fails (--fail-recent ${s.failRecent})`
    : "report only (--fail-recent 0)";
  return `Changes found by E-divisive means, each tested by shuffling (p ≤ ${s.maxPValue}, ` +
    `windows of ` +
    `${s.windowRuns} runs), kept unless their whole 95% interval lies below ${
      Number((s.minMagnitude * 100).toPrecision(3))
    }%; ${fails}.`;
}

/**
 * The settings as name–value pairs (the page's settings table).
 *
 * @example
 * ```ts
 * import { settingsPairs } from "./history_settings.ts";
 * settingsPairs({ maxPValue: 0.001, windowRuns: 50, minMagnitude: 0.05, failRecent: 3 })[0];
 * // ["largest p-value", "0.001"]
 * ```
 */
export function settingsPairs(s: HistorySettings): Array<[string, string]> {
  return [
    ["largest p-value", String(s.maxPValue)],
    ["window", `${s.windowRuns} runs`],
    ["smallest change", `${Number((s.minMagnitude * 100).toPrecision(3))}%`],
    ["fails on", s.failRecent > 0 ? `a worse change in the newest ${s.failRecent}` : "nothing"],
  ];
}
