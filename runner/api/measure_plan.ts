/**
 * The library's front door for running a plan: {@linkcode measureRun} runs a resolved plan with
 * corrected timing (every request timed from its intended send time, on as many engine workers
 * as the plan asks for) and returns the measured result document, not yet judged (see
 * {@linkcode judge} in judge.ts). `tailgate run` is this, between loading the plan and judging.
 *
 * @module
 */
import { type CertainFailure, failFastWatch } from "../gates/mod.ts";
import { collectEnvironment, runIdOf } from "../result/mod.ts";
import { buildResult } from "../result/mod.ts";
import type { Environment, RunResult } from "../model/mod.ts";
import type { ResolvedPlan } from "../plan/mod.ts";
import { drawsFromSeed, withRunSeed } from "../plan/mod.ts";
import { notYetRun } from "../plan/mod.ts";
import { problemText } from "../model/mod.ts";
import type { Progress } from "../run/mod.ts";
import { runWorkers } from "../run/mod.ts";
import { runSetup, runTeardown } from "../session/mod.ts";
import { type TeardownDone, withTeardown } from "./teardown_done.ts";
import type { ShardSpec } from "../schedule/mod.ts";

export type { Progress };

/** Options of {@linkcode measureRun}; all optional. */
export interface MeasureRunOptions {
  /** Stops the run early; what was measured is still returned, marked incomplete. */
  signal?: AbortSignal;
  /** PEM certificates to trust for https targets. */
  caCerts?: string[];
  /**
   * Run only this share of every stage's schedule (a sharded run; `tailgate merge` judges). The
   * shards of one run share its seed: a plan that fixes no `load.seed` and draws from it needs
   * `startAtEpochMs` (a RangeError otherwise).
   */
  shard?: ShardSpec;
  /**
   * Epoch ms at which the schedule's time zero falls (aligns shards on several machines). A plan
   * that fixes no `load.seed` then runs with a hash of this instant, the same on every shard.
   */
  startAtEpochMs?: number;
  /** Called about once a second with the run's progress. */
  onProgress?: (progress: Progress) => void;
  /** Called with notices as they happen (connections that did not open, out of descriptors). */
  onNotice?: (note: string) => void;
  /** The machine's fingerprint, when already collected (runs of one process share it). */
  environment?: Environment;
  /**
   * The run's id (`run.id`); default `TAILGATE_RUN_ID`, else the CI's run, else drawn at random
   * (runner/result/run_id.ts). A `TAILGATE_RUN_ID` that is not one is a RangeError.
   */
  runId?: string;
  /**
   * Stop once an SLO's failure is certain (runner/gates/fail_fast/fail_fast_watch.ts): the result is what
   * ran until then, `run.stopReason` `fail_fast` and `run.stoppedBy` naming the SLO and why.
   */
  failFast?: boolean;
  /**
   * The service under test, when the caller started it (`tailgate run --start`, `ab`'s started
   * targets): its process group. On Linux the run then measures its processes' wait for a CPU
   * (`health.contention`, `source: "service"`); without it, a loopback target's service is found
   * by its listening socket. With `death`, a service that died during the run (what `death`
   * says, `startRunService`'s `RunService.death`) leaves the result incomplete with that warning.
   */
  service?: { pgid: number; death?: () => string | undefined };
  /**
   * How to run the plan with settings of one's own, when the caller takes none (`tailgate demo`):
   * stored as `run.rerunWith`, so advice names it.
   */
  rerunWith?: string;
}

/**
 * Runs `plan` and returns its result document: percentiles, histograms and per-second intervals
 * per stage and request, tool health and the measured floor (on Linux, also the machine's CPU
 * contention: what the service waited for a CPU), with `verdicts` still empty. A plan that fixes
 * no `load.seed` runs with a fresh seed each time (two runs send different uuids and values),
 * which the result records as `plan.load.seed` with `seedPerRun: true`. A run
 * that failed part-way or was stopped returns what it measured, with `run.complete` false and
 * `run.stopReason` saying why (and a warning naming the failure). A plan with journeys, checks or
 * their SLOs, which this version reads but does not run yet, is a RangeError naming each at its
 * line, before anything is sent (`tailgate run` refuses it first, as exit 2).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judge, parsePlanText, measureRun, startTarget } from "../../mod.ts";
 *
 * await using target = await startTarget({ mode: "hello", port: 0 });
 * const { plan } = parsePlanText(`
 * name: front-door
 * target: ${target.url}
 * requests: [{ name: GET /, path: / }]
 * load: { connections: 4, stages: [{ name: steady, rate: 200/s, duration: 1s }] }
 * slo: [p90 < 250ms]
 * `);
 * const result = await measureRun(plan!);
 * const { judgement: { verdict } } = await judge(result);
 * assert.equal(result.stages[0].counts.completed, 200);
 * assert.equal(verdict.summary.split(":")[0], "1 gate"); // pass, unless the machine is overloaded
 * ```
 */
export async function measureRun(
  plan: ResolvedPlan,
  options: MeasureRunOptions = {},
): Promise<RunResult> {
  const measured = await measurePlan(plan, options);
  return withTeardown(measured.result, await measured.teardown());
}

/** A plan measured, its teardown still owed: what {@linkcode measurePlan} returns. */
export interface MeasuredRun {
  /** The result document, as {@linkcode measureRun} returns it but for the teardown's steps. */
  result: RunResult;
  /**
   * Sends the plan's teardown steps (none without a setup or teardown) and returns their records
   * and warnings, which `withTeardown` (teardown_done.ts) joins to `result`. Called again, it returns the first call's promise. A stop (`signal`)
   * that comes while a step is sent ends the teardown, a warning naming that step. A stop that
   * came before the teardown began leaves it to run: cleanup is owed after a stopped run too.
   */
  teardown(): Promise<TeardownDone>;
}

