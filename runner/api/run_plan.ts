/**
 * The run's lifecycle in one place, as `tailgate run` lives it: prepare (the out folder, the CA
 * certificates, the open-files limit, the service started, the target reached) → setup →
 * measure → the result written → load the history → judge → confirm reruns → file the run →
 * render the reports → teardown → the exit code. {@linkcode runPlan} is that, for the CLI and a
 * library caller alike.
 *
 * @module
 */
import { join } from "node:path";
import { dirname } from "node:path";
import { DEFAULT_CONFIRM } from "../gates/mod.ts";
import type { ConfirmTimes } from "../gates/mod.ts";
import { EXIT_CODES, type RunResult, withIoFailures, writeFileAtomic } from "../model/mod.ts";
import { drawsFromSeed, formatDurationMs, formatRatePerSec, printable } from "../plan/mod.ts";
import type { ExportTarget, ResolvedPlan } from "../plan/mod.ts";
import { collectEnvironment, runIdOf } from "../result/mod.ts";
import type { ShardSpec } from "../schedule/mod.ts";
import { StepFailure } from "../session/mod.ts";
import { type FinishOptions, finishResult } from "./finish_result.ts";
import { type MeasuredRun, measurePlan, measureRun, type Progress } from "./measure_plan.ts";
import { failed, type Outcome } from "./outcome.ts";
import { exportRun } from "../../reporters/mod.ts";
import { type PreparedRun, withPreparedRun } from "./prepare_run.ts";
import type { StartFlags } from "./service_to_start.ts";

/** Options of {@linkcode runPlan}: where its files go, how it is judged, how it runs. */
export interface RunPlanOptions extends Omit<FinishOptions, "judge" | "confirm" | "teardown"> {
  /** PEM files to trust for https targets (`--ca-cert`). */
  caCertFiles?: readonly string[];
  /** Run only this share of the plan; the gates are judged by `tailgate merge`. */
  shard?: ShardSpec;
  /** Epoch ms at which the schedule's time zero falls (aligns shards on several machines). */
  startAtEpochMs?: number;
  /**
   * Rerun the plan before believing a red a rerun could clear (`--confirm auto|N`; default
   * `auto`, none for a shard: confirm_gates.ts).
   */
  confirmTimes?: ConfirmTimes;
  /** What the command line says of the service under test; else the plan's `service`. */
  start?: StartFlags;
  /** Stop once an SLO's failure is certain; default the plan's `fail_fast`. */
  failFast?: boolean;
  /** Every request carries a W3C `traceparent` (`--trace`), as the plan's `trace: true` does. */
  trace?: boolean;
  /** The command that runs the plan with settings, when the caller takes none (`tailgate demo`). */
  rerunWith?: string;
  /** The commit measured (default the CI's variables, else git's HEAD in the plan's folder). */
  commit?: string;
  /** The branch it ran on (default as the commit). */
  branch?: string;
  /**
   * Receivers of the run's metrics beside the plan's `export` (`--export KIND=URL`): sent once
   * the run is judged; one that does not take them is a warning, never a changed verdict.
   */
  exporters?: readonly ExportTarget[];
  /** Progress lines: the service's wait, the run's second by second, the reruns. */
  onProgress?: (line: string) => void;
}

/** What {@linkcode runPlan} produced; `output` is the terminal summary and the files written. */
export interface RunOutcome extends Outcome {
  /** The judged result document as written (none when the run failed before measuring). */
  result?: RunResult;
  /** Where result.json is. */
  resultPath?: string;
}

/**
 * Runs `plan` as `tailgate run` does and returns the outcome: the judged result written with the
 * reports in `outDir`, the history read and (with `updateBaseline`) filed, the exit code the
 * verdict earns, and the summary. Failures before the run are outcomes too (exit 2, 4, 3).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePlanText, runPlan, startTarget } from "../../mod.ts";
 *
 * await using target = await startTarget({ mode: "hello", port: 0 });
 * const { plan } = parsePlanText(`
 * name: lifecycle
 * target: ${target.url}
 * requests: [{ name: GET /, path: / }]
 * load: { connections: 4, stages: [{ name: steady, rate: 200/s, duration: 1s }] }
 * slo: [p90 < 250ms]
 * `);
 * const outDir = await Deno.makeTempDir();
 * const outcome = await runPlan(plan!, { outDir: `${outDir}/out`, reports: ["md"] });
 * assert.equal(outcome.result?.stages[0].counts.completed, 200);
 * assert.equal(outcome.result?.verdicts.length, 1);
 * assert.ok((await Deno.readTextFile(`${outDir}/out/summary.md`)).includes("lifecycle"));
 * await Deno.remove(outDir, { recursive: true });
 * ```
 */
