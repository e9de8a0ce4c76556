/**
 * What a job does with the histories after its plans ran: says which histories started from
 * nothing (a warning when a cache restore missed), runs `tailgate history` for the plans when the
 * history inputs ask, and returns the summary section and whether a worse new change turns the
 * job red.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { claimOutDir } from "../../../runner/api/mod.ts";
import type { RunResult } from "../../../runner/model/mod.ts";
import { formatAnnotation } from "../../workflow_commands.ts";
import { historyName, historyPath } from "../../../runner/history/mod.ts";
import { inertLine } from "../../../runner/plan/mod.ts";
import type { HistoryInputs } from "./history_inputs.ts";
import { type HistoryOutcome, type HistoryRunner, runHistories } from "./history_runs.ts";
import { commitLinks, renderHistorySummary } from "./history_summary.ts";
import {
  cacheRestoreMissed,
  startedHistories,
  type StartedHistory,
  startedHistoryMessage,
} from "./started_histories.ts";

/** The out folder's folder of the plans' histories (`tailgate history`): `<out>/history/`. */
export const HISTORY_FOLDER = "history";

/** A plan the job ran, as the history step sees it. */
export interface RanPlan {
  /** The plan file as matched (or, for a merge, the plan's folder name). */
  plan: string;
  /** Its output folder (absolute, or relative to the job's folder): its name is the plan's slug. */
  dir: string;
  /** Its result, when one was written: a merge's names the plan file. */
  result?: RunResult;
}

/** What the job needs to know of its history step. */
export interface JobHistoryInputs {
  /** The results folder. */
  out: string;
  /** The baseline folder; undefined: no history at all. */
  baselineDir?: string;
  /** The job appends its runs to the history. */
  updateBaseline: boolean;
  /** Run `tailgate history`, and how; undefined: not. */
  history?: HistoryInputs;
}

/** The history step's outcome. */
export interface JobHistory {
  /** The job summary's section ("" when there is nothing to say). */
  summary: string;
  /** A worse change among the newest runs, with `history-fail: true`: the job fails. */
  failed: boolean;
  /** `<out>/history` when `tailgate history` ran (its pages may be published), else undefined. */
  historyDir?: string;
  /** Each plan's `tailgate history`, in the order of the plans. */
  outcomes: HistoryOutcome[];
  /** The histories the job's runs started from nothing. */
  started: StartedHistory[];
}

/**
 * Runs the history step for the plans a job ran; `before` holds the baseline folder's history
 * files as they were before the runs ({@linkcode historyFiles}).
 */
export async function jobHistory(
  inputs: JobHistoryInputs,
  plans: readonly RanPlan[],
  context: {
    env: Record<string, string | undefined>;
    cwd: string;
    before: ReadonlySet<string>;
    annotate: boolean;
  },
  run: HistoryRunner,
  print: (line: string) => void,
): Promise<JobHistory> {
  const { env, cwd } = context;
  const warn = (message: string) =>
    print(
      context.annotate
        ? formatAnnotation({ level: "warning", title: "tailgate history", message })
        : inertLine(`warning: ${message}`),
    );
  const missed = cacheRestoreMissed(env, env.TAILGATE_BASELINE?.trim() || "cache");
  const started = inputs.baselineDir !== undefined && inputs.updateBaseline && missed !== undefined
    ? await startedHistories(resolve(cwd, inputs.baselineDir), context.before, missed)
    : [];
  for (const s of started.filter((s) => s.lost)) warn(startedHistoryMessage(s));
  let outcomes: HistoryOutcome[] = [];
  let historyDir: string | undefined;
  if (inputs.history && inputs.baselineDir !== undefined) {
    const dir = join(inputs.out, HISTORY_FOLDER);
    const problem = await claimOutDir(resolve(cwd, dir), { clear: true });
    if (problem) warn(`no history run: \`${dir}\` ${problem}`);
    else {
      historyDir = dir;
      const baselineDir = inputs.baselineDir;
      const targets = plans.flatMap((p) => {
        const planFile = p.result?.plan.file && existsSync(resolve(cwd, p.result.plan.file))
          ? p.result.plan.file
          : existsSync(resolve(cwd, p.plan))
          ? p.plan
          : undefined;
        if (!p.result || !planFile) return [];
        const stored = existsSync(
          historyPath(resolve(cwd, baselineDir), historyName(p.result.plan)),
        );
        return [{ planFile, slug: basename(p.dir), stored }];
      });
      const ran = await runHistories(targets.filter((t) => t.stored), {
        baselineDir,
        historyDir: dir,
        cwd,
        inputs: inputs.history,
      }, run);
      for (const o of ran) if (o.problem) warn(`${o.planFile}: ${o.problem}`);
      // A plan none of whose runs was stored yet (each run unsound, or a new plan's first) has
      // no history to read: said in the summary, not run, and no warning.
      outcomes = targets.map((t) =>
        t.stored ? ran.shift()! : {
          planFile: t.planFile,
          dir: join(dir, t.slug),
          problem: "No stored run yet: a run is stored once it is sound (complete, not " +
            "tool-limited), and the history starts then",
        }
      );
    }
  }
  const failed = (inputs.history?.failOnWorse ?? false) &&
    outcomes.some((o) => o.report?.plans.some((p) => p.changes.some((c) => c.recent && c.worse)));
  return {
    summary: renderHistorySummary(outcomes, started, inputs.history?.recentRuns, commitLinks(env)),
    failed,
    ...(historyDir ? { historyDir } : {}),
    outcomes,
    started,
  };
}
