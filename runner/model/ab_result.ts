/**
 * The paired A/B comparison's document (`ab.json`, written by `tailgate ab`): the rounds run, in
 * the order they ran, each run's figures, the paired decision per gated (stage, label, metric), the
 * SLOs judged on head's runs and the one verdict. A versioned contract like run_result.ts; each
 * run's full result document is kept beside it (`runs/round-<n>-<side>.json`).
 *
 * @module
 */
import type { EncodedHistogram, Environment, PlanRecord, VerdictStatus } from "./run_result.ts";

/** The document's `schema` value. */
export const AB_SCHEMA = "tailgate-ab";
/** The document's format version. */
export const AB_VERSION = 1;

/** Which target a run measured. */
export type AbSide = "base" | "head";

/** One run of a round: where its full result is and the figures the comparison read. */
export interface AbRun {
  side: AbSide;
  /** The result document, relative to the A/B folder. */
  resultFile: string;
  /** The run's own verdict status (its SLOs; no regression gate). */
  status: VerdictStatus;
  /** The generator could not hold its schedule: the round is left out of the comparison. */
  toolLimited: boolean;
  /** The run completed its schedule. */
  complete: boolean;
}

/** One round: base and head, in the order they ran. */
export interface AbRound {
  /** 1-based. */
  index: number;
  /** The order the two runs ran in (randomised per round). */
  order: [AbSide, AbSide];
  runs: AbRun[];
}

/** The decision on one gated (stage, label, metric). */
export interface AbComparison {
  /** `<metric> head vs base: <stage>[ [label]]`. */
  name: string;
  stageIndex: number;
  stageName: string;
  label?: string;
  /** A regression metric name: p50, p90, p99, p99.9, max, mean, error_rate, throughput. */
  metric: string;
  /** Unit of `base` and `head`: `us`, `fraction` or `per_sec`. */
  unit: "us" | "fraction" | "per_sec";
  /** Base's figure in each compared round. */
  base: number[];
  /** Head's figure in each compared round. */
  head: number[];
  /** The estimated change in the worse direction (+0.1: 10% worse; points for error_rate). */
  change: number;
  /** Its two-sided 95% interval. */
  ci95: [number, number];
  /** The floor: the change that counts. */
  floor: number;
  /** One-sided p-value of "head is no worse". */
  p: number;
  /** The check's confidence under Holm's step-down. */
  confidence: number;
  /** `fail`: a regression; `pass`: any change is within the floor; `inconclusive`: undecided. */
  status: Exclude<VerdictStatus, "invalid">;
  /** The decision in words. */
  message: string;
}

/** An SLO judged on head's runs. */
export interface AbSloVerdict {
  /** The SLO as written. */
  name: string;
  line?: number;
  /** `fail` when a head run failed it beyond doubt, `pass` when every head run passed it. */
  status: VerdictStatus;
  /** Each head run's status, in round order. */
  perRound: VerdictStatus[];
  message: string;
}

/** The whole document. */
export interface AbResult {
  schema: typeof AB_SCHEMA;
  version: number;
  startedAt: string;
  endedAt: string;
  /** False when stopped before every round ran. */
  complete: boolean;
  /** The plan as read (secrets redacted). */
  plan: PlanRecord;
  environment: Environment;
  /** The two targets, as given. */
  targets: Record<AbSide, { url: string; start?: string }>;
  /** Rounds asked for and the seed of their order (the same seed gives the same order). */
  settings: { rounds: number; seed: number };
  rounds: AbRound[];
  comparisons: AbComparison[];
  /**
   * Each measured stage's response times over the compared rounds, merged exactly per side: the
   * two distributions the report overlays.
   */
  distributions: Array<{
    stageIndex: number;
    stageName: string;
    base: EncodedHistogram;
    head: EncodedHistogram;
  }>;
  slos: AbSloVerdict[];
  /** The one verdict: fail over inconclusive over pass, across comparisons and SLOs. */
  verdict: { status: VerdictStatus; message: string };
}
