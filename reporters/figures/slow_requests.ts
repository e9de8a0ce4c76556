/**
 * The slowest requests of a run as every report shows them: the requests a result keeps per
 * stage × label (`slowest`, slowest first) merged over the stages and labels a gate judged, and
 * each request's figures as text (its trace id, when it was meant to be sent, its response time
 * and status), so a reader goes from a red latency gate to the trace of the request that made it.
 *
 * @module
 */
import type { LabelResult, RunResult, SlowRequest, Verdict } from "../../runner/model/mod.ts";
import { statusKey } from "../../runner/model/mod.ts";
import { formatDurationMs } from "../../runner/plan/mod.ts";

/** How to get trace ids, said where a run sent none. */
export const NO_TRACE_HINT = "the run sent no `traceparent`: `trace: true` in the plan (or " +
  "`--trace`) sends one with every request";

/** One slow request with the stage and label it belongs to. */
export interface PlacedRequest extends SlowRequest {
  /** The stage it was sent in, by `index`. */
  stageIndex: number;
  /** Its request label. */
  label: string;
}

/** A slow request's figures as text. */
export interface SlowFigures {
  /** Its trace id (32 hex digits), absent when it carried none (or the result holds no id). */
  traceId?: string;
  /** Its intended send time from the run's start, in seconds: `3.207 s`. */
  sentAt: string;
  /** Its response time: `12.3ms`. */
  response: string;
  /** Its status: HTTP's number, a gRPC status by name, or why it failed without one. */
  status: string;
}

/**
 * A request's figures as text. A trace id is shown only when it is one (32 hex digits): a result
 * file is data, and a field holding anything else is left out rather than printed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slowFigures } from "./slow_requests.ts";
 * const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
 * assert.deepEqual(
 *   slowFigures({ traceId, intendedMs: 3207.4, responseUs: 12_300, status: 1014 }),
 *   { traceId, sentAt: "3.207 s", response: "12.3ms", status: "UNAVAILABLE" },
 * );
 * assert.equal(slowFigures({ intendedMs: 0, responseUs: 1, status: 0, error: "timeout" }).status, "timeout");
 * ```
 */
export function slowFigures(r: SlowRequest): SlowFigures {
  return {
    ...(isTraceId(r.traceId) ? { traceId: r.traceId } : {}),
    sentAt: `${(r.intendedMs / 1000).toFixed(3)} s`,
    response: formatDurationMs(r.responseUs / 1000),
    status: r.status !== 0
      ? statusKey(r.status)
      : typeof r.error === "string"
      ? r.error
      : "no response",
  };
}

/**
 * Whether a value is a W3C trace id: 32 lowercase hex digits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isTraceId } from "./slow_requests.ts";
 * assert.equal(isTraceId("4bf92f3577b34da6a3ce929d0e0e4736"), true);
 * assert.equal(isTraceId("<script>"), false);
 * ```
 */
export function isTraceId(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{32}$/.test(value);
}

/**
 * A label's kept slow requests (`slowest`), or its exemplars, that a report can show: entries
 * whose times and status are numbers. A result file is data; a damaged entry is left out, never
 * thrown over.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shownRequests } from "./slow_requests.ts";
 * const ok = { intendedMs: 1, responseUs: 2, status: 200 };
 * assert.deepEqual(shownRequests([ok, { intendedMs: "1", responseUs: 2, status: 200 }]), [ok]);
 * assert.deepEqual(shownRequests({ not: "a list" }), []);
 * ```
 */
export function shownRequests<T extends SlowRequest>(list: T[] | unknown): T[] {
  if (!Array.isArray(list)) return [];
  const finite = (n: unknown) => typeof n === "number" && Number.isFinite(n);
  return list.filter((r): r is T =>
    typeof r === "object" && r !== null && finite(r.intendedMs) && finite(r.responseUs) &&
    finite(r.status)
  );
}

/** Whether a verdict judges latency (a percentile, max or mean in microseconds). */
export function isLatencyGate(v: Verdict): boolean {
  return v.unit === "us" || v.censored === true;
}

/**
 * The failed latency gates that judged stages, in the verdicts' order: those under which the
 * reports name the slowest requests.
 */
export function failedLatencyGates(result: RunResult): Verdict[] {
  return result.verdicts.filter((v) =>
    v.status === "fail" && isLatencyGate(v) && v.stageIndexes.length > 0
  );
}

/**
 * The slowest requests of the given stages and label (every label when none is given), slowest
 * first, at most `limit`: the stages' kept `slowest` lists merged. Empty when the result keeps
 * none (a result written before them).
 */
export function slowestOf(
  result: RunResult,
  stageIndexes: readonly number[],
  label: string | undefined,
  limit: number,
): PlacedRequest[] {
  const placed: PlacedRequest[] = [];
  for (const stage of result.stages) {
    if (!stageIndexes.includes(stage.index)) continue;
    for (const l of stage.labels) {
      if (label !== undefined && l.label !== label) continue;
      for (const r of shownRequests(l.slowest)) {
        placed.push({ ...r, stageIndex: stage.index, label: l.label });
      }
    }
  }
  return placed.sort((a, b) => b.responseUs - a.responseUs || a.intendedMs - b.intendedMs)
    .slice(0, Math.max(0, limit));
}

/** Whether any kept slow request or exemplar of the label carries a trace id. */
export function hasTraceIds(labels: readonly LabelResult[]): boolean {
  return labels.some((l) =>
    [...shownRequests(l.slowest), ...shownRequests(l.exemplars)].some((r) => isTraceId(r.traceId))
  );
}

/**
 * The slowest request of a gate's stages and label as every report names it under the gate: its
 * trace id (when the run sent one) and the rest in words, `29ms, sent at 4.007 s (POST /order,
 * climb, 200)` (label and stage as the result holds them: escape or make printable where shown);
 * undefined when the result keeps none.
 */
export function gateSlowestFigures(
  result: RunResult,
  v: Verdict,
): { traceId?: string; text: string } | undefined {
  const [r] = slowestOf(result, v.stageIndexes, v.label, 1);
  if (r === undefined) return undefined;
  const f = slowFigures(r);
  const stage = result.stages.find((s) => s.index === r.stageIndex)?.name ?? "";
  const text = `${f.response}, sent at ${f.sentAt} (${r.label}, ${stage}, ${f.status})`;
  return f.traceId === undefined ? { text } : { traceId: f.traceId, text };
}
