/**
 * A plan's recorder, built the one way a run builds it: per stage of its schedule and per label
 * (the single requests, then each journey's steps: plan/requests/mix_labels.ts), its journeys
 * timed, its checks counted per label and check.
 *
 * @module
 */
import type { ResolvedPlan } from "../plan/mod.ts";
import type { MixLabels } from "../plan/mod.ts";
import type { StageWindow } from "../schedule/mod.ts";
import type { IntervalStore } from "./interval_store.ts";
import { Recorder } from "./recorder.ts";

/** The run's recorder: per stage and label (requests, then journey steps), checks counted. */
export function planRecorder(
  plan: ResolvedPlan,
  mix: MixLabels,
  stages: readonly StageWindow[],
  store?: IntervalStore,
): Recorder {
  const recorder = new Recorder(
    stages,
    mix.requests.map((r) => r.label),
    mix.requests.map((r) => r.expect),
    1000,
    store,
  ).withJourneys(
    (plan.journeys ?? []).map((j, i) => ({
      name: j.name,
      stepLabels: j.steps.map((_, k) => mix.firstStepLabel[i] + k),
    })),
  );
  recorder.countChecks(mix.requests.map((r) => r.checks));
  return plan.trace ? recorder.traced(plan.load.seed) : recorder;
}
