/**
 * Assembles the result document from what the engine recorded: the stored plan, the protocol, the
 * environment, stages, intervals (with the machine's CPU contention in each, where it was
 * sampled), exact totals, the tool's health and the first body of each unexpected status (every
 * secret blotted out).
 *
 * @module
 */
import { withTimeDomain } from "./time_domain.ts";
import { HTTP2_REPLY_NOTE, OUT_OF_DESCRIPTORS_NOTE } from "../engine/mod.ts";
import type { ResolvedPlan } from "../plan/mod.ts";
import { HISTOGRAM_CONFIG } from "../hdr/mod.ts";
import type { EngineRun } from "../run/mod.ts";
import { mergeLatency } from "../recorder/mod.ts";
import type { RecordedRun } from "../recorder/mod.ts";
import { planRecord } from "./plan_record.ts";
import { protocolRecord } from "./protocol_record.ts";
import { trafficRecord } from "./traffic_record.ts";
import {
  type Environment,
  RESULT_SCHEMA,
  RESULT_VERSION,
  type RunResult,
  type ToolHealth,
  type TrafficRecord,
} from "../model/mod.ts";
import { connectionChurn, judgeToolHealth } from "./tool_health.ts";
import { contentionOfRun } from "./interval_contention.ts";
import { youngGenerationWarning } from "../engine/mod.ts";
import { unexpectedBodies } from "./unexpected_bodies.ts";
import type { AdviceScope } from "./read/mod.ts";

/** What the engine hands over: one thread's run or the workers' merged one. */
export type RunRecord = EngineRun;

/**
 * Builds the result document. `extra.secrets`: the values no stored body may show (default the
 * plan's `${env.X}` values; a run with setup adds what it captured). `extra.advice`: what the
 * command that ran the plan lets a user change (`rerunWith` for one that takes no setting, stored
 * as `run.rerunWith`).
 */
export function buildResult(
  plan: ResolvedPlan,
  run: RunRecord,
  environment: Environment,
  stopReason: RunResult["run"]["stopReason"] = run.error !== undefined
    ? "error"
    : run.complete
    ? "completed"
    : "interrupted",
  extra: { secrets?: readonly string[]; advice?: AdviceScope } = {},
): RunResult {
  const secrets = extra.secrets ?? plan.secretValues ?? [];
  const advice = extra.advice ?? {};
  const { recorded } = run;
  const youngGenerationNote = run.youngGenerationMb === undefined
    ? undefined
    : youngGenerationWarning(run.youngGenerationMb);
  const totals = mergeLatency(recorded.stages);
  const completedRequests = totals.counts.completed;
  const health = judgeToolHealth({
    sendLag: recorded.sendLag,
    dispatchLag: recorded.dispatchLag,
    engineStall: recorded.engineStall,
    platformHiccup: recorded.platformHiccup,
    cpu: run.cpu,
    durationMs: run.durationMs,
    slos: plan.slos,
    advice,
  });
  // A stopped run covers only part of its schedule: rates are over the part it ran. A complete
  // run covers all of it, even when its last request was answered long before the schedule's end
  // (one request at 1/m for 1s is 1/s intended, not 425/s over the 2 ms it took).
  const seconds =
    (run.complete ? run.scheduleDurationMs : Math.min(run.durationMs, run.scheduleDurationMs)) /
    1000;
  const scheduled = run.complete ? run.scheduled : totals.counts.scheduled;
  const traffic = trafficRecord(plan, run.rendered);
  const series = recordedSeries(recorded);
  // Each interval's CPU contention, read off the probe's samples, and the run's (Linux only).
  const contention = run.contention
    ? contentionOfRun(series.intervals, series.stages, run.contention)
    : undefined;
  const bodies = unexpectedBodies(plan, run.bodySamples, secrets);
  return {
    schema: RESULT_SCHEMA,
    version: RESULT_VERSION,
    run: {
      startedAt: run.startedAt.toISOString(),
      endedAt: new Date(run.startedAt.getTime() + run.durationMs).toISOString(),
      durationMs: run.durationMs,
      complete: run.complete,
      stopReason,
      ...(advice.rerunWith === undefined ? {} : { rerunWith: advice.rerunWith }),
      ...protocolRecord(plan),
    },
    plan: planRecord(plan),
    environment,
    histograms: {
      format: "hdr-v2-deflate-base64",
      valueUnit: "us",
      lowestDiscernibleValue: HISTOGRAM_CONFIG.lowestDiscernibleValue,
      highestTrackableValue: HISTOGRAM_CONFIG.highestTrackableValue,
      significantValueDigits: HISTOGRAM_CONFIG.significantValueDigits,
    },
    totals,
    stages: series.stages,
    intervals: contention?.intervals ?? series.intervals,
    health: {
      ...recordedLateness(recorded),
      connections: run.connections,
      timerSlackSet: run.timerSlackSet,
      ...(run.io === undefined ? {} : { io: run.io }),
      ...(run.http2 === undefined ? {} : { http2: run.http2 }),
      cpu: {
        userMs: round(run.cpu.userMs),
        systemMs: round(run.cpu.systemMs),
        perRequestUs: completedRequests
          ? round((run.cpu.userMs + run.cpu.systemMs) * 1000 / completedRequests)
          : 0,
      },
      intendedPerSec: round(scheduled / seconds),
      // Writes made within the schedule's window: sends in the drain after it do not count, or
      // an engine that fell behind would show the intended rate.
      achievedPerSec: round(sentWithin(recorded.intervals, seconds * 1000) / seconds),
      ...(contention?.contention ? { contention: contention.contention } : {}),
      ...health,
    },
    ...(traffic ? { traffic } : {}),
    ...(bodies ? { unexpectedBodies: bodies } : {}),
    verdicts: [],
    ...warningsOf([
      lateRenderNote(traffic, completedRequests),
      run.error === undefined ? undefined : `the run failed part-way: ${run.error}`,
      youngGenerationNote,
      unopenedNote(run.unopenedConnections, plan),
      run.outOfDescriptors ? OUT_OF_DESCRIPTORS_NOTE : undefined,
      connectionChurn({
        opened: run.connections.opened,
        requests: totals.counts.sent,
        measuredRequests: recorded.stages.reduce((n, s) => n + (s.warmup ? 0 : s.counts.sent), 0),
        connectTime: recorded.connectTime,
        slos: plan.slos,
      }),
      run.http2Reply ? HTTP2_REPLY_NOTE : undefined,
    ]),
  };
}

