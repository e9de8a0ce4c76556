/**
 * Why the generator was late, when it was: a process that used its whole core was saturated (more
 * workers or a bigger machine help); one that used little of it while its hiccup probe saw the
 * machine pause was held back by the runner (a quieter runner helps). Its CPU share is read here
 * too. Pure.
 *
 * @module
 */
import type { EncodedHistogram } from "../../model/mod.ts";
import { formatDurationMs } from "../../plan/mod.ts";
import { type AdviceScope, moreWorkers } from "./advice_scope.ts";

/** The figures the cause is read from. */
export interface LatenessFigures {
  /** CPU time the process used during the run (ms). */
  cpu: { userMs: number; systemMs: number };
  /** Wall time the engine ran (ms). */
  durationMs: number;
  /** The platform's hiccups (the probe thread's oversleeps); optional for older results. */
  platformHiccup?: EncodedHistogram;
  /** What the command that ran the plan lets a user change, for the remedy's words. */
  advice?: AdviceScope;
}

const ms = (us: number) => formatDurationMs(us / 1000);

/**
 * The shortest window a CPU share is taken over (ms). The process's CPU time includes its setup
 * (engine workers starting, connections opening), which over a run of a few milliseconds (a stage
 * that planned one request, a run stopped at once) would read as thousands of percent of a core.
 */
export const MIN_CPU_WINDOW_MS = 1000;

/**
 * The share of one core the process used over the run (1 = a whole core), taken over at least
 * {@linkcode MIN_CPU_WINDOW_MS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cpuShare } from "./lateness_cause.ts";
 * assert.equal(cpuShare({ userMs: 1500, systemMs: 500 }, 4000), 0.5);
 * assert.equal(cpuShare({ userMs: 150, systemMs: 20 }, 2), 0.17); // over a second, not over 2 ms
 * ```
 */
export function cpuShare(cpu: { userMs: number; systemMs: number }, durationMs: number): number {
  return (cpu.userMs + cpu.systemMs) / Math.max(MIN_CPU_WINDOW_MS, durationMs);
}

/**
 * Whether late sends were the machine's doing rather than a saturated generator's: the process
 * used under half a core, and its hiccup probe saw the machine pause at least as long as the
 * sends were late. Then more workers would not help; a quieter runner would.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { machinePaused } from "./lateness_cause.ts";
 * const hiccup = { count: 10, minUs: 1, maxUs: 181_000, meanUs: 0, percentilesUs: {}, hdr: "" };
 * const f = { cpu: { userMs: 600, systemMs: 0 }, durationMs: 10_000, platformHiccup: hiccup };
 * assert.deepEqual(machinePaused(f, 35_000), { cpuShare: 0.06, pauseUs: 181_000 });
 * assert.equal(machinePaused({ ...f, cpu: { userMs: 9_000, systemMs: 0 } }, 35_000), undefined);
 * ```
 */
export function machinePaused(
  f: LatenessFigures,
  latenessUs: number,
): { cpuShare: number; pauseUs: number } | undefined {
  const share = cpuShare(f.cpu, f.durationMs);
  const pauseUs = f.platformHiccup?.count ? f.platformHiccup.maxUs : 0;
  return share < 0.5 && pauseUs >= latenessUs ? { cpuShare: share, pauseUs } : undefined;
}

/**
 * What to do about late sends, in words: a saturated generator wants more workers or a bigger
 * machine (named as the command that ran the plan can have them: {@linkcode moreWorkers}); a paused
 * one ({@linkcode machinePaused}) a quieter runner.
 */
export function latenessRemedy(
  f: LatenessFigures,
  latenessUs: number,
): string {
  const paused = machinePaused(f, latenessUs);
  if (paused === undefined) {
    return `the generator, not the server, limited this run: use ${
      moreWorkers(f.advice)
    } or a bigger machine`;
  }
  return `tailgate used ${Math.round(paused.cpuShare * 100)}% of a core while its probe saw the ` +
    `machine pause up to ${ms(paused.pauseUs)}: the runner was contended (other work took the ` +
    "CPU), not the generator saturated; rerun on a quieter runner, or with fewer jobs beside it";
}
