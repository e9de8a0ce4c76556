/**
 * A measured run's machinery: the engine run on its workers (the plan's schedule, recorder and
 * engine wired once) and the contention probe's record. Code outside this folder imports it only
 * through this file.
 *
 * @module
 */
export type { EngineRun, Progress } from "./run_engine.ts";
export { runWorkers } from "./run_workers.ts";
export type { ContentionRecord } from "./contention_probe.ts";
