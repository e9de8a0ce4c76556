/**
 * The built-in known-truth target server (`tailgate target`).
 *
 * @module
 */
export { describeTargetConfig } from "./describe_target_config.ts";
export { isLoopbackHostname } from "./loopback.ts";
export {
  FAULT_KINDS,
  type FaultKind,
  FIXED_DEFAULT_DELAY_MS,
  MAX_DELAY_MS,
  resolveTargetOptions,
  TARGET_DEFAULTS,
  TARGET_MODES,
  type TargetConfig,
  type TargetMode,
  type TargetOptions,
  TargetOptionsError,
} from "./target_options.ts";
export { HELLO_BODY, startTarget, type TargetServer } from "./target_server.ts";
export {
  decideResponse,
  faultKindAt,
  isChosen,
  seededUnit,
  stallWaitMs,
  type TargetDecision,
} from "./target_timing.ts";
export { spawnTarget } from "./spawn_target.ts";