/**
 * {@linkcode measureRun} in two parts, so a caller can keep what was measured before the teardown
 * steps are sent (`tailgate run` writes the result and the reports first): the measured result,
 * and its teardown still to run.
 */
export async function measurePlan(
  written: ResolvedPlan,
  options: MeasureRunOptions = {},
): Promise<MeasuredRun> {
  // What `tailgate check` reads but no engine runs yet: refused before setup sends anything.
  const refused = notYetRun(written);
  if (refused.length) {
    throw new RangeError(
      `this version cannot run the plan:\n${refused.map((i) => problemText(i)).join("\n")}`,
    );
  }
  // The run's seed: the plan's own, else its start instant's (shared by its shards), else fresh.
  if (
    options.shard && written.load.seedPerRun && options.startAtEpochMs === undefined &&
    drawsFromSeed(written)
  ) {
    throw new RangeError(
      "the shards of one run draw from one seed: give each the same startAtEpochMs, or fix " +
        "load.seed",
    );
  }
  const plan = withRunSeed(written, {
    ...(options.startAtEpochMs === undefined ? {} : { startAtEpochMs: options.startAtEpochMs }),
    draw: () => crypto.getRandomValues(new Uint32Array(1))[0],
  });
  const environment = options.environment ?? await collectEnvironment();
  const runId = options.runId ?? runIdOrThrow();
  const steps = { ...(options.caCerts ? { caCerts: options.caCerts } : {}) };
  // Setup is not measured; a step that fails throws before any load is sent.
  const session = plan.setup || plan.teardown
    ? await runSetup(plan, { ...steps, ...(options.signal ? { signal: options.signal } : {}) })
    : undefined;
  // The teardown is stopped as setup is, by a stop that comes while it runs; one that stopped the
  // load does not stop it: cleanup is owed either way.
  const tearDown = () => {
    const signal = options.signal?.aborted ? undefined : options.signal;
    return runTeardown(plan, session!, { ...steps, ...(signal ? { signal } : {}) });
  };
  const watch = options.failFast
    ? failFastWatch(plan, { shardCount: options.shard?.count ?? 1 })
    : undefined;
  const stop = new AbortController();
  let certain: { failure: CertainFailure; atMs: number } | undefined;
  const onProgress = (p: Progress) => {
    options.onProgress?.(p);
    const failure = certain === undefined ? watch?.(p) : undefined;
    if (failure === undefined) return;
    certain = { failure, atMs: p.offsetMs };
    stop.abort();
  };
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const run = await runWorkers({
    plan: session?.plan ?? plan,
    signal,
    ...(options.caCerts ? { caCerts: options.caCerts } : {}),
    ...(options.shard ? { shard: options.shard } : {}),
    ...(options.startAtEpochMs === undefined ? {} : { startAtEpochMs: options.startAtEpochMs }),
    ...(options.onProgress || watch ? { onProgress } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    ...(options.service ? { service: { pgid: options.service.pgid } } : {}),
  }).catch(async (e) => {
    // Cleanup is owed even when the engine fails outright.
    if (session) await tearDown().catch(() => {});
    throw e;
  });
  // A run that ended on its own before the stop took hold ran to its end: nothing to mark.
  const stopped = certain !== undefined && !run.complete ? certain : undefined;
  // No stored body shows a secret: the plan's, or a value setup captured (a token).
  const secrets = [
    ...plan.secretValues ?? [],
    ...[...session?.values.values() ?? []].map((v) => v.text),
  ];
  const advice = options.rerunWith === undefined ? {} : { rerunWith: options.rerunWith };
  const stopReason = stopped ? "fail_fast" : undefined;
  const built = buildResult(plan, run, environment, stopReason, { secrets, advice });
  // A service under test that died: what was measured is kept, as a run that did not complete.
  const lost = options.service?.death?.();
  const result: RunResult = {
    ...built,
    run: {
      id: runId,
      ...built.run,
      ...(lost ? { complete: false } : {}),
      ...(stopped
        ? {
          stoppedBy: {
            slo: stopped.failure.slo,
            line: stopped.failure.line,
            reason: stopped.failure.reason,
            atMs: Math.round(stopped.atMs),
          },
        }
        : {}),
      ...(options.shard ? { shard: { ...options.shard } } : {}),
    },
    ...(session ? { steps: [...session.records] } : {}),
    ...(lost ? { warnings: [...built.warnings ?? [], lost] } : {}),
  };
  // After the load however it ended (stopped, failed part-way): cleanup is owed either way.
  const addTeardown = async (): Promise<TeardownDone> => {
    if (session === undefined) return { changed: false, stopped: false, records: [], warnings: [] };
    const done = await tearDown();
    return {
      changed: done.records.length + done.warnings.length > 0,
      stopped: done.stopped,
      records: done.records,
      warnings: done.warnings,
    };
  };
  let teardown: Promise<TeardownDone> | undefined;
  return { result, teardown: () => teardown ??= addTeardown() };
}

/** The run id from the environment; a `TAILGATE_RUN_ID` that is not one throws. */
function runIdOrThrow(): string {
  const id = runIdOf();
  if (!id.ok) throw new RangeError(problemText(id.problems[0]));
  return id.value;
}
