/**
 * All the gates of one run, in order: SLOs (with the implicit error gate when the run needs it:
 * implicit_error_gate.ts), then the regression gate against the plan's stored history (when there
 * is one), with a warning when that history comes from a machine with another fingerprint; then,
 * when asked, the run is appended to the history. The result's `verdicts` and `warnings` are
 * filled in place.
 *
 * @module
 */
import { shortCommit } from "../model/history_result.ts";
import type { RunResult, Verdict } from "../model/run_result.ts";
import { problemText } from "../model/result.ts";
import {
  appendToHistory,
  type DecodedRuns,
  decodeRuns,
  fingerprintMismatch,
  historyName,
  historyPath,
  loadHistoryFile,
  MAX_HISTORY_BYTES,
  unmatchedStages,
} from "../history/mod.ts";
import {
  evaluateRegression,
  type RegressionMetric,
  type RegressionOptions,
} from "./regression/mod.ts";
import {
  applyConfirmation,
  type ConfirmOptions,
  gatesToConfirm,
  isSettled,
  rerunsAllowed,
} from "./confirm_gates.ts";
import { evaluateSlos, implicitErrorGate } from "./slo/mod.ts";
import { soundnessVerdicts } from "../result/read/mod.ts";
import { computeRunVerdict } from "./run_verdict.ts";

/** Options of {@linkcode judgeRun}. */
export interface JudgeOptions {
  /** Where baselines live; undefined skips the regression gate. */
  baselineDir?: string;
  /** Append this run to the plan's history afterwards (sound, complete runs only). */
  updateBaseline?: boolean;
  /** Runs kept in full when appending, the regression gate's window (default 10). */
  keepRuns?: number;
  /** Runs the long history keeps when appending (`--history-runs`; default 500). */
  historyRuns?: number;
  /**
   * Re-measure a red (or a gate the runner left undecided) that a rerun could clear before
   * believing it (`--confirm auto|N`; confirm_gates.ts).
   */
  confirm?: ConfirmOptions;
  /** Ctrl-C or SIGTERM: stop waiting for the history's lock (the history is then not updated). */
  signal?: AbortSignal;
}

/** What judging did besides the verdicts: notes for the user. */
export interface JudgeOutcome {
  notes: string[];
  /**
   * Why the history asked for was not updated when a file was at fault (it could not be read,
   * written or locked), also among `notes`: the exit code tells it (EXIT_CODES.ioFailed).
   */
  ioFailures: string[];
}

/**
 * Fills `result.verdicts`, `result.verdict` (the run's, computed once here) and
 * `result.warnings`, and updates the baseline when asked.
 */