export async function runPlan(
  plan: ResolvedPlan,
  options: RunPlanOptions,
): Promise<RunOutcome> {
  // `--trace` turns trace context on; a plan's own `trace` (its `tracestate`) stays as it is.
  if (options.trace && plan.trace === undefined) plan = { ...plan, trace: {} };
  if (
    options.shard && options.startAtEpochMs === undefined && plan.load.seedPerRun &&
    drawsFromSeed(plan)
  ) {
    return failed(
      `--shard ${options.shard.index}/${options.shard.count}: the shards of one run must draw ` +
        "from one seed, and this plan fixes none (load.seed); give every shard the same " +
        "--start-at TIME (the seed is drawn from it) or the same --seed N",
      EXIT_CODES.usage,
    );
  }
  const runId = runIdOf();
  if (!runId.ok) return failed(runId.problems[0]);
  return await withPreparedRun<RunOutcome>(plan, {
    outDir: options.outDir,
    ...(options.baselineDir === undefined ? {} : { historyDir: options.baselineDir }),
    ...(options.caCertFiles ? { caCertFiles: options.caCertFiles } : {}),
    ...(options.start ? { start: options.start } : {}),
    checkDescriptors: true,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  }, (prepared) => measureAndFinish(plan, options, prepared, runId.value));
}

/** The lifecycle once prepared: measure, write, judge (with reruns), file, render, tear down. */
async function measureAndFinish(
  plan: ResolvedPlan,
  options: RunPlanOptions,
  { caCerts, service, signal }: PreparedRun,
  runId: string,
): Promise<RunOutcome> {
  const say = options.onProgress ?? (() => {});
  if (options.startAtEpochMs !== undefined) {
    const waitMs = options.startAtEpochMs - Date.now();
    if (waitMs < 0) {
      return failed(
        `--start-at ${new Date(options.startAtEpochMs).toISOString()} passed ` +
          `${(-waitMs / 1000).toFixed(1)} s ago; give every shard a time far enough ahead for ` +
          "all of them to start (e.g. now + 2 minutes)",
      );
    }
    say(`waiting ${(waitMs / 1000).toFixed(1)} s for the common start time`);
  }
  // The commit measured: --commit, else the CI's variables, else git in the plan's folder.
  const environment = await collectEnvironment({
    gitDir: dirname(plan.file),
    ...(options.commit === undefined ? {} : { commit: options.commit }),
    ...(options.branch === undefined ? {} : { branch: options.branch }),
  });
  const progress = (p: Progress) => say(progressLine(p));
  // When the stop came, to tell a stop before the start instant (nothing sent) from a stopped run.
  let stoppedAtEpochMs = signal?.aborted ? Date.now() : undefined;
  const onStop = () => stoppedAtEpochMs ??= Date.now();
  signal?.addEventListener("abort", onStop, { once: true });
  const rerunWith = options.rerunWith === undefined ? {} : { rerunWith: options.rerunWith };
  let measured: MeasuredRun;
  try {
    measured = await measurePlan(plan, {
      ...(signal ? { signal } : {}),
      caCerts,
      environment,
      runId,
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.startAtEpochMs === undefined ? {} : { startAtEpochMs: options.startAtEpochMs }),
      onProgress: progress,
      onNotice: say,
      failFast: options.failFast ?? plan.failFast ?? false,
      ...(service ? { service: { pgid: service.pgid, death: service.death } } : {}),
      ...rerunWith,
    });
  } catch (e) {
    if (!(e instanceof StepFailure)) throw e;
    return stepFailed(e);
  } finally {
    signal?.removeEventListener("abort", onStop);
  }
  const { result } = measured;
  if (
    options.startAtEpochMs !== undefined && stoppedAtEpochMs !== undefined &&
    stoppedAtEpochMs < options.startAtEpochMs && result.totals.counts.scheduled === 0
  ) {
    await measured.teardown();
    return failed(
      `stopped before the start instant (--start-at ${
        new Date(options.startAtEpochMs).toISOString()
      }); nothing was sent, so no result was written`,
      EXIT_CODES.invalidRun,
    );
  }
  // A service that died is marked in the result by measurePlan: here it is the exit code's.
  const lost = service?.death();
  const ioFailures: string[] = [];
  let reruns = 0;
  const confirmTimes = options.confirmTimes ?? (options.shard ? 0 : DEFAULT_CONFIRM);
  const rerun = async () => {
    reruns++;
    say(
      `--confirm: rerun ${reruns}${
        confirmTimes === "auto" ? "" : ` of up to ${confirmTimes}`
      }, before believing what the first run showed`,
    );
    // Each run logs in and out: the first run's teardown before a rerun's setup.
    await measured.teardown();
    const again = await measureRun(plan, {
      ...(signal ? { signal } : {}),
      caCerts,
      environment,
      runId,
      onProgress: progress,
      ...(service ? { service: { pgid: service.pgid } } : {}),
      ...rerunWith,
    });
    // Every rerun's measurements are kept beside the result.
    const path = join(options.outDir, `confirm-${reruns}.json`);
    await writeFileAtomic(path, JSON.stringify(again, null, 1) + "\n").catch((e) =>
      ioFailures.push(`rerun ${reruns} not written to ${path}: ${(e as Error).message}`)
    );
    return again;
  };
  const resultPath = join(options.outDir, "result.json");
  // Write what was measured before anything else can fail, then again with the verdicts (that
  // second write names the file if it cannot be written).
  await writeFileAtomic(resultPath, JSON.stringify(result, null, 1) + "\n").catch(() => {});
  const finished = await finishResult(result, {
    ...options,
    judge: options.shard === undefined,
    ...(confirmTimes !== 0 ? { confirm: { times: confirmTimes, rerun } } : {}),
    ...(signal ? { signal } : {}),
    teardown: measured.teardown,
  }).catch(async (e) => {
    // Cleanup is owed whatever failed (sent once: a rerun may have sent it).
    await measured.teardown();
    // A rerun's setup failed: the first run's measurements are already on disk.
    if (!(e instanceof StepFailure)) throw e;
    return e;
  });
  if (finished instanceof StepFailure) {
    const outcome = stepFailed(finished);
    outcome.errors = [
      `--confirm rerun ${reruns}: ${outcome.errors[0]}; the first run is in ${resultPath}`,
    ];
    return outcome;
  }
  ioFailures.push(...finished.ioFailures);
  // The document written: judged, with its teardown.
  const written = finished.result;
  const notes = [...finished.notes];
  const errors: string[] = [];
  if (options.shard) {
    notes.push(
      `shard ${options.shard.index}/${options.shard.count}: gates are judged once, by ` +
        "`tailgate merge` over every shard's result.json",
    );
  }
  if (written.run.stoppedBy) {
    notes.push(
      `stopped by fail-fast: ${written.run.stoppedBy.reason}; what ran is in ${resultPath}`,
    );
  }
  if (written.run.stopReason === "error") {
    const why = written.warnings?.find((w) => w.startsWith("the run failed part-way"));
    errors.push(`${why ?? "the run failed part-way"}; what was measured is in ${resultPath}`);
  }
  if (lost) errors.push(`${lost}; what was measured is in ${resultPath}`);
  errors.push(...ioFailures);
  // Once judged and written: what a receiver does not take is a warning, never the verdict's.
  const exporters = [...plan.export ?? [], ...options.exporters ?? []];
  if (exporters.length) {
    try {
      const exported = await exportRun(written, exporters, {
        secrets: plan.secretValues ?? [],
        ...(signal ? { signal } : {}),
      });
      exported.sent.forEach((line) => say(printable(line)));
      notes.push(...exported.warnings.map((w) => printable(w)));
    } catch (e) {
      // A wire format that cannot load (offline, no npm cache), a result it cannot encode: the
      // metrics are not sent, and that is all it is.
      notes.push(
        `export: not sent (${printable((e as Error).message).slice(0, 300)}); the verdict stands`,
      );
    }
  }
  return {
    exitCode: lost ? EXIT_CODES.unreachable : withIoFailures(finished.exitCode, ioFailures),
    errors,
    notes,
    output: finished.summary,
    result: written,
    resultPath,
  };
}

