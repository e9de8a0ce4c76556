/**
 * Judges whether the generator, not the server, limited a run: late sends (which is also how a
 * send rate short of the schedule shows, since nothing scheduled is ever skipped), late dispatch,
 * the engine thread's own stalls, or a saturated CPU, each read at p99 against 10% of the
 * tightest latency SLO bound (never below 10 ms: {@linkcode latenessLimitUs}). It describes the run; it does not void verdicts:
 * each gate weighs the generator's figures at its own percentile (runner/gates/decision_rule.ts).
 * A wait for a busy connection is not the generator's lateness: it is the server's pace (and
 * `max_connections`), and it is part of the response time; nor is a wait for a connection to open
 * (the recorder keeps it out of send lag): when such connects are what made requests late,
 * {@linkcode connectionChurn} names the server's doing instead. Pure: it reads figures only.
 *
 * @module
 */
import type { Slo } from "../plan/mod.ts";
import { formatDurationMs } from "../plan/mod.ts";
import {
  type AdviceScope,
  cpuShare,
  latenessRemedy,
  machinePaused,
  percentileOf,
} from "./read/mod.ts";
import type { EncodedHistogram } from "../model/mod.ts";

/** The figures the judgement reads. */
export interface HealthFigures {
  sendLag: EncodedHistogram;
  /** Optional for callers with no dispatcher figures (older results). */
  dispatchLag?: EncodedHistogram;
  /** The engine thread's own stalls; optional for older results. */
  engineStall?: EncodedHistogram;
  /** The platform's hiccups (the probe thread's oversleeps); optional for older results. */
  platformHiccup?: EncodedHistogram;
  cpu: { userMs: number; systemMs: number };
  /** Wall time the engine ran (ms). */
  durationMs: number;
  slos: readonly Slo[];
  /** What the command that ran the plan lets a user change, for the remedies' words. */
  advice?: AdviceScope;
}

/** The least lateness (p99) that counts as falling behind, whatever the bounds: 10 ms. */
const MIN_LIMIT_US = 10_000;

function isLatency(s: Slo): boolean {
  return s.metric.kind === "percentile" || s.metric.kind === "max" || s.metric.kind === "mean";
}

/**
 * The generator's lateness (p99) beyond which it no longer held its schedule, for a gate whose
 * latency bound is `latencyBoundUs` (none for error-rate and throughput gates): max(10 ms, 10% of
 * the bound). Lateness is part of every measured latency (timed from the intended send), so it can
 * only make a figure worse; what it can flatter is the load the server saw, and a few milliseconds
 * of scheduling jitter on a shared runner leave that load as planned, while a generator that cannot
 * keep pace shows lateness far beyond it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { latenessLimitUs } from "./tool_health.ts";
 * assert.equal(latenessLimitUs(10_000), 10000); // 10 ms
 * assert.equal(latenessLimitUs(500_000), 50000); // 10% of a 500 ms bound
 * ```
 */
export function latenessLimitUs(latencyBoundUs?: number): number {
  return Math.max(MIN_LIMIT_US, (latencyBoundUs ?? 0) * 0.1);
}

/** The run's lateness limit: {@linkcode latenessLimitUs} of the tightest latency SLO. */
export function sendLagLimitUs(slos: readonly Slo[]): number {
  const latencyBounds = slos.filter(isLatency).map((s) => s.bound);
  return latenessLimitUs(latencyBounds.length ? Math.min(...latencyBounds) : undefined);
}

/** A percentile the judgement reads and the lateness it allows there. */
interface Checkpoint {
  percentile: number;
  limitUs: number;
}

/**
 * The one percentile the run-level judgement reads, p99, against {@linkcode sendLagLimitUs}.
 * Higher percentiles are not judged for the whole run: each latency gate weighs the generator's
 * figures at its own percentile (runner/gates/decision_rule.ts), so a run whose p99.9 holds the
 * generator's pauses is not voided, only the gates those pauses could decide.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { healthCheckpoints } from "./tool_health.ts";
 * assert.deepEqual(healthCheckpoints([]), [{ percentile: 99, limitUs: 10000 }]);
 * ```
 */
export function healthCheckpoints(slos: readonly Slo[]): Checkpoint[] {
  return [{ percentile: 99, limitUs: sendLagLimitUs(slos) }];
}

/**
 * The generator's own lateness at p99 (us): the larger of send lag and dispatch lag, the figure
 * both the run's health and each gate's "held its schedule" read.
 */
export function latenessP99Us(
  f: { sendLag: EncodedHistogram; dispatchLag?: EncodedHistogram },
): number {
  const at = (h: EncodedHistogram | undefined) => h?.count ? percentileOf(h, 99) : 0;
  return Math.max(at(f.sendLag), at(f.dispatchLag));
}

