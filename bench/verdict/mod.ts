/**
 * What verdict_noise.ts is made of: its two modes (history_study.ts, ab_study.ts) on what they
 * share (study.ts), its servers (the C delay server and nginx, servers.ts), its
 * raw rows read from what the Action and tailgate hand back (rows.ts), and its Markdown tables
 * (tables.ts).
 *
 * @module
 */
export {
  abFields,
  abRedCause,
  type ChangeBrief,
  type Colour,
  colourOf,
  type ComparisonBrief,
  historyFields,
  jobFields,
  type JobRow,
  planDir,
  readJson,
  type Reason,
  type RedCause,
  resultFields,
  runRedCause,
  storedRuns,
} from "./rows.ts";
export {
  prepareServers,
  serverCommand,
  type ServerKind,
  type Servers,
  startServer,
} from "./servers.ts";
export { type AbRow, abTables, type HistoryRow, historyTables } from "./tables.ts";
export { abStudy } from "./ab_study.ts";
export { historyStudy } from "./history_study.ts";
export {
  changeCase,
  CHANGES,
  checkRunning,
  commitOf,
  PLAN_FILE,
  SERVER_CORE,
  type Study,
  studyJob,
  type StudyOptions,
  TAILGATE_CORE,
  WARMUP_SECS,
  workspace,
} from "./study.ts";