/**
 * A setup step failed, or was stopped: nothing was sent, so no result is written (exit 4; 3 when
 * stopped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stepFailed } from "./run_plan.ts";
 * import { StepFailure } from "../session/mod.ts";
 * const outcome = stepFailed(new StepFailure("setup step login: 500", []));
 * assert.equal(outcome.exitCode, 4);
 * assert.deepEqual(outcome.errors, ["setup step login: 500; no load was sent"]);
 * ```
 */
export function stepFailed(e: StepFailure): Outcome {
  return e.interrupted
    ? failed(`stopped during setup; no load was sent: ${e.message}`, EXIT_CODES.invalidRun)
    : failed(`${e.message}; no load was sent`, EXIT_CODES.unreachable);
}

/** The live progress line: the stage, the time left, the rates, the p99, errors and queue. */
function progressLine(p: Progress): string {
  return `[${printable(p.stageName)} ${seconds(p.offsetMs)}/${seconds(p.durationMs)}, ` +
    `${seconds(Math.max(0, p.durationMs - p.offsetMs))} left] ` +
    `intended ${formatRatePerSec(p.intendedPerSec)} sent ${p.sentPerSec}/s ` +
    `p99 ${p.p99Us === undefined ? "-" : formatDurationMs(p.p99Us / 1000)} ` +
    `errors ${p.errors} queued ${p.queued}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(0)}s`;
}
