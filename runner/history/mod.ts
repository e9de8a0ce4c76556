/**
 * The stored histories, the layer between the result and the gates: the baseline file (one plan's
 * recent sound runs, which the regression gates read, and its long history with commits and
 * fingerprints, which `tailgate history` reads), its parsing, migration and damage check, the lock
 * two writers take, which stages compare, and the capacity search's history. Code outside this
 * folder imports it only through this file.
 *
 * @module
 */
export { decodeRuns, historyDamage, runsDamage } from "./history_damage.ts";
export type { DecodedRuns, HistoryDamage } from "./history_damage.ts";
export {
  appendToHistory,
  HistoryError,
  historyName,
  historyPath,
  historySlug,
  loadHistoryFile,
  MAX_HISTORY_BYTES,
  notBaselineReasons,
  storedRunFrom,
} from "./history_store.ts";
export type { AppendedHistory } from "./history_store.ts";
export { parseHistory } from "./history_parse.ts";
export { loadHistories, loadHistory } from "./history_files.ts";
export type { StoredHistory } from "./history_files.ts";
export {
  DEFAULT_BASELINE_RUNS,
  DEFAULT_HISTORY_DIR,
  DEFAULT_HISTORY_RUNS,
  HISTORY_FILE_SCHEMA,
  HISTORY_FILE_VERSION,
} from "./history_types.ts";
export type {
  HistoryEntry,
  HistoryFile,
  HistoryLabel,
  HistoryStage,
  NotBaselineReason,
  StoredRunStage,
  StoredStage,
} from "./history_types.ts";
export { fingerprintMismatch, planFingerprint, runnerFingerprint } from "./fingerprints.ts";
export { historyEntryFromRun } from "./history_entry.ts";
export { describeStage, matchStages, stagesMatch } from "./stage_match.ts";
export type { StageMatch, StageShape } from "./stage_match.ts";
export {
  appendSearchHistory,
  loadSearchHistory,
  SEARCH_HISTORY_SCHEMA,
  SEARCH_HISTORY_VERSION,
  searchHistoryPath,
} from "./search_history.ts";
export type { SearchHistoryEntry } from "./search_history.ts";
