/**
 * Journeys on the engine: the journey table, the pending steps' heap, and the judging of a
 * step's response (docs/decisions/journeys.md).
 *
 * @module
 */
export {
  type JourneyEnd,
  JourneyRunner,
  type JourneyRunnerOptions,
  type JourneySink,
} from "./journey_runner.ts";
export { judgeStep, type StepRules } from "./judge_step.ts";
export { StepHeap } from "./step_heap.ts";
