/**
 * Finds a stored history's first histogram that does not decode: one altered character in a
 * baseline file would otherwise surface as an uncaught codec error after the whole run (the
 * regression gate's runs) or in `tailgate history` (the long history). Reading the runs decodes
 * each of their histograms once and carries the decoded form to the regression gate. Pure.
 *
 * @module
 */
import { decodeHistogram, type Histogram } from "../hdr/mod.ts";
import type { EncodedHistogram } from "../model/mod.ts";
import { err, ok, type Problem, type Result } from "../model/mod.ts";
import type { HistoryFile } from "./history_types.ts";

/** Where a history is damaged: which run (1 = oldest), its date, which histogram, and why. */
export interface HistoryDamage {
  run: number;
  date: string;
  where: string;
  error: string;
}

/** Why a history's runs could not be decoded: the first damaged histogram. */
export interface DamageProblem extends Problem {
  damage: HistoryDamage;
}

/** A history's runs (the regression gate's) with every stored histogram decoded, once. */
export interface DecodedRuns {
  /** The history as read. */
  file: HistoryFile;
  /**
   * The decoded form of one of `file.runs`' histograms (a stage's or a label's, response or
   * service time); a histogram from elsewhere is a bug (RangeError).
   */
  histogram(stored: EncodedHistogram): Histogram;
}

/**
 * Decodes every histogram of `file`'s runs once: the decoded runs, or the first that does not
 * decode (the {@linkcode runsDamage}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeRuns } from "./history_damage.ts";
 * const file = { runs: [{ date: "2025-01-01", stages: [{ name: "main", labels: [], response: { hdr: "x" }, service: { hdr: "x" } }] }] };
 * const decoded = decodeRuns(file as never);
 * assert.ok(!decoded.ok);
 * assert.equal(decoded.problems[0].damage.where, 'stage "main", response time');
 * ```
 */
export function decodeRuns(
  file: HistoryFile,
): Result<DecodedRuns, DamageProblem> {
  const decoded = new Map<EncodedHistogram, Histogram>();
  for (const [i, run] of file.runs.entries()) {
    for (const stage of run.stages) {
      const groups = [
        { where: `stage "${stage.name}"`, g: stage },
        ...stage.labels.map((l) => ({ where: `stage "${stage.name}" label "${l.label}"`, g: l })),
      ];
      for (const { where, g } of groups) {
        for (const kind of ["response", "service"] as const) {
          try {
            decoded.set(g[kind], decodeHistogram(g[kind].hdr));
          } catch (e) {
            const error = (e as Error).message;
            const damage = { run: i + 1, date: run.date, where: `${where}, ${kind} time`, error };
            return err({ message: `${damage.where}: ${error}`, damage });
          }
        }
      }
    }
  }
  const histogram = (stored: EncodedHistogram): Histogram => {
    const h = decoded.get(stored);
    if (h === undefined) throw new RangeError("not a histogram of this history's runs");
    return h;
  };
  return ok({ file, histogram });
}

/**
 * The first damaged histogram of `baseline`'s runs, or undefined when every one decodes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runsDamage } from "./history_damage.ts";
 * assert.equal(runsDamage({ runs: [] } as never), undefined);
 * ```
 */
export function runsDamage(baseline: HistoryFile): HistoryDamage | undefined {
  const decoded = decodeRuns(baseline);
  return decoded.ok ? undefined : decoded.problems[0].damage;
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
