/**
 * Whether a search could run out of a data source's rows. Each step is a fresh run that starts
 * its sources again at the first row, so an `exhausted: error` source must hold the longest step
 * the search may run at `max`: a step or the soak, repeated twice as long each time it is
 * inconclusive, after its warmup. Pure.
 *
 * @module
 */
import type { PlanSearch, ResolvedPlan } from "../plan/mod.ts";
import { formatRatePerSec } from "../plan/mod.ts";
import { dataExhaustion } from "../schedule/mod.ts";
import { MAX_RETRIES, stepPlan } from "./run_search.ts";

/**
 * The problem with `plan`'s data for its search, or undefined when every source is enough.
 */
export function searchExhaustion(plan: ResolvedPlan & { search: PlanSearch }): string | undefined {
  const { search } = plan;
  const longestMs = 2 ** MAX_RETRIES * Math.max(search.stepMs, search.soakMs);
  const worst = stepPlan(plan, {
    ratePerSec: search.maxPerSec,
    durationMs: longestMs,
    soak: false,
  });
  const { issues } = dataExhaustion(worst);
  if (issues.length === 0) return undefined;
  return issues.map((i) =>
    `${i.file}:${i.line}:${i.col}: ${
      i.message.replace("the schedule", "the search's longest step")
    } at \`max: ${formatRatePerSec(search.maxPerSec)}\`; ${i.hint}`
  ).join("\n");
}
