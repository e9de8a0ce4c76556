/**
 * `tailgate history` for the plans a job ran: one call per plan, each into
 * `<out>/history/<plan-slug>/`, and the `history.json` each wrote, read back.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { readRegularFile } from "../../../runner/model/mod.ts";
import { err, ok, problem, type Result } from "../../../runner/model/mod.ts";
import { HISTORY_SCHEMA, HISTORY_VERSION, type HistoryReport } from "../../../runner/model/mod.ts";
import type { HistoryInputs } from "./history_inputs.ts";

/** The largest history.json read back: 500 runs of a plan with many stages and labels. */
export const MAX_HISTORY_REPORT_BYTES = 256 * 1024 * 1024;

/** One plan whose history the job looks at. */
export interface HistoryTarget {
  /** The plan file, relative to the job's folder. */
  planFile: string;
  /** Its output folder's name (the plan's slug), which its history folder takes too. */
  slug: string;
}

/** How one plan's `tailgate history` went. */
export interface HistoryOutcome {
  /** The plan file the history was asked for. */
  planFile: string;
  /** Its output folder, relative to the job's folder: `<out>/history/<slug>`. */
  dir: string;
  /**
   * `tailgate history`'s exit code: 0, or 1 for a worse change among the newest runs; undefined
   * when it did not run (the plan has no stored history yet).
   */
  exitCode?: number;
  /** The document it wrote, when readable. */
  report?: HistoryReport;
  /** Why there is none, in words: the exit code and the file not read. */
  problem?: string;
}

/** Runs `tailgate <args>` (with its output shown in the log) and returns its exit code. */
export type HistoryRunner = (args: readonly string[]) => Promise<{ code: number }>;

/**
 * `tailgate history` arguments (after `history`) for one plan.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyArgs } from "./history_runs.ts";
 * assert.deepEqual(historyArgs("plans/shop.yaml", ".tailgate/baselines", "out/history/shop", 10), [
 *   "plans/shop.yaml", "--baseline", ".tailgate/baselines", "--out", "out/history/shop",
 *   "--fail-recent", "10",
 * ]);
 * ```
 */
export function historyArgs(
  planFile: string,
  baselineDir: string,
  outDir: string,
  recentRuns: number,
): string[] {
  return [
    planFile,
    "--baseline",
    baselineDir,
    "--out",
    outDir,
    "--fail-recent",
    String(recentRuns),
  ];
}

/**
 * Runs `tailgate history` for each target into `<historyDir>/<slug>/` and reads what it wrote.
 * Exit 1 (a worse change among the newest runs) is an outcome like exit 0: the job decides what
 * it means; any other code, or no readable document, is a problem in words.
 */
export async function runHistories(
  targets: readonly HistoryTarget[],
  options: { baselineDir: string; historyDir: string; cwd: string; inputs: HistoryInputs },
  run: HistoryRunner,
): Promise<HistoryOutcome[]> {
  const outcomes: HistoryOutcome[] = [];
  for (const t of targets) {
    const dir = join(options.historyDir, t.slug);
    const args = historyArgs(t.planFile, options.baselineDir, dir, options.inputs.recentRuns);
    const { code } = await run(["history", ...args]);
    const read = await readHistoryReport(resolve(options.cwd, dir, "history.json"));
    const finished = code === 0 || code === 1;
    outcomes.push({
      planFile: t.planFile,
      dir,
      exitCode: code,
      ...(read.ok && finished ? { report: read.value } : {
        problem: `tailgate history ended with exit ${code}` +
          (read.ok ? "" : `: ${read.problems.map((p) => p.message).join("; ")}`) +
          "; see the job log",
      }),
    });
  }
  return outcomes;
}

/**
 * Reads a `history.json` tailgate wrote: a regular file within the size limit, of the schema and
 * a version this build reads.
 */
export async function readHistoryReport(path: string): Promise<Result<HistoryReport>> {
  const bytes = await readRegularFile(path, MAX_HISTORY_REPORT_BYTES);
  if (!bytes.ok) return bytes;
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder().decode(bytes.value));
  } catch (e) {
    return err(problem(`${path} is not JSON (${(e as Error).message})`));
  }
  const d = doc as Partial<HistoryReport> | null;
  if (d?.schema !== HISTORY_SCHEMA || !Array.isArray(d.plans)) {
    return err(problem(`${path} is not a tailgate history document (schema ${HISTORY_SCHEMA})`));
  }
  if (typeof d.version !== "number" || d.version > HISTORY_VERSION) {
    return err(problem(
      `${path} has history format ${d.version}, newer than this action reads (${HISTORY_VERSION})`,
      "use the action of the tailgate release that wrote it",
    ));
  }
  return ok(d as HistoryReport);
}
