/**
 * `tailgate ab`: the paired A/B comparison. Base and head run the plan's stages (warmup included)
 * in k rounds on this machine, in a random order within each round, one at a time (a target given
 * as a command is started just before its run and stopped after it); every run's result is kept;
 * the rounds are compared pairwise (runner/gates/ab/ab_comparison.ts), and the SLOs are judged on
 * head's runs (runner/gates/ab/ab_verdict.ts).
 *
 * @module
 */
import { join } from "node:path";
import { judge } from "../api/mod.ts";
import { measureRun } from "../api/mod.ts";
import { StepFailure } from "../session/mod.ts";
import { compareRounds, type RoundPair } from "../gates/mod.ts";
import { mergeEncodedHistograms } from "../hdr/mod.ts";
import { abSloVerdicts, abVerdict } from "../gates/mod.ts";
import type { RegressionMetric } from "../gates/mod.ts";
import { AB_SCHEMA, AB_VERSION, type AbResult, type AbRound, type AbSide } from "../model/mod.ts";
import type { Environment, RunResult } from "../model/mod.ts";
import { retarget } from "../plan/mod.ts";
import type { ResolvedPlan } from "../plan/mod.ts";
import { writeFileAtomic } from "../model/mod.ts";
import { collectEnvironment } from "../result/mod.ts";
import { planRecord } from "../result/mod.ts";
import { type AbTargetSpec, startAbTarget } from "./ab_target.ts";
import { roundOrders } from "./round_order.ts";

/**
 * Rounds by default: a pull request's check in about two minutes. The shipped example
 * (plans/examples/pull_request.yaml: 1 s warmup and 10 s at 1k/s, 10,000 requests a run, enough
 * for p99) runs 5 rounds of base and head in about 2 minutes; each default floor rises to what its
 * rounds' spread supports, so identical builds' p50 and p99 are decided, and a p50 change beyond
 * its 2% minimum is found whenever the rounds are steadier than it. More rounds narrow what a tail
 * can show: 12 rounds decide a p99 change about half the size, at 2.4 times the time
 * (docs/decisions/ab_defaults.md).
 */
export const DEFAULT_ROUNDS = 5;

/** Options of {@linkcode runAb}. */
export interface AbOptions {
  /** The base target (the main branch's build). */
  base: AbTargetSpec;
  /** The head target (the pull request's build). */
  head: AbTargetSpec;
  /** Where each run's result and each started target's log are written. */
  outDir: string;
  /** Rounds (default {@linkcode DEFAULT_ROUNDS}). */
  rounds?: number;
  /** Seed of the rounds' order (default: a random one, recorded in the result). */
  seed?: number;
  /** Stops after the current run; what was measured is compared and marked incomplete. */
  signal?: AbortSignal;
  /** How long a started target may take to answer (ms; default 30 s). */
  readyTimeoutMs?: number;
  /** Called as each run starts and ends. */
  onRun?: (
    event: { round: number; side: AbSide; phase: "start" | "done"; status?: string },
  ) => void;
  /** The machine's fingerprint, when already collected. */
  environment?: Environment;
  /**
   * Stop a head run once one of its SLOs is certain to fail (measureRun's `failFast`), and end the
   * comparison there, a fail.
   */
  failFast?: boolean;
  /**
   * Called with each file of the comparison's own that could not be written (a run's result, the
   * runs folder), naming it and why; the comparison goes on from what is in memory.
   */
  onIoFailure?: (error: string) => void;
  /**
   * Called when stopping a started target found its address still answering (a process tailgate
   * did not start, or could not end, holds it), naming the round, the side and the holder: the
   * next run of that side may not measure what its command starts.
   */
  onStillAnswering?: (finding: string) => void;
}

/**
 * Runs the comparison and returns its document (also writing every run's result into `outDir`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePlanText, runAb, startTarget } from "../../mod.ts";
 *
 * // The same build twice: answers take 5 ms on both.
 * await using base = await startTarget({ mode: "fixed", delayMs: 5, port: 0 });
 * await using head = await startTarget({ mode: "fixed", delayMs: 5, port: 0 });
 * const { plan } = parsePlanText(`
 * name: ab-example
 * target: ${base.url}
 * requests: [{ path: / }]
 * load: { connections: 4, stages: [{ rate: 200/s, duration: 500ms }] }
 * regression: { p50: 20% }
 * `);
 * const outDir = await Deno.makeTempDir();
 * const ab = await runAb(plan!, {
 *   base: { url: base.url },
 *   head: { url: head.url },
 *   outDir,
 *   rounds: 3,
 * });
 * assert.equal(ab.rounds.length, 3);
 * assert.equal(ab.comparisons[0].metric, "p50");
 * await Deno.remove(outDir, { recursive: true });
 * ```
 */
