/**
 * Finds a stored history's first histogram that does not decode: one altered character in a
 * baseline file would otherwise surface as an uncaught codec error after the whole run (the
 * regression gate's runs) or in `tailgate history` (the long history). Pure.
 *
 * @module
 */
import { decodeHistogram } from "../hdr/mod.ts";
import type { HistoryFile } from "./history_types.ts";

/** Where a history is damaged: which run (1 = oldest), its date, which histogram, and why. */
export interface HistoryDamage {
  run: number;
  date: string;
  where: string;
  error: string;
}

/**
 * The first damaged histogram of `baseline`, or undefined when every one decodes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runsDamage } from "./history_damage.ts";
 * assert.equal(runsDamage({ runs: [] } as never), undefined);
 * ```
 */
export function runsDamage(baseline: HistoryFile): HistoryDamage | undefined {
  for (const [i, run] of baseline.runs.entries()) {
    for (const stage of run.stages) {
      const groups = [
        { where: `stage "${stage.name}"`, g: stage },
        ...stage.labels.map((l) => ({ where: `stage "${stage.name}" label "${l.label}"`, g: l })),
      ];
      for (const { where, g } of groups) {
        for (const kind of ["response", "service"] as const) {
          try {
            decodeHistogram(g[kind].hdr);
          } catch (e) {
            return {
              run: i + 1,
              date: run.date,
              where: `${where}, ${kind} time`,
              error: (e as Error).message,
            };
          }
        }
      }
    }
  }
  return undefined;
}

/**
 * The first stage histogram of `baseline`'s long history that does not decode, or undefined when
 * every one does: `run` counts the history's entries (1 = oldest).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyDamage } from "./history_damage.ts";
 * const entry = { date: "2025-01-01", stages: [{ name: "main", response: { hdr: "not a histogram" } }] };
 * assert.equal(historyDamage({ history: [entry] } as never)?.where, 'stage "main", response time');
 * ```
 */
export function historyDamage(baseline: HistoryFile): HistoryDamage | undefined {
  for (const [i, entry] of baseline.history.entries()) {
    for (const stage of entry.stages) {
      try {
        decodeHistogram(stage.response.hdr);
      } catch (e) {
        const where = `stage "${stage.name}", response time`;
        return { run: i + 1, date: entry.date, where, error: (e as Error).message };
      }
    }
  }
  return undefined;
}
