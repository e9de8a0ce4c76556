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
import type { Verdict } from "../../model/mod.ts";
import { moreWorkers, soundFailFastStop, type StoppedRun, stoppedWhen } from "../../result/mod.ts";

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
    message: `inconclusive: ${when} (${stop.reason}), but the generator fell behind its schedule (${
      result.health?.reasons.join("; ") || "tool-limited"
    }), so its own delays could explain it: use ${
      moreWorkers(result.run)
    }, a bigger or quieter runner, or fewer other jobs beside it`,
  };
}
