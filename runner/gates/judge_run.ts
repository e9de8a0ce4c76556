/**
 * All the gates of one run, in order: SLOs (with the implicit error gate when the run needs it:
 * implicit_error_gate.ts), then the regression gate against the plan's stored history (when there
 * is one), with a warning when that history comes from a machine with another fingerprint. The
 * history is read by the caller (runner/api/judge.ts), which also files the run afterwards: no
 * file is touched here. The result's `verdicts` and `warnings` are filled in place.
 *
 * @module
 */
import type { RunResult, Verdict } from "../model/run_result.ts";
import { problemText, type Result } from "../model/result.ts";
import {
  type DecodedRuns,
  decodeRuns,
  fingerprintMismatch,
  type HistoryFile,
  historyName,
  historyPath,
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

/** Options of {@linkcode judgeRun}: what runner/api/judge.ts's `JudgeOptions` tells the gates. */
export interface JudgeRunOptions {
  /** The run is appended to the history afterwards: a skipped gate's warning then says less. */
  updateBaseline?: boolean;
  /** Runs the store keeps in full, the regression gate's window (default 10). */
  keepRuns?: number;
  /**
   * Re-measure a red (or a gate the runner left undecided) that a rerun could clear before
   * believing it (`--confirm auto|N`; confirm_gates.ts).
   */
  confirm?: ConfirmOptions;
}

/** What judging did besides the verdicts: notes for the user. */
export interface JudgeOutcome {
  notes: string[];
  /** The history could not be read or is damaged: the run must not be filed into it. */
  damaged: boolean;
}

/** A plan's history as the caller read it from `dir` (`loadHistoryFile`), for the regression gate. */
export interface HistoryRead {
  dir: string;
  loaded: Result<HistoryFile | undefined>;
}

/**
 * Fills `result.verdicts`, `result.verdict` (the run's, computed once here) and
 * `result.warnings`, judging the regression gate against `read` when given.
 */
export async function judgeRun(
  result: RunResult,
  options: JudgeRunOptions = {},
  read?: HistoryRead,
): Promise<JudgeOutcome> {
  const notes: string[] = [];
  const warnings: string[] = [];
  let damaged = false;
  // The run's own soundness first: every report lists and counts it as a gate.
  result.verdicts = [...soundnessVerdicts(result), ...sloVerdicts(result)];
  let judgedBaseline: { decoded: DecodedRuns; regression: RegressionOptions } | undefined;
  if (read !== undefined) {
    const history = historyName(result.plan);
    const loaded = read.loaded;
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
          ? `no baseline for "${history}" in ${read.dir} yet: regression gates skipped`
          : `no baseline for "${history}" in ${read.dir} yet: none of its ${stored} ` +
            "stored run(s) may be one (each failed an SLO or ran on a contended machine): " +
            "regression gates skipped",
      );
    } else if (!decoded!.ok) {
      const damage = decoded!.problems[0].damage;
      damaged = true;
      const path = historyPath(read.dir, history);
      result.verdicts.push(unreadableBaseline(
        `the baseline ${path} is damaged: run ${damage.run} of ${loaded.value.runs.length} ` +
          `(${damage.date}), ${damage.where}: ${damage.error}`,
      ));
    } else {
      const baseline = loaded.value;
      const latest = baseline.runs.at(-1)!;
      result.baseline = {
        source: historyPath(read.dir, history),
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
  return { notes, damaged };
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
