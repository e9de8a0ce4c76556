/**
 * The capacity search: the highest rate at which a plan's SLOs hold (`tailgate search`).
 *
 * @module
 */
export { type PendingStep, runSearch, type SearchOptions } from "./run_search.ts";
export type { SearchHistoryEntry } from "../history/mod.ts";
export type {
  SearchConclusionRecord,
  SearchGate,
  SearchResult,
  SearchSettingsRecord,
  SearchStep,
  SearchVerdict,
} from "../model/mod.ts";
export { SEARCH_SCHEMA, SEARCH_VERSION } from "../model/mod.ts";
export { searchExhaustion } from "./search_exhaustion.ts";
export { writeSearchFiles } from "./search_files.ts";
export { searchPlan, type SearchPlanOptions } from "./search_plan.ts";