/** The first checkpoint at which `h` exceeds the limit, with its value there. */
function firstExcess(h: EncodedHistogram | undefined, checkpoints: Checkpoint[]) {
  if (h === undefined || h.count === 0) return undefined;
  for (const c of checkpoints) {
    const valueUs = percentileOf(h, c.percentile);
    if (valueUs > c.limitUs) return { ...c, valueUs };
  }
  return undefined;
}

const ms = (us: number) => formatDurationMs(us / 1000);
const pName = (p: number) => `p${p}`;

/**
 * Returns whether the run is tool-limited, and why in words a user understands.
 */
export function judgeToolHealth(f: HealthFigures): { toolLimited: boolean; reasons: string[] } {
  const reasons: string[] = [];
  const checkpoints = healthCheckpoints(f.slos);
  const send = firstExcess(f.sendLag, checkpoints);
  if (send) {
    reasons.push(
      `tailgate sent requests late: its send lag ${pName(send.percentile)} was ${
        ms(send.valueUs)
      }, above the ${ms(send.limitUs)} a sound run allows; ${latenessRemedy(f, send.valueUs)}`,
    );
  }
  const dispatch = firstExcess(f.dispatchLag, checkpoints);
  if (dispatch) {
    reasons.push(
      `tailgate took requests from its schedule late: dispatch lag ${pName(dispatch.percentile)} ${
        ms(dispatch.valueUs)
      }, above the ${ms(dispatch.limitUs)} ` +
        "a sound run allows, so requests that waited in its queue were not only the server's " +
        `doing; ${
          machinePaused(f, dispatch.valueUs) === undefined
            ? "the generator was saturated"
            : latenessRemedy(f, dispatch.valueUs)
        }`,
    );
  }
  const stall = firstExcess(f.engineStall, checkpoints);
  if (stall) {
    reasons.push(
      `tailgate's engine thread stalled: its stalls reach ${ms(stall.valueUs)} at ${
        pName(stall.percentile)
      }, above the ${ms(stall.limitUs)} a sound run allows, so latencies at that percentile ` +
        "include the generator's own pauses (GC, a busy or descheduled thread)",
    );
  }
  const share = cpuShare(f.cpu, f.durationMs);
  if (share > 0.95) {
    reasons.push(
      `tailgate's process used ${Math.round(share * 100)}% of a CPU core, so it could not ` +
        "keep up by itself",
    );
  }
  return { toolLimited: reasons.length > 0, reasons };
}

/** The connection figures {@linkcode connectionChurn} reads. */
export interface ConnectionFigures {
  /** Sockets opened over the run, the initial connections and every reconnect. */
  opened: number;
  /** Requests written over the run. */
  requests: number;
  /** Requests written in the measured (non-warmup) stages. */
  measuredRequests: number;
  /** How long measured requests waited for their connection to open; absent in older results. */
  connectTime?: EncodedHistogram;
  slos: readonly Slo[];
}

/** Reconnects above this share of the measured requests are the server closing every one. */
const EVERY_CONNECTION_SHARE = 0.95;
/** Connects must hold up at least this share of the measured requests to matter. */
const CONNECTS_MATTER_SHARE = 0.01;
/** Linux's first SYN retransmission: a connect that long waited for a full listen backlog. */
const SYN_RETRY_US = 1_000_000;

/**
 * The other side of the tool-limited judgement: time requests spent connecting to a server that
 * closed their connections, which is the server's doing, never the generator's. Named when the
 * connects held up at least 1% of the measured requests and their p99 is over the lateness a
 * sound run allows ({@linkcode sendLagLimitUs}), with the connections opened per request and,
 * from a second on, the SYN retries a full listen backlog makes; undefined otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { connectionChurn } from "./tool_health.ts";
 * const empty = { count: 0, minUs: 0, maxUs: 0, meanUs: 0, percentilesUs: {}, hdr: "" };
 * const f = { opened: 40, requests: 1_000, measuredRequests: 1_000, connectTime: empty, slos: [] };
 * assert.equal(connectionChurn(f), undefined); // kept alive: no reconnect
 * ```
 */
export function connectionChurn(f: ConnectionFigures): string | undefined {
  const h = f.connectTime;
  if (h === undefined || h.count < Math.max(1, CONNECTS_MATTER_SHARE * f.measuredRequests)) {
    return undefined;
  }
  const p99Us = percentileOf(h, 99);
  if (p99Us <= sendLagLimitUs(f.slos)) return undefined;
  const count = (n: number) => n.toLocaleString("en-US");
  const every = h.count >= EVERY_CONNECTION_SHARE * f.measuredRequests;
  return `the server closed ${every ? "every connection" : "connections"} (${
    count(f.opened)
  } opened for ${count(f.requests)} requests); connect p99 ${ms(p99Us)}${
    p99Us >= SYN_RETRY_US ? " (SYN retries: the server's listen backlog is full)" : ""
  }`;
}
