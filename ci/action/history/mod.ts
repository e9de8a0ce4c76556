/**
 * The Action's history step: its inputs, `tailgate history` run for the job's plans, the job
 * summary's section of new change points with commit links, and the histories a job started
 * from nothing (a cache that expired).
 *
 * @module
 */
export {
  HISTORY_VALUES,
  type HistoryInputs,
  type HistoryInputValues,
  MAX_RECENT_RUNS,
  readHistoryInputs,
} from "./history_inputs.ts";
export {
  historyArgs,
  type HistoryOutcome,
  type HistoryRunner,
  type HistoryTarget,
  MAX_HISTORY_REPORT_BYTES,
  readHistoryReport,
  runHistories,
} from "./history_runs.ts";
export {
  changeLine,
  type CommitLinks,
  commitLinks,
  MAX_LISTED_CHANGES,
  renderHistorySummary,
} from "./history_summary.ts";
export {
  HISTORY_FOLDER,
  type JobHistory,
  jobHistory,
  type JobHistoryInputs,
  type RanPlan,
} from "./job_history.ts";
export {
  cacheRestoreMissed,
  historyFiles,
  startedHistories,
  type StartedHistory,
  startedHistoryMessage,
} from "./started_histories.ts";
export {
  type HistoryPage,
  historyPages,
  indexPage,
  PAGES_FOLDER,
  pagesEntries,
  type WriteBlob,
} from "./history_pages.ts";
