/**
 * Services tailgate starts itself: a command in a process group of its own, its output in a log,
 * ready once its port answers, and stopped with its whole group.
 *
 * @module
 */
export {
  DEFAULT_READY_TIMEOUT_MS,
  killStartedServices,
  type ServiceOptions,
  type ServiceProcess,
  type ServiceSpec,
  startService,
} from "./service_process.ts";
export { endProcessGroup, liveGroupMembers, signalGroup } from "./process_group.ts";
