/**
 * The pure statistics the gates stand on: percentile confidence intervals from order statistics
 * (also when some requests failed), sample sufficiency, exact binomial tails, Student's t, Holm's
 * step-down, the two-sample Kolmogorov–Smirnov distance and the regression gate's prediction bounds.
 *
 * @module
 */
export { binomialInterval, binomialLowerTail, binomialUpperTail } from "./binomial.ts";
export { censoredPercentile } from "./censored_percentile.ts";
export { holmLevels } from "./holm.ts";
export { ksDistance } from "./ks_distance.ts";
export {
  exceedanceP,
  historyModel,
  isUsefulBound,
  MAX_HISTORY_RUNS,
  MIN_HISTORY_RUNS,
  predictionBounds,
  USEFUL_BOUND_RATIO,
} from "./prediction_bound.ts";
export { tCdf, tQuantile } from "./student_t.ts";
export { isSufficient, requiredRequests } from "./tail_samples.ts";
