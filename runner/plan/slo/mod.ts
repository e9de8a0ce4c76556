/**
 * SLOs: their grammar, binding to stages, the requests one needs to pass, and what cannot work.
 *
 * @module
 */
export { type ParsedSlo, parseSlo, type SloParseError } from "./parse_slo.ts";
export { readSlos, stagesForSlo, TIME_DOMAIN_MIN_SECONDS } from "./validate_slos.ts";
export {
  DEFAULT_MIN_TAIL_SAMPLES,
  requestsToPass,
  requestsToPassSlo,
  requiredRequests,
} from "./sample_sufficiency.ts";
export { ENGINE_PEAK_PER_WORKER_PER_SEC, warnInfeasible } from "./feasibility.ts";
