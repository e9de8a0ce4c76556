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
