/**
 * The machine's CPU contention, read from Linux's counters: the CPU pressure, each CPU's steal and
 * the run-queue wait of a service's threads (proc_counters.ts parses them, counter_sampler.ts
 * reads them). runner/run/contention_probe.ts samples them beside a run.
 *
 * @module
 */
export {
  type ContentionSample,
  pressureTotalUs,
  schedstatWaitNs,
  stealTicksPerCpu,
} from "./proc_counters.ts";
export { clockTicksPerSec, CounterSampler, type CounterSamplerOptions } from "./counter_sampler.ts";
