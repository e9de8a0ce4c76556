/**
 * The paired A/B comparison's decision: the paired rule over rounds, the checks built from the
 * rounds' results, and the A/B verdict.
 *
 * @module
 */
export {
  AB_DEFAULT_MIN_TAIL_SAMPLES,
  AB_MIN_FLOORS,
  compareRounds,
  TAIL_SPREAD_CAP,
} from "./ab_comparison.ts";
export type { RoundPair } from "./ab_comparison.ts";
export { abVerdict } from "./ab_verdict.ts";
export { abSloVerdicts } from "./ab_slos.ts";
export { poolRuns } from "./pooled_runs.ts";
export { MIN_ROUNDS } from "./paired_comparison.ts";
