/**
 * A/B documents for report tests, built the way `runAb` builds them (compareRounds,
 * abSloVerdicts, abVerdict) from fixture runs whose rounds differ by machine noise.
 *
 * @module
 */
import { compareRounds } from "../../runner/gates/ab/ab_comparison.ts";
import { abVerdict } from "../../runner/gates/ab/ab_verdict.ts";
import { abSloVerdicts } from "../../runner/gates/ab/ab_slos.ts";
import { evaluateSlos } from "../../runner/gates/slo/evaluate_slos.ts";
import { mergeEncodedHistograms } from "../../runner/hdr/mod.ts";
import { AB_SCHEMA, AB_VERSION, type AbResult } from "../../runner/model/ab_result.ts";
import type { RunResult } from "../../runner/model/run_result.ts";
import { gateResult, scaledUs } from "./gate_fixtures.ts";

function run(scale: number, name: string): RunResult {
  const r = gateResult([{
    name,
    ratePerSec: 1000,
    durationMs: 20_000,
    labels: [{ label: "GET /", response: scaledUs(20_000, scale) }],
  }], { slos: ["p99 < 1.8ms"] });
  r.plan.name = name;
  r.verdicts = evaluateSlos(r);
  return r;
}

/**
 * A comparison of 5 rounds in which head is `factor` × base (1.1: 10% slower), and in round i
 * also `headNoise[i]` × base (noise of head's own, which the pairing does not cancel).
 *
 * @example
 * ```ts
 * import { abResult } from "./ab_fixtures.ts";
 * abResult(1.1).verdict.status; // "fail"
 * ```
 */
export function abResult(
  factor: number,
  planName = "orders <api>",
  headNoise: readonly number[] = [],
): AbResult {
  const noise = [1, 1.15, 0.9, 1.1, 0.95];
  const pairs = noise.map((n, i) => ({
    base: run(n, "steady"),
    head: run(n * factor * (headNoise[i] ?? 1), "steady"),
  }));
  const comparisons = compareRounds(pairs, { p50: 0.05, p99: 0.05 }, 0.999, true);
  const slos = abSloVerdicts(pairs.map((p) => p.head), pairs.map((p) => p.base));
  const first = pairs[0].head;
  return {
    schema: AB_SCHEMA,
    version: AB_VERSION,
    startedAt: "2026-11-24T10:00:00.000Z",
    endedAt: "2026-11-24T10:02:00.000Z",
    complete: true,
    plan: { ...first.plan, name: planName },
    environment: first.environment,
    targets: {
      base: { url: "http://127.0.0.1:9001", start: "./serve --port 9001" },
      head: { url: "http://127.0.0.1:9002" },
    },
    settings: { rounds: 5, seed: 7 },
    rounds: noise.map((_, i) => ({
      index: i + 1,
      order: i % 2 ? ["head", "base"] : ["base", "head"],
      runs: (["base", "head"] as const).map((side) => ({
        side,
        resultFile: `runs/round-${i + 1}-${side}.json`,
        status: "pass" as const,
        toolLimited: false,
        complete: true,
      })),
    })),
    comparisons,
    distributions: [{
      stageIndex: 0,
      stageName: "steady",
      base: mergeEncodedHistograms(pairs.map((p) => p.base.stages[0].response)),
      head: mergeEncodedHistograms(pairs.map((p) => p.head.stages[0].response)),
    }],
    slos,
    verdict: abVerdict(comparisons, slos),
  };
}
