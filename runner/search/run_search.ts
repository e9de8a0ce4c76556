/**
 * `tailgate search`: runs the capacity search the strategy (search_strategy.ts) directs. Each step
 * is a fresh run of the plan's requests with its own warmup and one measured stage at the step's
 * rate, judged by the plan's SLOs with the gates' three-way decision (their `at` rates are dropped:
 * the search asks whether they hold at each rate it tries), followed by a cool-down so a backlog the
 * server built drains before the next step.
 *
 * @module
 */
import { judge } from "../api/mod.ts";
import { formatMetric } from "../result/mod.ts";
import type { SearchHistoryEntry } from "../history/mod.ts";
import { judgeSearchRegression, searchRegressionLimit } from "../gates/mod.ts";
import { measureRun } from "../api/mod.ts";
import { StepFailure } from "../session/mod.ts";
import type { Environment, FailFastStop, RunResult } from "../model/mod.ts";
import {
  SEARCH_SCHEMA,
  SEARCH_VERSION,
  type SearchConclusionRecord,
  type SearchResult,
  type SearchStep,
} from "../model/mod.ts";
import type { PlanSearch, PlanStage, ResolvedPlan } from "../plan/mod.ts";
import { formatDurationMs, formatRatePerSec } from "../plan/mod.ts";
import { collectEnvironment } from "../result/mod.ts";
import { planRecord } from "../result/mod.ts";
import { judgeRateSlos, rateSlos, searchVerdict } from "./search_gates.ts";
import {
  type JudgedStep,
  nextMove,
  type SearchConclusion,
  type SearchSettings,
  type StepOutcome,
} from "./search_strategy.ts";

/** Options of {@linkcode runSearch}. */
export interface SearchOptions {
  /** Stops the search; what was measured is returned, marked incomplete. */
  signal?: AbortSignal;
  /** PEM certificates to trust for https targets. */
  caCerts?: string[];
  /** Called as each step starts and when it is judged. */
  onStep?: (event: { phase: "start" | "done"; step: SearchStep | PendingStep }) => void;
  /** The machine's fingerprint, when already collected. */
  environment?: Environment;
  /** How the pause between steps is taken (tests pass a faster one). */
  sleep?: (ms: number) => Promise<void>;
  /** The plan's past searches: the rate found is judged against them (runner/gates/regression/search_regression.ts). */
  history?: readonly SearchHistoryEntry[];
  /** The service under test, when the caller started it: its process group (`measureRun`'s). */
  service?: { pgid: number };
}

/** A step about to run. */
export interface PendingStep {
  /** The rate to try, per second. */
  ratePerSec: number;
  /** The measured stage's length, in milliseconds. */
  durationMs: number;
  /** True for the confirming soak at the rate found. */
  soak: boolean;
}

/** Inconclusive steps are repeated (twice as long each time) at most this often. */
export const MAX_RETRIES = 2;

/**
 * Searches the highest rate at which `plan`'s SLOs hold, as its `search` section directs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePlanText, runSearch, startTarget } from "../../mod.ts";
 *
 * // 2 servers of 10 ms behind one queue: exactly 200 requests a second.
 * await using target = await startTarget({ mode: "capacity", servers: 2, delayMs: 10, port: 0 });
 * const { plan } = parsePlanText(`
 * name: search-example
 * target: ${target.url}
 * requests: [{ path: / }]
 * load: { connections: 8, max_connections: 200, stages: [{ rate: 100/s, duration: 1s }] }
 * slo: [p90 < 40ms]
 * search: { from: 100/s, max: 1k/s, step: 500ms, precision: 25%,
 *           warmup: 0s, cooldown: 0s, soak: 0s }
 * `);
 * const result = await runSearch({ ...plan!, search: plan!.search! });
 * assert.equal(result.conclusion.status, "found"); // at about 200/s
 * ```
 */
