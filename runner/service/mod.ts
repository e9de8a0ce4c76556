/**
 * Services tailgate starts itself: a command in a process group of its own under a keeper that
 * adopts whatever it leaves running, its output's tail in a log, ready once its port answers, and
 * stopped with every process it left; and the service's processes found for the contention probe
 * (the group started, or the holders of a loopback target's listening socket).
 *
 * @module
 */
export {
  DEFAULT_READY_TIMEOUT_MS,
  killStartedServices,
  type ServiceOptions,
  type ServiceProcess,
  type ServiceSpec,
  ServiceStartError,
  type ServiceStop,
  startService,
  TAIL_LINES,
} from "./service_process.ts";
export { endProcessGroup, liveGroupMembers, signalGroup } from "./process_group.ts";
export { DEFAULT_LOG_MAX_BYTES } from "./tail_log.ts";
export { findService, type FoundService, processNames, servedInProcess } from "./find_service.ts";
export { isLoopbackHost, listeningInodes } from "./listening_sockets.ts";
