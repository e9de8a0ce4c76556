/**
 * The certain-failure rule: an SLO is sure to fail before its requests have all been sent, whatever
 * the rest of them do. `tailgate run --fail-fast` stops on it, and so does each step of the
 * capacity search (fail_fast_watch.ts reads the run's progress into this rule's evidence). It counts
 * only what is beyond doubt among the requests the SLO judges (its bound stages and label, or one
 * window of them):
 *
 * - failed requests (a failed request is beyond every latency bound), and
 * - requests outstanding for longer than the bound plus max(bound, 50 ms) ({@linkcode ageBeyondUs}):
 *   whatever their answer, it comes too late.
 *
 * A percentile SLO `pQ < B` is then certain to fail when the share of its planned requests already
 * beyond B is above 1 − Q/100 with 95% confidence (the gate's own interval, at the best case for
 * the server: every request still to come passes); `max < B` when one request is beyond B;
 * `error_rate < X` when the failures alone are above X. The others (`mean`, `throughput`, trends,
 * stalls) wait for the run's end. Pure.
 *
 * @module
 */
import { binomialInterval } from "../stats/mod.ts";
import type { Slo } from "../../plan/mod.ts";
import { formatDurationMs } from "../../plan/mod.ts";

/**
 * A request counts as beyond a latency bound B once it is outstanding for B plus max(B, 50 ms):
 * the margin covers an answer that arrived while the generator paused and is not yet read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ageBeyondUs } from "./certain_failure.ts";
 * assert.equal(ageBeyondUs(10_000), 60000); // 10 ms + 50 ms
 * assert.equal(ageBeyondUs(200_000), 400000);
 * ```
 */
export function ageBeyondUs(boundUs: number): number {
  return boundUs + Math.max(boundUs, 50_000);
}

/**
 * Whether the rule can decide `slo` early: a percentile, `max` or `error_rate` (each an upper
 * bound, as the grammar has them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decidedEarly } from "./certain_failure.ts";
 * assert.equal(decidedEarly({ metric: { kind: "mean" } }), false);
 * ```
 */
export function decidedEarly(slo: Pick<Slo, "metric">): boolean {
  const kind = slo.metric.kind;
  return kind === "percentile" || kind === "max" || kind === "error_rate";
}

/** What is certain of the requests an SLO judges, at one moment. */
export interface CertainEvidence {
  /** Requests planned in all, every shard's: the denominator of the share. */
  planned: number;
  /** Requests that failed. */
  failed: number;
  /** Requests outstanding for longer than {@linkcode ageBeyondUs} of the SLO's bound. */
  overdue: number;
}

/**
 * Requests certainly beyond the SLO's bound: the failed ones, and for a latency SLO the overdue
 * ones too (not for `ttfb.`: an outstanding request may have had its first byte in time); never
 * more than planned.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { certainlyBeyond } from "./certain_failure.ts";
 * const p99 = { metric: { kind: "percentile", percentile: 99 } } as const;
 * assert.equal(certainlyBeyond(p99, { planned: 1000, failed: 3, overdue: 7 }), 10);
 * ```
 */
export function certainlyBeyond(slo: Pick<Slo, "metric" | "series">, e: CertainEvidence): number {
  const beyond = slo.metric.kind === "error_rate" || slo.series === "ttfb"
    ? e.failed
    : e.failed + e.overdue;
  return Math.min(Math.max(0, Math.floor(beyond)), plannedCount(e));
}

/**
 * Whether `slo` fails whatever the requests still to come do, on evidence `e`, at two-sided level
 * `alpha` (a windowed SLO's watch passes alpha over its number of windows: Holm's first step, as
 * the finished run's windows are judged).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failsForCertain } from "./certain_failure.ts";
 * const slo = { text: "p99 < 10ms", metric: { kind: "percentile", percentile: 99 }, operator: "<", bound: 10_000, line: 1 } as const;
 * assert.equal(failsForCertain(slo, { planned: 10_000, failed: 0, overdue: 240 }), true); // about 100 may be beyond
 * assert.equal(failsForCertain(slo, { planned: 10_000, failed: 0, overdue: 90 }), false);
 * ```
 */
export function failsForCertain(slo: Slo, e: CertainEvidence, alpha = 0.05): boolean {
  const n = plannedCount(e);
  if (!decidedEarly(slo) || n === 0) return false;
  const beyond = certainlyBeyond(slo, e);
  if (slo.metric.kind === "max") return beyond > 0;
  const allowed = slo.metric.kind === "percentile" ? 1 - slo.metric.percentile / 100 : slo.bound;
  // The interval's low end lies below the share measured: no need to compute it at or below.
  if (beyond / n <= allowed) return false;
  return binomialInterval(beyond, n, alpha).low > allowed;
}

/**
 * The reason in words, `of` naming the requests judged ("the 10000 its stages plan").
 */
export function certainReason(slo: Slo, e: CertainEvidence, of: string): string {
  const beyond = certainlyBeyond(slo, e);
  const what = slo.metric.kind === "error_rate" || slo.series === "ttfb" || e.overdue === 0
    ? `${beyond} requests already failed`
    : `${beyond} requests already failed or are outstanding for over ${
      formatDurationMs(ageBeyondUs(slo.bound) / 1000)
    }`;
  return `${what}, of ${of}: \`${slo.text}\` fails whatever the rest do`;
}

function plannedCount(e: CertainEvidence): number {
  return Math.max(0, Math.round(e.planned));
}
