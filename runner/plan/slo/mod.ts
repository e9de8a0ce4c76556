/**
 * SLOs: their grammar, binding to stages, the requests one needs to pass, and what cannot work.
 *
 * @module
 */
export { ENGINE_PEAK_PER_WORKER_PER_SEC, warnInfeasible } from "./feasibility.ts";
export { parseSlo } from "./parse_slo.ts";
export type { ParsedSlo, SloParseError } from "./parse_slo.ts";
export {
  DEFAULT_MIN_TAIL_SAMPLES,
  requestsToPass,
  requestsToPassSlo,
  requiredRequests,
} from "./sample_sufficiency.ts";
export { readSlos, stagesForSlo, TIME_DOMAIN_MIN_SECONDS } from "./validate_slos.ts";
export type { SloFollow } from "./validate_slos.ts";
