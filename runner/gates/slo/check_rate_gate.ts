/**
 * `check_rate("TEXT") < 0.1%`: the failed share of one check's evaluations, in the stages the SLO
 * binds to, over every label with a check of that text (or the one `for "LABEL"` names), judged
 * as `error_rate` is: a binomial interval against the bound, `<= 0%` decided by the count.
 *
 * @module
 */
import type { ParsedSlo } from "../../plan/mod.ts";
import type { RunResult, StageResult, Verdict } from "../../model/mod.ts";
import { binomialInterval } from "../stats/mod.ts";
import { latenessLimitUs } from "../../result/mod.ts";
import { scheduleShortfall } from "../generator_allowance.ts";
import { sampleRemedy, sloVerdict } from "./slo_verdict.ts";

/** A check's evaluations and failures, added over the stages and labels an SLO reads. */
export interface CheckCounts {
  evaluated: number;
  failed: number;
}

/**
 * The evaluations and failures of the check named `text` in `stages`, over every label or the
 * one named.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkCounts } from "./check_rate_gate.ts";
 * const check = { text: "/id exists", line: 4, evaluated: 100, failed: 2 };
 * const stages = [{ labels: [{ label: "GET /", checks: [check] }] }] as never;
 * assert.deepEqual(checkCounts(stages, "/id exists"), { evaluated: 100, failed: 2 });
 * ```
 */
export function checkCounts(
  stages: readonly Pick<StageResult, "labels">[],
  text: string,
  label?: string,
): CheckCounts {
  const out = { evaluated: 0, failed: 0 };
  for (const s of stages) {
    for (const l of s.labels) {
      if (label !== undefined && l.label !== label) continue;
      for (const c of l.checks ?? []) {
        if (c.text !== text) continue;
        out.evaluated += c.evaluated;
        out.failed += c.failed;
      }
    }
  }
  return out;
}

/**
 * Judges a `check_rate` SLO on the bound stages (`base` carries their indexes), whose intended
 * rate is `intendedPerSec` (for the remedy's run length).
 */
export function judgeCheckRate(
  base: Verdict,
  slo: ParsedSlo,
  result: RunResult,
  intendedPerSec: number,
  alpha: number,
): Verdict {
  if (slo.metric.kind !== "check_rate") throw new RangeError("not a check_rate SLO");
  const text = slo.metric.check;
  if (slo.windowMs !== undefined) {
    return {
      ...base,
      status: "invalid",
      message: "`check_rate` is judged over its stages as a whole: remove `over …`",
    };
  }
  const stages = result.stages.filter((s) => base.stageIndexes.includes(s.index));
  const { evaluated: n, failed: k } = checkCounts(stages, text, slo.label);
  if (n === 0) {
    return {
      ...base,
      status: "inconclusive",
      message: `no response was checked for \`${text}\` in these stages${
        slo.label ? ` on "${slo.label}"` : ""
      }: run the stages this SLO binds to`,
    };
  }
  const ci = binomialInterval(k, n, alpha);
  // `check_rate(…) <= 0%` asks that no evaluation failed: the count decides, not an interval.
  const exact = slo.bound === 0;
  const evidence = {
    low: exact ? k / n : ci.low,
    high: exact ? k / n : ci.high,
    generatorAllowance: 0,
    scheduleShortfall: scheduleShortfall(result, latenessLimitUs()),
  };
  const remedy = () => sampleRemedy(n, k, slo.bound, intendedPerSec, "responses checked", alpha);
  const judged = sloVerdict(
    base,
    slo,
    k / n,
    "fraction",
    evidence,
    remedy,
    { low: evidence.low, high: evidence.high },
    "",
    result.run,
  );
  return { ...judged, message: `${judged.message} (${k} of ${n} failed)` };
}
