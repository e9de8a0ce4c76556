/**
 * Helpers for gate tests: result documents whose stages hold exactly the histograms a test
 * chooses, encoded as the engine encodes them, on top of a real result built by the Recorder.
 *
 * @module
 */
import { createHistogram, type Histogram } from "../../runner/hdr/mod.ts";
import { toEncodedHistogram } from "../../runner/hdr/encoded_histogram.ts";
import { addCounts, emptyCounts } from "../../runner/model/request_counts.ts";
import { mergeLatency } from "../../runner/recorder/merge_recorded.ts";
import type {
  Environment,
  LabelResult,
  RequestCounts,
  RunResult,
  StageResult,
} from "../../runner/model/run_result.ts";
import { ENVIRONMENT, sampleResult } from "./result_fixtures.ts";
import { summarizeContention } from "../../runner/result/read/mod.ts";

/** One request label of a chosen stage: its response times and how many of them failed. */
export interface LabelSpec {
  label: string;
  response: Histogram;
  /**
   * Failed requests besides `response` (default 0): as the recorder keeps them since result
   * format 3, counted (as unexpected statuses) but not in the latency histogram.
   */
  errors?: number;
}

/** A stage as a test wants it. */
export interface StageSpec {
  name?: string;
  kind?: "constant" | "ramp";
  warmup?: boolean;
  ratePerSec: number;
  /** Ramp end rate (default `ratePerSec`). */
  toPerSec?: number;
  durationMs: number;
  labels: LabelSpec[];
}

/** What else of the result a test chooses. */
export interface GateResultOptions {
  /** SLO lines, stored at lines 20, 21, … of the plan. */
  slos?: string[];
  /**
   * The run fell behind: the health flag, its reason, and send lag (p99 42 ms) that shows it,
   * unless `lateSendUs` says otherwise.
   */
  toolLimited?: boolean;
  /** Every send lag and dispatch lag sample at this value (us); default 10 (a prompt generator). */
  lateSendUs?: number;
  /** Every engine-stall and platform-hiccup sample at this value (us): the measured floor. */
  floorUs?: number;
  regression?: Record<string, number>;
  environment?: Partial<Environment>;
  /** ISO 8601 start of the run. */
  startedAt?: string;
  complete?: boolean;
}

/**
 * `n` response times spread evenly over [lowUs, highUs] (rounded to whole microseconds).
 *
 * @example
 * ```ts
 * import { uniformUs } from "./gate_fixtures.ts";
 * uniformUs(1_000, 500, 1_500).getValueAtPercentile(50); // 1000
 * ```
 */
export function uniformUs(n: number, lowUs: number, highUs: number): Histogram {
  const h = createHistogram();
  for (let i = 0; i < n; i++) {
    h.recordValue(Math.round(lowUs + ((highUs - lowUs) * i) / Math.max(1, n - 1)));
  }
  return h;
}

/**
 * `n` response times spread over [500, 1500] µs times `scale`: every percentile scales with it.
 *
 * @example
 * ```ts
 * import { scaledUs } from "./gate_fixtures.ts";
 * scaledUs(10_000, 1.3).getValueAtPercentile(99); // 1.3 × the unscaled p99, within 1 µs
 * ```
 */
export function scaledUs(n: number, scale: number): Histogram {
  return uniformUs(n, 500 * scale, 1500 * scale);
}

/**
 * A histogram holding each `[valueUs, count]` pair.
 *
 * @example
 * ```ts
 * import { pointsUs } from "./gate_fixtures.ts";
 * pointsUs([[1_000, 99], [9_000, 1]]).totalCount; // 100
 * ```
 */
export function pointsUs(points: ReadonlyArray<readonly [number, number]>): Histogram {
  const h = createHistogram();
  for (const [valueUs, count] of points) h.recordValueWithCount(valueUs, count);
  return h;
}

/**
 * A stage result holding exactly the given label histograms; the stage histogram is their merge.
 *
 * @example
 * ```ts
 * import { scaledUs, stageResult } from "./gate_fixtures.ts";
 * const s = stageResult(0, { ratePerSec: 1000, durationMs: 10_000, labels: [
 *   { label: "GET /", response: scaledUs(10_000, 1) },
 * ] });
 * s.counts.completed; // 10000
 * ```
 */
export function stageResult(index: number, spec: StageSpec): StageResult {
  const labels: LabelResult[] = spec.labels.map((l) => {
    const encoded = toEncodedHistogram(l.response);
    return {
      label: l.label,
      counts: countsOf(l.response.totalCount + (l.errors ?? 0), l.errors ?? 0),
      response: encoded,
      service: encoded,
    };
  });
  const merged = createHistogram();
  for (const l of spec.labels) merged.add(l.response);
  const counts = emptyCounts();
  for (const l of labels) addCounts(counts, l.counts);
  const encoded = toEncodedHistogram(merged);
  return {
    index,
    name: spec.name ?? `stage ${index}`,
    kind: spec.kind ?? "constant",
    warmup: spec.warmup ?? false,
    fromPerSec: spec.ratePerSec,
    toPerSec: spec.toPerSec ?? spec.ratePerSec,
    startMs: 0,
    durationMs: spec.durationMs,
    counts,
    response: encoded,
    service: encoded,
    labels,
  };
}

