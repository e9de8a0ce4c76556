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
  /** The target it measured. */
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
  /** Its runs, in the order they ran. */
  runs: AbRun[];
}

/** The decision on one gated (stage, label, metric). */
export interface AbComparison {
  /** `<metric> head vs base: <stage>[ [label]]`. */
  name: string;
  /** The stage's index in the plan. */
  stageIndex: number;
  /** The stage's name. */
  stageName: string;
  /** The request label, when the check is one label's. */
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
  /** The floor: the change that counts (the largest of the limits below). */
  floor: number;
  /**
   * What set the floor when the plan did not: `minimum` (the metric's documented minimum),
   * `spread` (what the rounds' spread supports), `measured` (a tail's measured floor over base's
   * median). Absent: the plan's floor.
   */
  floorSource?: "minimum" | "spread" | "measured";
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
  /** Its line in the plan file. */
  line?: number;
  /** True for the implicit error gate (`error_rate <= 1% (implicit)`), which the plan did not write. */
  implicit?: boolean;
  /**
   * Judged on head's runs pooled (runner/gates/ab/ab_slos.ts): `pass` when the pool passes it,
   * `fail` when it fails it and base did not go beyond it (or head did in more rounds than
   * chance allows), `inconclusive` otherwise (with `causes`; `base` when base fails it too).
   */
  status: VerdictStatus;
  /** Why it is undecided, as a run's verdicts say it; `base`: base fails it too. */
  causes?: Array<"sampling" | "generator" | "schedule" | "contention" | "history" | "base">;
  /** Each head run's own status, in round order. */
  perRound: VerdictStatus[];
  /** The SLO on base's runs pooled (absent when no base run was judged). */
  base?: VerdictStatus;
  /** Each base run's own status, in round order. */
  basePerRound?: VerdictStatus[];
  /** The decision and the tallies, in words. */
  message: string;
}

/** The whole document. */
export interface AbResult {
  /** Always {@linkcode AB_SCHEMA}. */
  schema: typeof AB_SCHEMA;
  /** The format version ({@linkcode AB_VERSION}). */
  version: number;
  /** When the first run started (ISO 8601). */
  startedAt: string;
  /** When the last run ended (ISO 8601). */
  endedAt: string;
  /** False when stopped before every round ran. */
  complete: boolean;
  /** The plan as read (secrets redacted). */
  plan: PlanRecord;
  /** The machine both ran on. */
  environment: Environment;
  /** The two targets, as given. */
  targets: Record<AbSide, { url: string; start?: string }>;
  /** Rounds asked for and the seed of their order (the same seed gives the same order). */
  settings: { rounds: number; seed: number };
  /** The rounds that ran, in order. */
  rounds: AbRound[];
  /** One decision per gated (stage, label, metric). */
  comparisons: AbComparison[];
  /**
   * Each measured stage's response times over the compared rounds, merged exactly per side: the
   * two distributions the report overlays.
   */
  distributions: Array<{
    /** The stage's index in the plan. */
    stageIndex: number;
    /** The stage's name. */
    stageName: string;
    /** Base's response times, merged over the compared rounds. */
    base: EncodedHistogram;
    /** Head's response times, merged over the compared rounds. */
    head: EncodedHistogram;
  }>;
  /** The plan's SLOs, judged on head's runs. */
  slos: AbSloVerdict[];
  /**
   * Set when fail-fast (`ab --fail-fast`) stopped a head run on an SLO certain to fail, ending the
   * comparison there: the round, the SLO as written and why.
   */
  stoppedBy?: { round: number; slo: string; reason: string };
  /**
   * The one verdict: fail over inconclusive over pass, across comparisons and SLOs;
   * `regressionOnly` as a run's (run_result.ts): only comparisons are undecided, no SLO.
   */
  verdict: { status: VerdictStatus; message: string; regressionOnly?: true; runnerOnly?: true };
}
