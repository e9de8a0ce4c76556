/**
 * All the gates of one run, in order: SLOs (with the implicit error gate when the run needs it:
 * implicit_error_gate.ts), then the regression gate against the plan's stored history (when there
 * is one), with a warning when that history comes from a machine with another fingerprint.
 * {@linkcode judgeRun} is a pure function: it reads the result and the history its caller read
 * (runner/api/judge.ts, which also files the run afterwards) and returns a {@linkcode Judgement};
 * it touches no file and changes neither. `--confirm`'s reruns are judged the same way
 * ({@linkcode rerunVerdicts}) and settle the gates ({@linkcode confirmJudgement}).
 *
 * @module
 */
import type { BaselineReference, RunResult, RunVerdict, Verdict } from "../model/mod.ts";
import { problemText, type Result } from "../model/mod.ts";
import {
  type DecodedRuns,
  decodeRuns,
  fingerprintMismatch,
  type HistoryFile,
  historyName,
  historyPath,
  matchStages,
  type StageMatch,
} from "../history/mod.ts";
import {
  evaluateRegression,
  type RegressionMetric,
  type RegressionOptions,
} from "./regression/mod.ts";
import {
  applyConfirmation,
  type ConfirmTimes,
  gatesToConfirm,
  isSettled,
  rerunsAllowed,
} from "./confirm_gates.ts";
import { evaluateSlos, implicitErrorGate } from "./slo/mod.ts";
import { soundnessVerdicts } from "../result/mod.ts";
import { computeRunVerdict } from "./run_verdict.ts";

/** What {@linkcode judgeRun} is told besides the result and the history: the judging policy. */
export interface JudgePolicy {
  /** The run is appended to the history afterwards: a skipped gate's warning then says less. */
  updateBaseline?: boolean;
  /** Runs the store keeps in full, the regression gate's window (default 10). */
  keepRuns?: number;
}

/** A plan's history as the caller read it from `dir` (`loadHistoryFile`), for the regression gate. */
export interface HistoryRead {
  dir: string;
  loaded: Result<HistoryFile | undefined>;
}

/** The history the regression gate judged a run against: a rerun is judged against it too. */
export interface JudgedHistory {
  decoded: DecodedRuns;
  regression: RegressionOptions;
}

/** What judging one run decided; the result it judged is left as it was. */
export interface Judgement {
  /** One verdict per gate: the run's soundness, the SLOs, then the regression gate. */
  verdicts: Verdict[];
  /** The run's overall verdict, computed once from `verdicts` (run_verdict.ts). */
  verdict: RunVerdict;
  /** Warnings to add to the result's (a history from another machine, stages it lacks). */
  warnings: string[];
  /** The baseline the regression gate compared with, when there was one. */
  baseline?: BaselineReference;
  /** Notes for the user (a baseline skipped, a rerun's outcome). */
  notes: string[];
  /** The history could not be read or is damaged: the run must not be filed into it. */
  damaged: boolean;
  /** The history the regression gate judged against, when it did: a rerun's is judged alike. */
  against?: JudgedHistory;
  /**
   * How the run's measured stages meet the stored runs judged against, found once here: filing
   * the run reads it (a run whose stages changed starts a new history) rather than match again.
   */
  stages?: StageMatch;
}

/**
 * Judges `result` against `read` (the plan's history, when given) under `policy`: its verdicts,
 * the warnings and notes they bring and the run verdict. Neither `result` nor `read` is changed.
 */