export async function runSearch(
  plan: ResolvedPlan & { search: PlanSearch },
  options: SearchOptions = {},
): Promise<SearchResult> {
  const environment = options.environment ?? await collectEnvironment();
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const s = plan.search;
  const limit = options.history && searchRegressionLimit(options.history, environment);
  const settings: SearchSettings = {
    fromPerSec: s.fromPerSec,
    maxPerSec: s.maxPerSec,
    stepMs: s.stepMs,
    precision: s.precision,
    soakMs: s.soakMs,
    maxRetries: MAX_RETRIES,
    gateRatesPerSec: [
      ...rateSlos(plan.slos).map((slo) => slo.bound),
      ...(limit ? [Number(limit.limitPerSec.toPrecision(3))] : []),
    ],
  };
  const startedAt = new Date();
  const judged: JudgedStep[] = [];
  const steps: SearchStep[] = [];
  let conclusion: SearchConclusion | undefined;
  let setupFailure: string | undefined;
  while (!options.signal?.aborted) {
    const move = nextMove(settings, judged);
    if (move.kind === "done") {
      conclusion = move.conclusion;
      break;
    }
    options.onStep?.({ phase: "start", step: move });
    // A step stops once its failure is certain: the rule `run --fail-fast` stops on.
    const result = await measureRun(stepPlan(plan, move), {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.caCerts ? { caCerts: options.caCerts } : {}),
      environment,
      failFast: true,
      ...(options.service ? { service: options.service } : {}),
    }).catch((e) => {
      // A step's login failed: the search ends there, the steps measured so far kept.
      if (!(e instanceof StepFailure) || e.interrupted) throw e;
      return e;
    });
    if (result instanceof StepFailure) {
      setupFailure = `${formatRatePerSec(move.ratePerSec)} step: ${result.message}`;
      break;
    }
    const certain = result.run.stoppedBy;
    if (options.signal?.aborted || (!result.run.complete && certain === undefined)) break;
    // A certain failure counts only while the generator kept up: one that fell behind may have
    // left answers unread, so the step is judged as it stands (tool-limited, run again).
    const early = certain !== undefined && !result.health.toolLimited;
    const run = early ? undefined : await judge(result);
    const step: SearchStep = {
      ...(run === undefined ? earlyFailure(move, result, certain!) : stepRecord(
        move,
        run.result,
        run.judgement.verdict.status,
        run.judgement.verdict.summary,
      )),
      seed: result.plan.load.seed,
    };
    steps.push(step);
    judged.push({ ...move, outcome: step.outcome });
    options.onStep?.({ phase: "done", step });
    if (s.cooldownMs > 0) await sleep(s.cooldownMs);
  }
  const record = conclusionRecord(conclusion, steps);
  const gates = [
    ...judgeRateSlos(plan.slos, steps),
    ...(limit ? [judgeSearchRegression(record, limit)] : []),
  ];
  return {
    schema: SEARCH_SCHEMA,
    version: SEARCH_VERSION,
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    complete: conclusion !== undefined,
    ...(setupFailure === undefined ? {} : { setupFailure }),
    plan: planRecord(plan),
    environment,
    settings: {
      fromPerSec: s.fromPerSec,
      maxPerSec: s.maxPerSec,
      stepMs: s.stepMs,
      warmupMs: s.warmupMs,
      cooldownMs: s.cooldownMs,
      precision: s.precision,
      soakMs: s.soakMs,
    },
    steps,
    conclusion: record,
    verdict: searchVerdict(gates, record, conclusion !== undefined),
  };
}

/** The plan of one step: a warmup and one measured stage at the step's rate, SLOs on it. */
export function stepPlan(plan: ResolvedPlan & { search: PlanSearch }, step: PendingStep) {
  const stage = (index: number, durationMs: number, warmup: boolean): PlanStage => ({
    kind: "constant",
    index,
    name: `${warmup ? "warmup " : ""}${formatRatePerSec(step.ratePerSec)}${
      step.soak ? " (soak)" : ""
    }`,
    ratePerSec: step.ratePerSec,
    durationMs,
    warmup,
    line: plan.search.line,
  });
  const stages = plan.search.warmupMs > 0
    ? [stage(0, plan.search.warmupMs, true), stage(1, step.durationMs, false)]
    : [stage(0, step.durationMs, false)];
  return {
    ...plan,
    load: { ...plan.load, stages },
    slos: plan.slos.filter((slo) => slo.metric.kind !== "sustainable_rate").map((
      { atRatePerSec: _at, ...slo },
    ) => slo),
  };
}

/** A step stopped once its failure was certain: a fail, with the figures measured until then. */
function earlyFailure(step: PendingStep, result: RunResult, certain: FailFastStop): SearchStep {
  const record = stepRecord(step, result, "fail", "");
  return {
    ...record,
    outcome: "fail",
    summary: `stopped after ${
      formatDurationMs(result.run.durationMs - (result.stages.at(-2)?.durationMs ?? 0))
    }: ${certain.reason}`,
    failedSlos: [certain.slo],
  };
}

