/**
 * The pure statistics the gates need, in one import: percentile confidence intervals from order
 * statistics, sample sufficiency, the two-sample Kolmogorov–Smirnov distance between histograms,
 * Student's t quantiles and the regression gate's prediction bounds. Each lives in its own file.
 *
 * @module
 */
export { percentileConfidenceInterval, valueAtRank } from "./order_statistics.ts";
export type { PercentileInterval } from "./order_statistics.ts";
export { isSufficient, requiredRequests, tailSamples } from "./tail_samples.ts";
export { ksDistance } from "./ks_distance.ts";
export { regularizedIncompleteBeta, tCdf, tQuantile } from "./student_t.ts";
export { MAX_HISTORY_RUNS, MIN_HISTORY_RUNS, predictionBounds } from "./prediction_bound.ts";
export type { PredictionBounds } from "./prediction_bound.ts";
