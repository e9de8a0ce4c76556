/**
 * How a result's figures are said in words: a metric's value (`format_metric.ts`), a change
 * between two runs (`format_change.ts`), and failed requests, each unexpected status by its code
 * (`error_words.ts`: `401 × 924, timeout × 3`). Read through `runner/result/read/mod.ts`.
 *
 * @module
 */
export { formatMetric } from "./format_metric.ts";
export { formatChange, formatChangeRange } from "./format_change.ts";
export {
  errorEntries,
  errorsInWords,
  type LabelCounts,
  type PlanExpectations,
  runErrorsInWords,
  unexpectedCodes,
} from "./error_words.ts";