function stepRecord(
  step: PendingStep,
  result: RunResult,
  status: string,
  summary: string,
): SearchStep {
  const measured = result.stages[result.stages.length - 1];
  const failedSlos = result.verdicts.filter((v) => v.kind === "slo" && v.status === "fail").map((
    v,
  ) => v.name);
  const outcome = stepOutcome(status, result.health.toolLimited);
  const r = measured.response;
  return {
    ratePerSec: step.ratePerSec,
    durationMs: step.durationMs,
    soak: step.soak,
    outcome,
    summary: outcome === "limited"
      ? result.health.reasons.join("; ")
      : [summary, ...undecided(result)].join("; "),
    failedSlos,
    completed: measured.counts.completed,
    answeredPerSec: answeredPerSec(result, measured.index),
    responseUs: {
      p50: r.percentilesUs["50"] ?? 0,
      p99: r.percentilesUs["99"] ?? 0,
      p999: r.percentilesUs["99.9"] ?? 0,
      max: r.maxUs,
    },
  };
}

/**
 * Each gate that did not pass, with why: "p99 < 1ms inconclusive (generator): measured 1.5ms".
 */
function undecided(result: RunResult): string[] {
  return result.verdicts.filter((v) => v.status !== "pass").map((v) =>
    `${v.name} ${v.status}${v.causes?.length ? ` (${v.causes.join(", ")})` : ""}${
      v.measured !== undefined && v.unit !== undefined
        ? `: measured ${formatMetric(v.measured, v.unit)}`
        : ""
    }`
  );
}

/**
 * Answers per second while the measured stage ran (its intervals, by wall clock, within the
 * stage's scheduled span and while requests were scheduled: neither the drain after the schedule
 * nor the empty rest of a step stopped early counts): what the server got through, which above its
 * capacity is less than the rate tried.
 */
function answeredPerSec(result: RunResult, stageIndex: number): number {
  const stage = result.stages.find((s) => s.index === stageIndex)!;
  const endMs = stage.startMs + stage.durationMs;
  let ms = 0;
  let answered = 0;
  for (const i of result.intervals) {
    // Nothing scheduled: the step was stopped early (its intervals run on, empty).
    if (i.stageIndex !== stageIndex || i.intendedPerSec === 0) continue;
    const overlapMs = Math.min(i.startMs + i.durationMs, endMs) -
      Math.max(i.startMs, stage.startMs);
    if (overlapMs <= 0) continue;
    ms += overlapMs;
    answered += i.completedPerSec * overlapMs;
  }
  return ms > 0 ? Math.round(answered / ms) : 0;
}

/**
 * A step's outcome from its run verdict and tool health. A step tailgate could not send is its
 * own limit (`limited`), unless it failed: then the server broke the SLOs beyond doubt whatever
 * the generator added.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stepOutcome } from "./run_search.ts";
 * assert.equal(stepOutcome("inconclusive", true), "limited");
 * assert.equal(stepOutcome("fail", true), "fail");
 * ```
 */
export function stepOutcome(status: string, toolLimited: boolean): StepOutcome {
  const outcome: StepOutcome = status === "pass"
    ? "pass"
    : status === "fail"
    ? "fail"
    : "inconclusive";
  return outcome !== "fail" && toolLimited ? "limited" : outcome;
}

function conclusionRecord(
  conclusion: SearchConclusion | undefined,
  steps: readonly SearchStep[],
): SearchConclusionRecord {
  if (conclusion === undefined) {
    return { status: "inconclusive", reason: "the search was stopped before it concluded" };
  }
  if (conclusion.status === "inconclusive") {
    return {
      status: "inconclusive",
      reason: conclusion.reason,
      ...(conclusion.ratePerSec === undefined ? {} : { ratePerSec: conclusion.ratePerSec }),
    };
  }
  if (conclusion.status === "at_least") {
    return { status: "at_least", ratePerSec: conclusion.ratePerSec };
  }
  // The binding SLO: what failed at the bracket's top (the lowest failing rate).
  const top = steps.find((s) => s.outcome === "fail" && s.ratePerSec === conclusion.failPerSec);
  return {
    status: "found",
    ratePerSec: conclusion.ratePerSec,
    failPerSec: conclusion.failPerSec,
    ...(top?.failedSlos.length ? { bindingSlo: top.failedSlos[0] } : {}),
  };
}
