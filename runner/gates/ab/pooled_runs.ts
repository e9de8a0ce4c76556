/**
 * One side's runs of an A/B comparison pooled into one result, for its SLOs to be judged once over
 * every round (not round by round, where one noisy round of twelve decides): each stage's
 * histograms merged exactly and its counts and length added, every run's intervals kept one after
 * the other with a gap between runs (so a window never spans two runs), the tool's health merged
 * (its lateness and floor histograms, its CPU over the runs' time), and the machine's contention
 * read again over the pooled intervals. Pure.
 *
 * @module
 */
import { mergeEncodedHistograms } from "../../hdr/mod.ts";
import { mergeLatency } from "../../recorder/mod.ts";
import type { IntervalResult, RunContention, RunResult, StageResult } from "../../model/mod.ts";
import { summarizeContention } from "../../result/mod.ts";

/** The gap left between two runs' intervals in the pool (ms): more than any window's step. */
const RUN_GAP_MS = 10_000;

/**
 * The pool of `runs` (at least one, all of one plan): what the SLO gates read of a result. A
 * stage's time-domain analysis is per run and is not pooled: trends and stalls are judged run by
 * run (ab_slos.ts).
 */
export function poolRuns(runs: readonly RunResult[]): RunResult {
  const first = runs[0];
  if (first === undefined) throw new RangeError("poolRuns needs at least one run");
  const stages = first.stages.map((stage) => poolStage(stage, runs));
  const intervals: IntervalResult[] = [];
  let offsetMs = 0;
  for (const r of runs) {
    for (const iv of r.intervals) intervals.push({ ...iv, startMs: iv.startMs + offsetMs });
    const last = r.intervals.at(-1);
    offsetMs += (last ? last.startMs + last.durationMs : r.run.durationMs) + RUN_GAP_MS;
  }
  const h = runs.map((r) => r.health);
  const durationMs = runs.reduce((sum, r) => sum + r.run.durationMs, 0);
  const cpu = {
    userMs: h.reduce((sum, x) => sum + x.cpu.userMs, 0),
    systemMs: h.reduce((sum, x) => sum + x.cpu.systemMs, 0),
  };
  const completed = runs.reduce((sum, r) => sum + r.totals.counts.completed, 0);
  const source = weakestSource(h.map((x) => x.contention?.source));
  return {
    ...first,
    run: {
      ...first.run,
      durationMs,
      complete: runs.every((r) => r.run.complete),
      // A run fail-fast stopped on an SLO certain to fail: that failure holds for the pool.
      ...stopOf(runs),
    },
    totals: mergeLatency(runs.map((r) => r.totals)),
    stages,
    intervals,
    health: {
      ...first.health,
      sendLag: mergeEncodedHistograms(h.map((x) => x.sendLag)),
      dispatchLag: mergeEncodedHistograms(h.map((x) => x.dispatchLag)),
      queueWait: mergeEncodedHistograms(h.map((x) => x.queueWait)),
      ...(h.some((x) => x.stepLag)
        ? { stepLag: mergeEncodedHistograms(h.flatMap((x) => x.stepLag ?? [])) }
        : {}),
      connectTime: mergeEncodedHistograms(h.flatMap((x) => x.connectTime ?? [])),
      engineStall: mergeEncodedHistograms(h.map((x) => x.engineStall)),
      platformHiccup: mergeEncodedHistograms(h.map((x) => x.platformHiccup)),
      cpu: { ...cpu, perRequestUs: completed ? (cpu.userMs + cpu.systemMs) * 1000 / completed : 0 },
      intendedPerSec: weighted(runs, (r) => r.health.intendedPerSec),
      achievedPerSec: weighted(runs, (r) => r.health.achievedPerSec),
      toolLimited: h.some((x) => x.toolLimited),
      reasons: [...new Set(h.flatMap((x) => x.reasons))],
      ...(source === undefined ? {} : {
        contention: summarizeContention(
          intervals,
          stages,
          source,
          first.health.contention?.service,
        ),
      }),
    },
    verdicts: [],
  };
}

/** The first fail-fast stop among the runs, as the pooled run's. */
function stopOf(runs: readonly RunResult[]): Partial<RunResult["run"]> {
  const stopped = runs.find((r) => r.run.stoppedBy !== undefined);
  return stopped ? { stopReason: stopped.run.stopReason, stoppedBy: stopped.run.stoppedBy } : {};
}

/** A stage over every run: histograms merged, counts and lengths added, stalls one after another. */
function poolStage(stage: StageResult, runs: readonly RunResult[]): StageResult {
  const parts = runs.flatMap((r) => r.stages.filter((s) => s.index === stage.index));
  const { timeDomain: _perRun, ...rest } = stage;
  return {
    ...rest,
    ...mergeLatency(parts),
    durationMs: parts.reduce((sum, s) => sum + s.durationMs, 0),
    labels: stage.labels.map((l) => ({
      label: l.label,
      ...mergeLatency(parts.flatMap((s) => s.labels.filter((x) => x.label === l.label))),
    })),
  };
}

/** The least precise of the runs' contention sources: a pool is only as well measured as its worst run. */
function weakestSource(
  sources: readonly (RunContention["source"] | undefined)[],
): RunContention["source"] | undefined {
  if (sources.some((s) => s === undefined)) return undefined;
  if (sources.includes("none")) return "none";
  return sources.includes("pressure") ? "pressure" : "service";
}

function weighted(runs: readonly RunResult[], f: (r: RunResult) => number): number {
  const total = runs.reduce((sum, r) => sum + r.run.durationMs, 0);
  return total > 0 ? runs.reduce((sum, r) => sum + f(r) * r.run.durationMs, 0) / total : 0;
}