/** Requests rendered when due are never hidden: their render time is in their send lag. */
function lateRenderNote(traffic: TrafficRecord | undefined, completed: number): string | undefined {
  const late = traffic?.lateRenders ?? 0;
  if (late === 0) return undefined;
  const share = completed > 0 ? ` (${(late / completed * 100).toPrecision(2)}%)` : "";
  return `${late} requests${share} were rendered when due instead of ahead of the schedule: ` +
    "the renderer fell behind, and their render time is in their send lag";
}

function sentWithin(
  intervals: readonly { startMs: number; durationMs: number; sentPerSec: number }[],
  windowMs: number,
): number {
  let sent = 0;
  for (const i of intervals) {
    if (i.startMs >= windowMs) continue;
    const covered = Math.min(i.durationMs, windowMs - i.startMs);
    sent += i.sentPerSec * (i.durationMs / 1000) * (covered / i.durationMs);
  }
  return sent;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function warningsOf(notes: (string | undefined)[]): { warnings?: string[] } {
  const warnings = notes.filter((n): n is string => n !== undefined);
  return warnings.length > 0 ? { warnings } : {};
}

/** A warning when initial connections did not open in time: their setup fell in measured time. */
function unopenedNote(unopened: number | undefined, plan: ResolvedPlan): string | undefined {
  if (!unopened) return undefined;
  return `${unopened} of ${plan.load.connections} connections did not open before the schedule ` +
    "started (the target accepted them slowly or not at all: a full listen backlog?); each " +
    "connected on first use instead, if at all, inside the measured response times";
}

/** The per-stage and per-interval series a result carries, with each stage's time-domain figures. */
export function recordedSeries(
  recorded: RecordedRun,
): Pick<RunResult, "stages" | "intervals"> {
  return {
    stages: withTimeDomain(recorded.stages, recorded.intervals),
    intervals: recorded.intervals,
  };
}

/** The generator's and the machine's lateness histograms, as recorded. */
export function recordedLateness(
  recorded: RecordedRun,
): Pick<
  ToolHealth,
  | "sendLag"
  | "dispatchLag"
  | "queueWait"
  | "stepLag"
  | "connectTime"
  | "engineStall"
  | "platformHiccup"
> {
  return {
    sendLag: recorded.sendLag,
    dispatchLag: recorded.dispatchLag,
    queueWait: recorded.queueWait,
    ...(recorded.stepLag ? { stepLag: recorded.stepLag } : {}),
    connectTime: recorded.connectTime,
    engineStall: recorded.engineStall,
    platformHiccup: recorded.platformHiccup,
  };
}
