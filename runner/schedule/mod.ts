/**
 * Schedules: the intended send time of every request, from the plan's stages.
 *
 * @module
 */
export {
  Schedule,
  ScheduleCursor,
  type ScheduleInput,
  type ShardSpec,
  type StageWindow,
  stageWindowAt,
} from "./build_schedule.ts";
export {
  expectedCount,
  offsetAtCountMs,
  rateAtMs,
  type RateProfile,
  scheduledCount,
} from "./fire_times.ts";
export { deriveSeed, Prng } from "./prng.ts";
export { RequestMix } from "./request_mix.ts";
export { dataDemand, type DataUse, RowCursor, sourceStream } from "./data_rows.ts";
export { dataExhaustion, demandLine, type SourceDemand } from "./data_exhaustion.ts";
export { choiceIndexAt, drawVar, hashWord, uniformAt, uuidAt } from "./draw_values.ts";
export { thinkMs, thinkStream } from "./think_ms.ts";
export { nextStepDueMs } from "./next_step_due.ts";
export { uuidWords } from "./draw_values.ts";
export { planSchedule } from "./plan_schedule.ts";
export { traceIdHex, TRACEPARENT_BYTES, traceWords, writeTraceparent } from "./trace_ids.ts";