export async function judgeRun(
  result: RunResult,
  options: JudgeOptions = {},
): Promise<JudgeOutcome> {
  const notes: string[] = [];
  const ioFailures: string[] = [];
  const warnings: string[] = [];
  let damaged = false;
  // The run's own soundness first: every report lists and counts it as a gate.
  result.verdicts = [...soundnessVerdicts(result), ...sloVerdicts(result)];
  let judgedBaseline: { decoded: DecodedRuns; regression: RegressionOptions } | undefined;
  if (options.baselineDir !== undefined) {
    const history = historyName(result.plan);
    const loaded = await loadHistoryFile(options.baselineDir, history);
    // Decoding every stored histogram is not free: once, for the damage check and the gate.
    const decoded = loaded.ok && loaded.value ? decodeRuns(loaded.value) : undefined;
    if (!loaded.ok) {
      // A history that cannot be read is a gate that cannot be judged, not a footnote: invalid.
      damaged = true;
      const why = problemText(loaded.problems[0]);
      result.verdicts.push(unreadableBaseline(`the baseline cannot be read: ${why}`));
    } else if (loaded.value === undefined || loaded.value.runs.length === 0) {
      const stored = loaded.value?.history.length ?? 0;
      notes.push(
        stored === 0
          ? `no baseline for "${history}" in ${options.baselineDir} yet: regression gates skipped`
          : `no baseline for "${history}" in ${options.baselineDir} yet: none of its ${stored} ` +
            "stored run(s) may be one (each failed an SLO or ran on a contended machine): " +
            "regression gates skipped",
      );
    } else if (!decoded!.ok) {
      const damage = decoded!.damage;
      damaged = true;
      const path = historyPath(options.baselineDir, history);
      result.verdicts.push(unreadableBaseline(
        `the baseline ${path} is damaged: run ${damage.run} of ${loaded.value.runs.length} ` +
          `(${damage.date}), ${damage.where}: ${damage.error}`,
      ));
    } else {
      const baseline = loaded.value;
      const latest = baseline.runs.at(-1)!;
      result.baseline = {
        source: historyPath(options.baselineDir, history),
        runs: baseline.runs.length,
        date: latest.date,
        ...(latest.environment.gitSha ? { gitSha: latest.environment.gitSha } : {}),
        stages: latest.stages.map((s) => ({
          index: s.index,
          name: s.name,
          warmup: s.warmup,
          response: s.response,
          service: s.service,
        })),
      };
      const mismatch = fingerprintMismatch(latest.environment, result.environment);
      if (mismatch.length > 0) {
        warnings.push(
          `the baseline was recorded on a different machine or build (${mismatch.join("; ")}): ` +
            "numbers from different fingerprints do not compare",
        );
      }
      // A stage the plan changed has no history to compare with: say so rather than skip quietly.
      const unmatched = unmatchedStages(result.stages, baseline.runs.flatMap((r) => r.stages));
      if (unmatched.length > 0) {
        warnings.push(
          `regression gate skipped for ${unmatched.join(", ")}: no stored run has ` +
            `${unmatched.length === 1 ? "this stage" : "these stages"} as the plan has ` +
            `${unmatched.length === 1 ? "it" : "them"} now (same place, rate and duration)` +
            (options.updateBaseline
              ? ""
              : "; --update-baseline starts a history for the plan as it is"),
        );
      }
      // The window the store keeps is the one a full history is judged by.
      const regressionOptions = {
        ...(result.plan.regression
          ? { floors: result.plan.regression as Partial<Record<RegressionMetric, number>> }
          : {}),
        ...(options.keepRuns === undefined ? {} : { windowRuns: options.keepRuns }),
      };
      result.verdicts.push(...evaluateRegression(result, decoded!.value, regressionOptions));
      judgedBaseline = { decoded: decoded!.value, regression: regressionOptions };
    }
  }
  // A stopped run (Ctrl-C, fail-fast's certain failure) is not rerun.
  if (options.confirm !== undefined && result.run.complete) {
    // A rerun is judged as this run was: its SLOs, and against the same history.
    const again = judgedBaseline;
    notes.push(
      ...await confirm(result, options.confirm, (r) => [
        ...sloVerdicts(r),
        ...(again ? evaluateRegression(r, again.decoded, again.regression) : []),
      ]),
    );
  }
  if (warnings.length > 0) result.warnings = [...(result.warnings ?? []), ...warnings];
  result.verdict = computeRunVerdict(result);
  if (options.updateBaseline && options.baselineDir !== undefined && damaged) {
    notes.push("baseline not updated: the stored history is damaged (see the verdicts)");
  } else if (options.updateBaseline && options.baselineDir !== undefined) {
    try {
      const appended = await appendToHistory(
        options.baselineDir,
        result,
        options.keepRuns,
        undefined,
        options.signal,
        options.historyRuns,
      );
      // A run the history refuses is no file's fault: a note, not an I/O failure; and a warning
      // every report and the Action show, so a green job never hides a run that was not stored.
      if (!appended.ok) {
        const why = problemText(appended.problems[0]);
        notes.push(`baseline not updated: ${why}`);
        result.warnings = [
          ...(result.warnings ?? []),
          `this run was not stored in the history of "${historyName(result.plan)}": ${why}`,
        ];
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
  return { notes, ioFailures };
}

/** The SLO gates of a run: the plan's, and the implicit error gate when the run needs it. */
function sloVerdicts(result: RunResult): Verdict[] {
  // No silent pass: errors the plan set no bound for are judged against 1%.
  return [...evaluateSlos(result), ...implicitErrorGate(result)];
}

/**
 * Reruns while a gate under confirmation is unsettled, up to what `options.times` allows, and
 * settles them (confirm_gates.ts); notes what happened.
 */
async function confirm(
  result: RunResult,
  options: ConfirmOptions,
  judge: (rerun: RunResult) => Verdict[],
): Promise<string[]> {
  const pending = gatesToConfirm(result.verdicts, options.times);
  const reruns: Verdict[][] = [];
  while (
    pending.length > 0 && reruns.length < rerunsAllowed(options.times) &&
    !pending.every((v) => isSettled(v, reruns))
  ) {
    reruns.push(judge(await options.rerun()));
  }
  if (reruns.length === 0) return [];
  const outcome = applyConfirmation(pending, reruns);
  const n = reruns.length;
  return [
    `--confirm: ${n} rerun${n === 1 ? "" : "s"} of ${pending.length} gate(s) a rerun could ` +
    `change: ${outcome.confirmed.length} confirmed, ${outcome.cleared.length} cleared, ` +
    `${outcome.undecided.length} undecided`,
  ];
}

/** The `invalid` verdict of a history the regression gate could not read; `what` says why. */
function unreadableBaseline(what: string): Verdict {
  return {
    kind: "validity",
    name: "baseline readable",
    status: "invalid",
    stageIndexes: [],
    message: `${what}; the regression gate was not judged: restore the file from version ` +
      "control, or move it away to start a new history",
  };
}
