/**
 * The options of judging a run (api/judge.ts), which filing it (api/file_run.ts) reads too.
 *
 * @module
 */
import type { ConfirmOptions } from "../gates/mod.ts";

/** Options of `judge`. */
export interface JudgeOptions {
  /** Where baselines live; undefined skips the regression gate. */
  baselineDir?: string;
  /** Append this run to the plan's history afterwards (sound, complete runs only). */
  updateBaseline?: boolean;
  /**
   * With `updateBaseline`: a run that stopped early is not offered to the history; a note and a
   * warning say it was left as it was (`tailgate run`).
   */
  unfiledWhenStopped?: boolean;
  /** Runs kept in full when appending, the regression gate's window (default 10). */
  keepRuns?: number;
  /** Runs the long history keeps when appending (`--history-runs`; default 500). */
  historyRuns?: number;
  /** Ctrl-C or SIGTERM: stop waiting for the history's lock (the history is then not updated). */
  signal?: AbortSignal;
  /**
   * Re-measure a red (or a gate the runner left undecided) that a rerun could clear before
   * believing it (`--confirm auto|N`; confirm_gates.ts).
   */
  confirm?: ConfirmOptions;
}
