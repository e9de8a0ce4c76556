/**
 * Ends a search step early once its failure is certain: when, even if every request still to be
 * sent came back at once and without error, the step would fail one of its SLOs. It reads only
 * the run's progress (about once a second), so it counts what is beyond doubt:
 *
 * - failed requests since the measured stage began (beyond every latency bound), and
 * - requests still outstanding (queued for a connection or in flight) that are older than the
 *   bound with room to spare: of the requests outstanding now, at most `rate × age` were
 *   scheduled in the last `age`, and those the warmup left outstanding are not counted.
 *
 * A percentile SLO `pQ < B` is then certain to fail when the share of the step's planned requests
 * already beyond B is above 1 − Q/100 with 95% confidence (the gate's own interval, at the best
 * case for the server); `max < B` when one request is; `error_rate < X` when the failures alone
 * are. Labelled SLOs (`for "…"`) and the others wait for the step's end: progress is not per label.
 *
 * @module
 */
import { binomialInterval } from "../gates/binomial.ts";
import type { Slo } from "../plan/types.ts";
import { formatDurationMs } from "../plan/units.ts";
import type { Progress } from "../run/run_engine.ts";

/** A request counts as beyond a latency bound B once it is outstanding for B plus this margin. */
export function ageBeyondUs(boundUs: number): number {
  return boundUs + Math.max(boundUs, 50_000);
}

/** What is certain at one moment of the measured stage. */
export interface StepEvidence {
  /** Requests the step's measured stage plans in all. */
  plannedCount: number;
  /** Failed requests of the measured stage so far. */
  failures: number;
  /** The step's rate, per second. */
  ratePerSec: number;
  /** Requests outstanding now, less those the warmup left outstanding. */
  outstanding: number;
}

/** A certain failure: the SLO and why, in words. */
export interface CertainFailure {
  slo: string;
  reason: string;
}

/**
 * The first SLO certain to fail on `e`, or undefined.
 *
 * @example
 * ```ts
 * import { certainFailure } from "./early_stop.ts";
 * const slo = { text: "p99 < 10ms", metric: { kind: "percentile", percentile: 99 }, operator: "<", bound: 10_000, line: 1 } as const;
 * certainFailure([slo], { plannedCount: 10_000, failures: 0, ratePerSec: 1000, outstanding: 2_000 })?.slo; // "p99 < 10ms"
 * ```
 */
export function certainFailure(slos: readonly Slo[], e: StepEvidence): CertainFailure | undefined {
  const n = Math.max(1, Math.round(e.plannedCount));
  for (const slo of slos) {
    if (slo.label !== undefined) continue;
    const m = slo.metric;
    let beyond: number;
    let allowed: number;
    if (m.kind === "percentile" || m.kind === "max") {
      const old = Math.max(0, e.outstanding - e.ratePerSec * ageBeyondUs(slo.bound) / 1e6);
      beyond = e.failures + Math.floor(old);
      allowed = m.kind === "max" ? 0 : 1 - m.percentile / 100;
    } else if (m.kind === "error_rate") {
      beyond = e.failures;
      allowed = slo.bound;
    } else continue;
    beyond = Math.min(beyond, n);
    const certain = m.kind === "max" ? beyond > 0 : binomialInterval(beyond, n).low > allowed;
    if (!certain) continue;
    const what = m.kind === "error_rate"
      ? `${beyond} requests already failed`
      : `${beyond} requests already failed or are outstanding for over ${
        formatDurationMs(ageBeyondUs(slo.bound) / 1000)
      }`;
    return {
      slo: slo.text,
      reason: `${what} of the step's ${n}: \`${slo.text}\` fails whatever the rest do`,
    };
  }
  return undefined;
}

/**
 * Watches a step's progress and returns the certain failure once two reports in a row show one.
 * The measured stage is the step's last; counts are taken from the moment it begins.
 *
 * @example
 * ```ts
 * import { earlyStopWatch } from "./early_stop.ts";
 * const watch = earlyStopWatch([], { ratePerSec: 1000, durationMs: 10_000, stageIndex: 1 });
 * // runPlan(plan, { onProgress: (p) => { if (watch(p)) controller.abort(); } })
 * ```
 */
export function earlyStopWatch(
  slos: readonly Slo[],
  step: { ratePerSec: number; durationMs: number; stageIndex: number },
): (p: Progress) => CertainFailure | undefined {
  let start: { errors: number; outstanding: number } | undefined;
  let streak = 0;
  return (p) => {
    if (p.stageIndex !== step.stageIndex) return undefined;
    const outstanding = p.queued + p.inflight;
    start ??= { errors: p.errors, outstanding };
    const failure = certainFailure(slos, {
      plannedCount: step.ratePerSec * step.durationMs / 1000,
      failures: p.errors - start.errors,
      ratePerSec: step.ratePerSec,
      outstanding: Math.max(0, outstanding - start.outstanding),
    });
    // Twice in a row: responses that arrived while the generator itself paused are counted as
    // outstanding until it reads them, and it has read them by the next report.
    streak = failure === undefined ? 0 : streak + 1;
    return streak >= 2 ? failure : undefined;
  };
}
