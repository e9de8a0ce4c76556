/**
 * The figures and sentences every report format shares: a verdict's value, bound and margin, the
 * latency columns, the measured floor, the machine's CPU contention, setup and teardown steps, a
 * templated plan's traffic, the sent rate's dips, the time-domain lines, the shape against the
 * baseline, a gRPC stream's messages and the slowest requests with their trace ids. Each format
 * (text/, html/, junit/) only lays them out.
 *
 * @module
 */
export {
  CENSORED_FIGURE,
  marginText,
  NO_FIGURE,
  signedPercent,
  type VerdictFigures,
  verdictFigures,
} from "./verdict_figures.ts";
export {
  KEY_LATENCY_COLUMNS,
  type LatencyColumn,
  latencyColumnTitle,
  latencyUs,
} from "./latency_columns.ts";
export { floorSentence, floorsOf } from "./floor_text.ts";
export { contentionSentence } from "./contention_text.ts";
export { STEP_COLUMNS, stepRows, STEPS_INTRO } from "./steps_text.ts";
export {
  lateRenderSentence,
  type SourceFigures,
  sourceFigures,
  sourceLine,
  type TrafficSource,
  varsLine,
} from "./traffic_text.ts";
export { sentRateDips, sentRateNote } from "./sent_rate_note.ts";
export { timeDomainLines } from "./time_domain_lines.ts";
export { CHECK_LINES_SHOWN, checkLines } from "./check_lines.ts";
export { ksByStage, shapeLines } from "./shape_vs_baseline.ts";
export {
  LABEL_COLUMNS,
  LABEL_ROWS_SHOWN,
  LABEL_TTFB_COLUMN,
  type LabelRow,
  type LabelRows,
  labelRows,
} from "./label_rows.ts";
export { rateLimitedSentence } from "./rate_limited_text.ts";
export { messagesPerStream, streamPhrases } from "./stream_text.ts";
export { JOURNEY_COLUMNS, type JourneyRow, journeyRows } from "./journey_rows.ts";
export {
  failedLatencyGates,
  gateSlowestFigures,
  hasTraceIds,
  isLatencyGate,
  isTraceId,
  NO_TRACE_HINT,
  type PlacedRequest,
  shownRequests,
  slowestOf,
  type SlowFigures,
  slowFigures,
} from "./slow_requests.ts";
