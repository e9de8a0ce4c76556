/**
 * A plan's schedule: its load's arrival, seed and stages over its mix's entries (the single
 * requests, then each journey, labelled by its first step), built the one way every user of it
 * builds it.
 *
 * @module
 */
import type { ResolvedPlan } from "../plan/mod.ts";
import type { MixLabels } from "../plan/mod.ts";
import { Schedule } from "./build_schedule.ts";

/**
 * The schedule of `plan`'s load over `mix`'s entries (see plan/requests/mix_labels.ts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planSchedule } from "./plan_schedule.ts";
 * const load = {
 *   arrival: "constant",
 *   seed: 1,
 *   stages: [{ kind: "constant", name: "s", ratePerSec: 10, durationMs: 1000, warmup: false }],
 * };
 * const schedule = planSchedule({ load } as never, { entryWeights: [1], entryLabels: [0] });
 * assert.equal(schedule.totalCount, 10);
 * ```
 */
export function planSchedule(
  plan: Pick<ResolvedPlan, "load">,
  mix: Pick<MixLabels, "entryWeights" | "entryLabels">,
): Schedule {
  return new Schedule({
    arrival: plan.load.arrival,
    seed: plan.load.seed,
    stages: plan.load.stages,
    weights: mix.entryWeights,
    entryLabels: mix.entryLabels,
  });
}