/**
 * A real result document (built through the Recorder) whose stages, SLOs, health and fingerprint
 * are replaced by the chosen ones.
 *
 * @example
 * ```ts
 * import { gateResult, scaledUs } from "./gate_fixtures.ts";
 * const r = gateResult([{ ratePerSec: 1000, durationMs: 10_000, labels: [
 *   { label: "GET /", response: scaledUs(10_000, 1) },
 * ] }], { slos: ["p99 < 2ms"] });
 * r.plan.slos[0].line; // 20
 * ```
 */
export function gateResult(stages: StageSpec[], options: GateResultOptions = {}): RunResult {
  const result = sampleResult(
    options.startedAt === undefined ? {} : { startedAt: new Date(options.startedAt) },
  );
  let startMs = 0;
  result.stages = stages.map((spec, i) => {
    const stage = { ...stageResult(i, spec), startMs };
    startMs += spec.durationMs;
    return stage;
  });
  // The run's totals add up its stages, and its plan's stages are the ones that ran, as a run
  // writes them (a reader checks both).
  result.totals = mergeLatency(result.stages);
  result.plan.load.stages = result.stages.map((s) => ({
    index: s.index,
    name: s.name,
    kind: s.kind,
    fromPerSec: s.fromPerSec,
    toPerSec: s.toPerSec,
    durationMs: s.durationMs,
    warmup: s.warmup,
    line: 10 + s.index,
  }));
  result.plan.slos = (options.slos ?? []).map((text, i) => ({ text, line: 20 + i }));
  if (options.regression !== undefined) result.plan.regression = options.regression;
  result.environment = { ...ENVIRONMENT, ...options.environment };
  if (options.complete === false) {
    result.run.complete = false;
    result.run.stopReason = "interrupted";
  }
  if (options.toolLimited) {
    result.health.toolLimited = true;
    result.health.reasons = ["send lag p99 42ms exceeds 10ms"];
  }
  const lateSendUs = options.lateSendUs ?? (options.toolLimited ? 42_000 : 10);
  result.health.sendLag = toEncodedHistogram(pointsUs([[lateSendUs, 1000]]));
  result.health.dispatchLag = result.health.sendLag;
  if (options.floorUs !== undefined) {
    result.health.engineStall = toEncodedHistogram(pointsUs([[options.floorUs, 1000]]));
    result.health.platformHiccup = result.health.engineStall;
  }
  return result;
}

/**
 * Counts of `completed` requests of which `errors` were answered 500, the rest 200.
 *
 * @example
 * ```ts
 * import { countsOf } from "./gate_fixtures.ts";
 * countsOf(100, 5).ok; // 95
 * ```
 */
export function countsOf(completed: number, errors: number): RequestCounts {
  return {
    ...emptyCounts(),
    scheduled: completed,
    sent: completed,
    completed,
    ok: completed - errors,
    errors: errors > 0 ? { unexpected_status: errors } : {},
    statusCodes: errors > 0 ? { "200": completed - errors, "500": errors } : { "200": completed },
  };
}

/** One second of a measured stage as a contention test wants it. */
export interface SecondSpec {
  /** The responses of the requests that fell due in this second. */
  response: Histogram;
  /** How long the service waited for a CPU in this second (ms); none when absent. */
  serviceWaitMs?: number;
}

/**
 * A result of one measured stage built second by second: its 1 s intervals hold the given
 * responses and the service's wait for a CPU, the stage their merge, and the run's contention is
 * summarized from them (`source: "service"`; `measured: false` leaves contention unmeasured).
 *
 * @example
 * ```ts
 * import { contendedResult, scaledUs } from "./gate_fixtures.ts";
 * const r = contendedResult([{ response: scaledUs(1000, 1), serviceWaitMs: 50 }], ["p99 < 2ms"]);
 * r.intervals[0].contention?.serviceWaitMs; // 50
 * ```
 */
export function contendedResult(
  seconds: readonly SecondSpec[],
  slos: string[] = [],
  options: { measured?: boolean } & GateResultOptions = {},
): RunResult {
  const merged = createHistogram();
  for (const s of seconds) merged.add(s.response);
  const result = gateResult([{
    ratePerSec: Math.round(merged.totalCount / Math.max(1, seconds.length)),
    durationMs: seconds.length * 1000,
    labels: [{ label: "GET /", response: merged }],
  }], { ...options, slos });
  result.intervals = seconds.map((s, i) => {
    const encoded = toEncodedHistogram(s.response);
    const counts = countsOf(s.response.totalCount, 0);
    return {
      startMs: i * 1000,
      durationMs: 1000,
      stageIndex: 0,
      intendedPerSec: counts.scheduled,
      sentPerSec: counts.sent,
      completedPerSec: counts.completed,
      counts,
      response: encoded,
      service: encoded,
      labels: [{ label: "GET /", counts, response: encoded, service: encoded }],
      ...(options.measured === false ? {} : {
        contention: { pressureMs: s.serviceWaitMs ?? 0, serviceWaitMs: s.serviceWaitMs ?? 0 },
      }),
    };
  });
  if (options.measured !== false) {
    result.health.contention = summarizeContention(result.intervals, result.stages, "service", {
      found: "started",
      pids: [4242],
      name: "server",
    });
  }
  return result;
}
