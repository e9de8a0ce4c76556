/**
 * The recorder: what a run measured, per stage and label (histograms, counts, intervals), the
 * live tally the progress line reads, and the merge of the workers' records. Code outside this folder
 * imports it only through this file.
 *
 * @module
 */
export type { GroupCounts, LiveTally } from "./live_tally.ts";
export { mergeLatency, mergeRecordedRuns } from "./merge_recorded.ts";
export { groupCounts, TALLY_FIELDS, TallySum } from "./live_tally.ts";
export type { RecordedRun, Recorder } from "./recorder.ts";
export { planRecorder } from "./plan_recorder.ts";
export type { IntervalStore } from "./interval_store.ts";
export type { IntervalEncoder } from "./worker_interval_store.ts";
export { startIntervalEncoder, WorkerIntervalStore } from "./worker_interval_store.ts";
export { mergeLabelTails } from "./slowest_tally.ts";
