/**
 * Files a judged run into its plan's history when `updateBaseline` asks (`appendToHistory`, under
 * the history's lock), and says what it did: the run kept, marked, restarted or refused, or the
 * file at fault. The gates judge without touching a file (runner/gates/judge_run.ts); this is
 * judging's file side, called by {@linkcode judge} (judge.ts) after them.
 *
 * @module
 */
import { shortCommit } from "../model/mod.ts";
import { problemText } from "../model/mod.ts";
import type { RunResult } from "../model/mod.ts";
import {
  appendToHistory,
  historyName,
  MAX_HISTORY_BYTES,
  type StageMatch,
} from "../history/mod.ts";
import type { JudgeOptions } from "./judge_options.ts";

/**
 * What filing did: notes for the user, those a file was at fault for (also among `notes`), and
 * warnings for the result (a run the history refused).
 */
export interface FiledRun {
  notes: string[];
  ioFailures: string[];
  warnings: string[];
}

/**
 * Appends the judged `result` to the history in `options.baselineDir` when `options.updateBaseline`
 * is set and the history is not `damaged`; a run the history refuses is a warning for the result
 * (returned: `result` is left as it was). `stages` is how its stages met the history judging read
 * (the judgement's): filing follows it while the history is still that one.
 */
export async function fileRun(
  result: RunResult,
  options: JudgeOptions,
  damaged: boolean,
  stages?: StageMatch,
): Promise<FiledRun> {
  const notes: string[] = [];
  const ioFailures: string[] = [];
  const warnings: string[] = [];
  if (!options.updateBaseline || options.baselineDir === undefined) {
    return { notes, ioFailures, warnings };
  }
  if (damaged) {
    notes.push("baseline not updated: the stored history is damaged (see the verdicts)");
  } else {
    try {
      const appended = await appendToHistory(
        options.baselineDir,
        result,
        options.keepRuns,
        undefined,
        options.signal,
        options.historyRuns,
        stages,
      );
      // A run the history refuses is no file's fault: a note, not an I/O failure; and a warning
      // every report and the Action show, so a green job never hides a run that was not stored.
      if (!appended.ok) {
        const why = problemText(appended.problems[0]);
        notes.push(`baseline not updated: ${why}`);
        warnings.push(
          `this run was not stored in the history of "${historyName(result.plan)}": ${why}`,
        );
      } else {
        const updated = appended.value;
        const at = result.environment.gitSha
          ? ` (this one at ${shortCommit(result.environment.gitSha)})`
          : "";
        notes.push(
          updated.notBaseline !== undefined
            ? `baseline kept this run in the history of "${historyName(result.plan)}" only, ` +
              `marked ${updated.notBaseline.join(" and ")}${at}: a run that ${
                updated.notBaseline.map((r) =>
                  r === "slo_failed" ? "failed an SLO" : "ran on a contended machine"
                ).join(" or ")
              } is no baseline others are judged by (the regression gate keeps ` +
              `${updated.runs.length} run(s))`
            : updated.supersededPath === undefined
            ? `baseline updated: "${historyName(result.plan)}" keeps ${updated.runs.length} ` +
              `run(s) for the regression gate and ${updated.history.length} in its history${at}`
            : `baseline restarted: the plan's measured stages changed, so this run starts a new ` +
              `history for "${historyName(result.plan)}"; the old one is kept as ` +
              updated.supersededPath,
        );
        if (updated.droppedForSize) {
          notes.push(
            `the history dropped its ${updated.droppedForSize} oldest run(s) to stay under ` +
              `${MAX_HISTORY_BYTES / 1024 / 1024} MiB: give a smaller --history-runs`,
          );
        }
      }
    } catch (e) {
      // What throws is a file's fault (disk, folder, lock).
      const note = `baseline not updated: ${(e as Error).message}`;
      notes.push(note);
      ioFailures.push(note);
    }
  }
  return { notes, ioFailures, warnings };
}
