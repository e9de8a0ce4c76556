/**
 * The paired A/B comparison's decision: the paired rule over rounds, the checks built from the
 * rounds' results, and the A/B verdict.
 *
 * @module
 */
export { AB_DEFAULT_MIN_TAIL_SAMPLES, compareRounds } from "./ab_comparison.ts";
export type { RoundPair } from "./ab_comparison.ts";
export { abVerdict, headSloVerdicts } from "./ab_verdict.ts";
export { MIN_ROUNDS } from "./paired_comparison.ts";
