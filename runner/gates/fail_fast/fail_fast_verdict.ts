/**
 * How a run stopped by fail-fast is judged. The SLO whose failure was certain (`run.stoppedBy`)
 * fails with the reason the rule gave (certain_failure.ts), and the run's verdict is `fail`, not
 * `invalid` as for another stop. Unless the finished result is tool-limited: the generator fell
 * behind its schedule, so its own delays may have made the failure look certain; the SLO is then
 * `inconclusive` (cause `generator`) and the run, stopped early, `invalid`. The other gates are
 * judged on what ran until the stop.
 *
 * @module
 */
import type { FailFastStop, RunResult, ToolHealth, Verdict } from "../../model/run_result.ts";

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
 * Whether `slo` (text and line, as the plan writes it) is the one that stopped the run.
 */
export function stoppedOn(result: StoppedRun, slo: { text: string; line: number }): boolean {
  const stop = result.run.complete ? undefined : result.run.stoppedBy;
  return stop !== undefined && stop.slo === slo.text && stop.line === slo.line;
}

/**
 * The verdict of the SLO that stopped the run: `base` (its name, line, stages and label) failed
 * with the reason, or inconclusive when the run turned out tool-limited.
 */
export function failFastVerdict(
  base: Verdict,
  figures: Pick<Verdict, "bound" | "unit">,
  result: StoppedRun,
): Verdict {
  const stop = result.run.stoppedBy!;
  const when = stoppedWhen(stop);
  if (soundFailFastStop(result) !== undefined) {
    return {
      ...base,
      ...figures,
      status: "fail",
      message: `failed for certain (${when}): ${stop.reason}`,
    };
  }
  return {
    ...base,
    ...figures,
    status: "inconclusive",
    causes: ["generator"],
    message:
      `inconclusive: ${when} (${stop.reason}), but the generator fell behind its schedule (${
        result.health?.reasons.join("; ") || "tool-limited"
      }), so its own delays could explain it: use more workers, a bigger or quieter runner, or ` +
      "fewer other jobs beside it",
  };
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
function stoppedWhen(stop: FailFastStop): string {
  const what = stop.shard ? `shard ${stop.shard.index}/${stop.shard.count}` : "the run";
  return `fail-fast stopped ${what} ${(stop.atMs / 1000).toFixed(1)} s in`;
}
