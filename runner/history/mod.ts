/**
 * The stored histories, the layer between the result and the gates: the baseline file (one plan's
 * recent sound runs, which the regression gates read, and its long history with commits and
 * fingerprints, which `tailgate history` reads), its parsing, migration and damage check, the lock
 * two writers take, which stages compare, and the capacity search's history. Code outside this
 * folder imports it only through this file.
 *
 * @module
 */
export { baselineDamage, historyDamage } from "./history_damage.ts";
export type { BaselineDamage } from "./history_damage.ts";
export {
  appendToBaseline,
  BaselineError,
  baselinePath,
  baselineRunFrom,
  baselineSlug,
  historyName,
  loadBaseline,
  MAX_HISTORY_BYTES,
  notBaselineReasons,
} from "./history_store.ts";
export type { AppendedBaseline } from "./history_store.ts";
export { parseBaseline } from "./history_parse.ts";
export { loadHistories, loadHistory } from "./history_files.ts";
export type { StoredHistory } from "./history_files.ts";
export {
  BASELINE_SCHEMA,
  BASELINE_VERSION,
  DEFAULT_BASELINE_DIR,
  DEFAULT_BASELINE_RUNS,
  DEFAULT_HISTORY_RUNS,
} from "./history_types.ts";
export type {
  Baseline,
  BaselineStage,
  HistoryEntry,
  HistoryLabel,
  HistoryStage,
  NotBaselineReason,
  StoredStage,
} from "./history_types.ts";
export { fingerprintMismatch, planFingerprint, runnerFingerprint } from "./fingerprints.ts";
export { historyEntryFromRun } from "./history_entry.ts";
export { describeStage, stagesMatch, unmatchedStages } from "./stage_match.ts";
export type { StageShape } from "./stage_match.ts";
export {
  appendSearchHistory,
  loadSearchHistory,
  SEARCH_HISTORY_SCHEMA,
  SEARCH_HISTORY_VERSION,
  searchHistoryPath,
} from "./search_history.ts";
export type { SearchHistoryEntry } from "./search_history.ts";