export function judgeRun(
  result: RunResult,
  read: HistoryRead | undefined,
  policy: JudgePolicy = {},
): Judgement {
  const notes: string[] = [];
  const warnings: string[] = [];
  let damaged = false;
  let baseline: BaselineReference | undefined;
  // The run's own soundness first: every report lists and counts it as a gate.
  const verdicts = [...soundnessVerdicts(result), ...sloVerdicts(result)];
  let against: JudgedHistory | undefined;
  let stages: StageMatch | undefined;
  if (read !== undefined) {
    const history = historyName(result.plan);
    const loaded = read.loaded;
    // Decoding every stored histogram is not free: once, for the damage check and the gate.
    const decoded = loaded.ok && loaded.value ? decodeRuns(loaded.value) : undefined;
    if (!loaded.ok) {
      // A history that cannot be read is a gate that cannot be judged, not a footnote: invalid.
      damaged = true;
      const why = problemText(loaded.problems[0]);
      verdicts.push(unreadableBaseline(`the baseline cannot be read: ${why}`));
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
      verdicts.push(unreadableBaseline(
        `the baseline ${path} is damaged: run ${damage.run} of ${loaded.value.runs.length} ` +
          `(${damage.date}), ${damage.where}: ${damage.error}`,
      ));
    } else {
      const stored = loaded.value;
      const latest = stored.runs.at(-1)!;
      baseline = {
        source: historyPath(read.dir, history),
        runs: stored.runs.length,
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
      stages = matchStages(result.stages, stored.runs);
      const { unmatched } = stages;
      if (unmatched.length > 0) {
        warnings.push(
          `regression gate skipped for ${unmatched.join(", ")}: no stored run has ` +
            `${unmatched.length === 1 ? "this stage" : "these stages"} as the plan has ` +
            `${unmatched.length === 1 ? "it" : "them"} now (same place, rate and duration)` +
            (policy.updateBaseline
              ? ""
              : "; --update-baseline starts a history for the plan as it is"),
        );
      }
      // The window the store keeps is the one a full history is judged by.
      const regression = {
        ...(result.plan.regression
          ? { floors: result.plan.regression as Partial<Record<RegressionMetric, number>> }
          : {}),
        ...(policy.keepRuns === undefined ? {} : { windowRuns: policy.keepRuns }),
      };
      verdicts.push(...evaluateRegression(result, decoded!.value, regression));
      against = { decoded: decoded!.value, regression };
    }
  }
  return {
    verdicts,
    verdict: computeRunVerdict({ ...result, verdicts }),
    warnings,
    ...(baseline ? { baseline } : {}),
    notes,
    damaged,
    ...(against ? { against } : {}),
    ...(stages ? { stages } : {}),
  };
}

/**
 * A `--confirm` rerun's verdicts, judged as the run of `judgement` was: its SLOs, and against the
 * same history.
 */
export function rerunVerdicts(rerun: RunResult, judgement: Judgement): Verdict[] {
  const again = judgement.against;
  return [
    ...sloVerdicts(rerun),
    ...(again ? evaluateRegression(rerun, again.decoded, again.regression) : []),
  ];
}

/**
 * Whether `--confirm` (`times`) wants another rerun of the run `judgement` judged, given the
 * reruns' verdicts so far: a gate a rerun could change is unsettled and reruns are left. A
 * stopped run (Ctrl-C, fail-fast's certain failure) is not rerun.
 */
export function wantsRerun(
  result: RunResult,
  judgement: Judgement,
  times: ConfirmTimes,
  reruns: readonly (readonly Verdict[])[],
): boolean {
  if (!result.run.complete) return false;
  const pending = gatesToConfirm(judgement.verdicts, times);
  return pending.length > 0 && reruns.length < rerunsAllowed(times) &&
    !pending.every((v) => isSettled(v, reruns));
}

/**
 * The judgement of `result` once `--confirm` (`times`) settled its gates by the `reruns`'
 * verdicts (confirm_gates.ts), with a note of what happened; `judgement` itself when there were
 * none. Neither argument is changed.
 */
export function confirmJudgement(
  result: RunResult,
  judgement: Judgement,
  times: ConfirmTimes,
  reruns: readonly (readonly Verdict[])[],
): Judgement {
  if (reruns.length === 0) return judgement;
  const pending = gatesToConfirm(judgement.verdicts, times);
  const { settled, outcome } = applyConfirmation(pending, reruns);
  // The gates settled are new verdicts in their places: the judgement given keeps its own.
  const verdicts = judgement.verdicts.map((v) => settled[pending.indexOf(v)] ?? v);
  const n = reruns.length;
  return {
    ...judgement,
    verdicts,
    verdict: computeRunVerdict({ ...result, verdicts }),
    notes: [
      ...judgement.notes,
      `--confirm: ${n} rerun${n === 1 ? "" : "s"} of ${pending.length} gate(s) a rerun could ` +
      `change: ${outcome.confirmed.length} confirmed, ${outcome.cleared.length} cleared, ` +
      `${outcome.undecided.length} undecided`,
    ],
  };
}

/** The SLO gates of a run: the plan's, and the implicit error gate when the run needs it. */
function sloVerdicts(result: RunResult): Verdict[] {
  // No silent pass: errors the plan set no bound for are judged against 1%.
  return [...evaluateSlos(result), ...implicitErrorGate(result)];
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
