/**
 * Fail-fast: the certain-failure rule, what each SLO's watch can decide, the watch over a run's
 * progress, and how a run it stopped is judged.
 *
 * @module
 */
export { failFastVerdict, stoppedOn } from "./fail_fast_verdict.ts";
export { failFastWatch } from "./fail_fast_watch.ts";
export type { CertainFailure } from "./fail_fast_watch.ts";
