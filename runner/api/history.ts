/**
 * The library's front door for history: {@linkcode history} reads each plan's long history from
 * the baseline folder, follows every stage's p50, p90, p99, p99.9, throughput and error rate over
 * the stored runs (or the newest `lastRuns`, or those from `sinceCommit` on), and finds the
 * commits where they changed (change-point detection: E-divisive means as Apache Otava finds
 * them, each change tested by shuffling at p ≤ 0.001, each series' minimum change from its runs'
 * spread; docs/history.md). The verdict is computed once, here: `fail` when a change for the worse
 * lies within the newest `failRecent` runs.
 *
 * @module
 */
import { TAILGATE_VERSION } from "../version.ts";
import {
  HISTORY_SCHEMA,
  HISTORY_VERSION,
  type HistoryReport,
  type HistorySettings,
  type PlanHistory,
} from "../model/mod.ts";
import { problemText } from "../model/mod.ts";
import { drainedUnless } from "../model/mod.ts";
import type { ResolvedPlan } from "../plan/mod.ts";
import { DEFAULT_HISTORY_DIR, loadHistory } from "../history/mod.ts";
import { analysisSteps, DEFAULT_CHANGE_OPTIONS, historyVerdict, selectRuns } from "../gates/mod.ts";

/** What {@linkcode history} reads besides the plans. */
export interface HistoryOptions extends Partial<HistorySettings> {
  /** The folder of the histories (default `.tailgate/baselines`). */
  baselineDir?: string;
  /** The document's time (default now). */
  now?: Date;
  /**
   * Stops the analysis (Ctrl-C): checked between its steps, at least every 50 ms of work, the
   * event loop running meanwhile; the outcome is then `stopped`.
   */
  signal?: AbortSignal;
}

/** What {@linkcode history} found. */
export interface HistoryOutcome {
  /** The document: every plan with a history, and the verdict. */
  report: HistoryReport;
  /** For the user: plans without a history yet, histories restarted. */
  notes: string[];
  /** Histories that could not be read, each naming the file and the fix. */
  problems: string[];
  /**
   * True when `signal` stopped the analysis: `report` then holds only the plans judged before
   * it, and is no document to write.
   */
  stopped: boolean;
}

/**
 * The settings a history is judged with: `options`' own, else the defaults (p ≤ 0.001, windows
 * of 50 runs, each series' own minimum change from its runs' spread, report only).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historySettings } from "./history.ts";
 * assert.deepEqual(historySettings({ failRecent: 5 }), { maxPValue: 0.001, windowRuns: 50, failRecent: 5 });
 * assert.equal(historySettings({ minMagnitude: 0.02 }).minMagnitude, 0.02);
 * ```
 */
export function historySettings(options: Partial<HistorySettings> = {}): HistorySettings {
  return {
    maxPValue: options.maxPValue ?? DEFAULT_CHANGE_OPTIONS.maxPValue,
    windowRuns: options.windowRuns ?? DEFAULT_CHANGE_OPTIONS.windowRuns,
    ...(options.minMagnitude === undefined ? {} : { minMagnitude: options.minMagnitude }),
    failRecent: options.failRecent ?? 0,
    ...(options.lastRuns === undefined ? {} : { lastRuns: options.lastRuns }),
    ...(options.sinceCommit === undefined ? {} : { sinceCommit: options.sinceCommit }),
  };
}

/**
 * Reads and judges the histories of `plans`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { history, parsePlanText } from "../../mod.ts";
 * const { plan } = parsePlanText(`
 * name: history-example
 * target: http://127.0.0.1:8080
 * requests: [{ path: / }]
 * load: { stages: [{ rate: 100/s, duration: 10s }] }
 * `);
 * const baselineDir = await Deno.makeTempDir();
 * const { report, notes } = await history([plan!], { baselineDir });
 * assert.equal(report.plans.length, 0);
 * assert.match(notes[0], /^no history of "history-example"/);
 * assert.equal(report.verdict.status, "pass");
 * await Deno.remove(baselineDir, { recursive: true });
 * ```
 */
export async function history(
  plans: readonly ResolvedPlan[],
  options: HistoryOptions = {},
): Promise<HistoryOutcome> {
  const settings = historySettings(options);
  const dir = options.baselineDir ?? DEFAULT_HISTORY_DIR;
  const notes: string[] = [];
  const problems: string[] = [];
  const histories: PlanHistory[] = [];
  let stopped = false;
  for (const plan of plans) {
    if (options.signal?.aborted) {
      stopped = true;
      break;
    }
    const loaded = await loadHistory(dir, plan.name);
    if (!loaded.ok) {
      problems.push(problemText(loaded.problems[0]));
      continue;
    }
    const stored = loaded.value;
    if (stored === undefined || stored.file.history.length === 0) {
      notes.push(
        `no history of "${plan.name}" in ${dir} yet: \`tailgate run ${plan.file} --baseline ` +
          `${dir} --update-baseline\` adds each sound run to it`,
      );
      continue;
    }
    const selected = selectRuns(stored.file.history, plan.name, settings);
    if (!selected.ok) {
      problems.push(problemText(selected.problems[0]));
      continue;
    }
    const { entries, note } = selected.value;
    const steps = analysisSteps({
      plan: plan.name,
      planFile: plan.file,
      source: stored.path,
      entries,
      slos: plan.slos,
    }, settings);
    const done = await drainedUnless(steps, options.signal);
    if (done.stopped) {
      stopped = true;
      break;
    }
    histories.push(
      note === undefined ? done.value : { ...done.value, notes: [note, ...done.value.notes] },
    );
  }
  return {
    report: {
      schema: HISTORY_SCHEMA,
      version: HISTORY_VERSION,
      tailgateVersion: TAILGATE_VERSION,
      generatedAt: (options.now ?? new Date()).toISOString(),
      settings,
      plans: histories,
      verdict: historyVerdict(histories, settings),
    },
    notes,
    problems,
    stopped,
  };
}
