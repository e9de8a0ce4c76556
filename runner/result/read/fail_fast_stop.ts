/**
 * How a run that fail-fast stopped reads: whether the stop stands (the generator kept up, so the
 * failure is the server's), and why the run's verdict is what it is. Pure readers of `run` and
 * `health`, shared by the judging (runner/gates/fail_fast/) and every reader of a stored result.
 *
 * @module
 */
import type { FailFastStop, RunResult, ToolHealth } from "../../model/mod.ts";

/** What these functions read of a result. */
export type StoppedRun = Pick<RunResult, "run"> & {
  /** Optional for results built by hand (tests); a real result always has it. */
  health?: Pick<ToolHealth, "toolLimited" | "reasons">;
};

/**
 * The fail-fast stop the verdicts stand on: set when fail-fast stopped the run and the generator
 * kept up.
 */
export function soundFailFastStop(result: StoppedRun): FailFastStop | undefined {
  const stop = result.run.complete ? undefined : result.run.stoppedBy;
  return stop !== undefined && !result.health?.toolLimited ? stop : undefined;
}

/**
 * Why the run's verdict is what it is when fail-fast stopped it: the stop's reason for a `fail`, or
 * why a tool-limited stop proves nothing.
 */
export function failFastReason(result: StoppedRun): string {
  const stop = result.run.stoppedBy!;
  const when = stoppedWhen(stop);
  return soundFailFastStop(result) !== undefined
    ? `${when}: ${stop.reason}`
    : `${when} on \`${stop.slo}\`, but the generator fell behind its schedule (tool-limited), ` +
      "so the failure may be its own: run the plan again";
}

/** "fail-fast stopped the run 3.0 s in", or "… shard 1/4 …" on a merged result. */
export function stoppedWhen(stop: FailFastStop): string {
  const what = stop.shard ? `shard ${stop.shard.index}/${stop.shard.count}` : "the run";
  return `fail-fast stopped ${what} ${(stop.atMs / 1000).toFixed(1)} s in`;
}