export async function runAb(plan: ResolvedPlan, options: AbOptions): Promise<AbResult> {
  const rounds = options.rounds ?? DEFAULT_ROUNDS;
  const seed = options.seed ?? crypto.getRandomValues(new Uint32Array(1))[0];
  const environment = options.environment ?? await collectEnvironment();
  const startedAt = new Date().toISOString();
  const ioFailed = (e: unknown) => options.onIoFailure?.((e as Error).message);
  await Deno.mkdir(join(options.outDir, "runs"), { recursive: true }).catch((e) =>
    ioFailed(new Error(`cannot make ${join(options.outDir, "runs")}: ${(e as Error).message}`))
  );
  const done: AbRound[] = [];
  const pairs: RoundPair[] = [];
  const orders = roundOrders(rounds, seed);
  let stopped: { head: RunResult; stop: NonNullable<AbResult["stoppedBy"]> } | undefined;
  for (let i = 0; i < rounds && !options.signal?.aborted && !stopped; i++) {
    const round: AbRound = { index: i + 1, order: orders[i], runs: [] };
    const results: Partial<Record<AbSide, RunResult>> = {};
    for (const side of orders[i]) {
      if (options.signal?.aborted || stopped) break;
      options.onRun?.({ round: i + 1, side, phase: "start" });
      const spec = options[side];
      await using target = await startAbTarget(spec, {
        logPath: join(options.outDir, "runs", `round-${i + 1}-${side}-target.log`),
        ...(plan.load.http === undefined ? {} : { http: plan.load.http }),
        ...(options.readyTimeoutMs === undefined ? {} : { readyTimeoutMs: options.readyTimeoutMs }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const measured = await measureRun(retarget(plan, spec.url), {
        ...(options.signal ? { signal: options.signal } : {}),
        environment,
        ...(side === "head" && options.failFast ? { failFast: true } : {}),
        ...(target.pgid === undefined ? {} : { service: { pgid: target.pgid } }),
      }).catch((e) => {
        if (!(e instanceof StepFailure)) throw e;
        throw new StepFailure(`round ${i + 1}, ${side}: ${e.message}`, e.records, e.interrupted);
      });
      const { result } = await judge(measured);
      const found = await target.stop();
      if (found?.stillAnswering) {
        options.onStillAnswering?.(`round ${i + 1}, ${side}: ${found.stillAnswering}`);
      }
      const resultFile = join("runs", `round-${i + 1}-${side}.json`);
      await writeFileAtomic(join(options.outDir, resultFile), JSON.stringify(result) + "\n")
        .catch((e) =>
          ioFailed(new Error(`${resultFile} not written to ${options.outDir}: ${e.message}`))
        );
      results[side] = result;
      round.runs.push({
        side,
        resultFile,
        status: result.verdict!.status,
        toolLimited: result.health.toolLimited,
        complete: result.run.complete,
      });
      options.onRun?.({ round: i + 1, side, phase: "done", status: result.verdict!.status });
      // Head failed for certain (the generator keeping up): the comparison ends, a fail.
      const stop = result.run.stoppedBy;
      if (stop !== undefined && result.verdict!.status === "fail") {
        stopped = { head: result, stop: { round: i + 1, slo: stop.slo, reason: stop.reason } };
      }
    }
    done.push(round);
    if (results.base && results.head) pairs.push({ base: results.base, head: results.head });
  }
  const floors = plan.regression as Partial<Record<RegressionMetric, number>> | undefined;
  const comparisons = compareRounds(pairs, floors, 0.999, floors !== undefined);
  const heads = pairs.map((p) => p.head);
  if (stopped && !heads.includes(stopped.head)) heads.push(stopped.head);
  const slos = abSloVerdicts(heads, pairs.map((p) => p.base));
  const sound = pairs.filter((p) =>
    [p.base, p.head].every((r) => r.run.complete && !r.health.toolLimited)
  );
  const distributions = (pairs[0]?.head.stages ?? []).filter((s) => !s.warmup).map((stage) => {
    const merged = (side: AbSide) =>
      mergeEncodedHistograms(
        sound.flatMap((p) => p[side].stages.filter((s) => s.index === stage.index))
          .map((s) => s.response),
      );
    return {
      stageIndex: stage.index,
      stageName: stage.name,
      base: merged("base"),
      head: merged("head"),
    };
  });
  const complete = done.length === rounds && pairs.length === rounds;
  // Stopped (Ctrl-C, SIGTERM) before its rounds ran, not by fail-fast's certain failure.
  const interrupted = !complete && !stopped ? { round: Math.max(1, done.length) } : undefined;
  return {
    schema: AB_SCHEMA,
    version: AB_VERSION,
    startedAt,
    endedAt: new Date().toISOString(),
    complete,
    plan: planRecord(plan),
    environment,
    targets: {
      base: { url: options.base.url, ...(options.base.start ? { start: options.base.start } : {}) },
      head: { url: options.head.url, ...(options.head.start ? { start: options.head.start } : {}) },
    },
    settings: { rounds, seed },
    rounds: done,
    comparisons,
    distributions,
    slos,
    ...(stopped ? { stoppedBy: stopped.stop } : {}),
    verdict: abVerdict(comparisons, slos, stopped?.stop, interrupted),
  };
}
