/**
 * The stored histories the regression gates read: the baseline file (one plan's recent sound
 * runs), its parsing and damage check, the lock two writers take, and the capacity search's history.
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
  MAX_HISTORY_BYTES,
} from "./baseline_store.ts";
export { BASELINE_SCHEMA, BASELINE_VERSION, DEFAULT_BASELINE_DIR } from "./baseline_types.ts";
export type { Baseline, BaselineStage } from "./baseline_types.ts";
export {
  appendSearchHistory,
  loadSearchHistory,
  SEARCH_HISTORY_SCHEMA,
  SEARCH_HISTORY_VERSION,
  searchHistoryPath,
} from "./search_history.ts";
export type { SearchHistoryEntry } from "./search_history.ts";
