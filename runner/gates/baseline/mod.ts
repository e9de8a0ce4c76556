/**
 * The stored histories: the baseline file (one plan's recent sound runs, which the regression
 * gates read, and its long history with commits and fingerprints, which `tailgate history`
 * reads), its parsing, migration and damage check, the lock two writers take, and the capacity
 * search's history.
 *
 * @module
 */
export { baselineDamage } from "./baseline_damage.ts";
export {
  appendToBaseline,
  BaselineError,
  baselinePath,
  baselineRunFrom,
  baselineSlug,
  fingerprintMismatch,
  historyName,
  loadBaseline,
  loadHistory,
  MAX_HISTORY_BYTES,
} from "./baseline_store.ts";
export {
  BASELINE_SCHEMA,
  BASELINE_VERSION,
  DEFAULT_BASELINE_DIR,
  DEFAULT_BASELINE_RUNS,
  DEFAULT_HISTORY_RUNS,
} from "./baseline_types.ts";
export type {
  Baseline,
  BaselineStage,
  HistoryEntry,
  HistoryLabel,
  HistoryStage,
} from "./baseline_types.ts";
export { planFingerprint, runnerFingerprint } from "./fingerprints.ts";
export { historyEntryFromRun } from "./history_entry.ts";
export {
  appendSearchHistory,
  loadSearchHistory,
  SEARCH_HISTORY_SCHEMA,
  SEARCH_HISTORY_VERSION,
  searchHistoryPath,
} from "./search_history.ts";
export type { SearchHistoryEntry } from "./search_history.ts";
