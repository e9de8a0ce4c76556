/**
 * The baseline file: one plan's sound runs, kept small so it can be committed or cached in CI:
 * the newest 10 in full (stage and label histograms, which the regression gate judges against)
 * and the long history (up to 500 by default: summaries and one response histogram per stage,
 * with commits and fingerprints, which `tailgate history` reads). No intervals.
 *
 * @module
 */
import type { EncodedHistogram, Environment, RequestCounts } from "../model/mod.ts";

/**
 * The `schema` field of every baseline file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HISTORY_FILE_SCHEMA } from "./history_types.ts";
 * assert.equal(HISTORY_FILE_SCHEMA, "tailgate/baseline");
 * ```
 */
export const HISTORY_FILE_SCHEMA = "tailgate/baseline";

/**
 * The version of the baseline format this build writes; a newer file is refused. Version 2 added
 * the long history (`history`); a version-1 file is read and migrated (its runs become the
 * history's first entries) and written as version 2 at the next append.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HISTORY_FILE_VERSION } from "./history_types.ts";
 * assert.equal(HISTORY_FILE_VERSION, 2);
 * ```
 */
export const HISTORY_FILE_VERSION = 2;

/**
 * Where `tailgate run` looks for baselines when `--baseline` is not given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_HISTORY_DIR } from "./history_types.ts";
 * assert.equal(DEFAULT_HISTORY_DIR, ".tailgate/baselines");
 * ```
 */
export const DEFAULT_HISTORY_DIR = ".tailgate/baselines";

/**
 * How many runs the regression gate's window keeps (`runs`: the newest, in full).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_BASELINE_RUNS } from "./history_types.ts";
 * assert.equal(DEFAULT_BASELINE_RUNS, 10);
 * ```
 */
export const DEFAULT_BASELINE_RUNS = 10;

/**
 * One request label within a baseline stage.
 */
export interface StoredRunLabel {
  label: string;
  counts: RequestCounts;
  /** completion − intended send time. */
  response: EncodedHistogram;
  /** completion − actual write. */
  service: EncodedHistogram;
}

/** What every stored stage keeps of the result's: where it is, its rate and length, its counts. */
export interface StoredStage {
  index: number;
  name: string;
  warmup: boolean;
  /** Intended rate: constant stages have from = to. */
  fromPerSec: number;
  toPerSec: number;
  durationMs: number;
  counts: RequestCounts;
  /** completion − intended send time, with its percentiles. */
  response: EncodedHistogram;
}

/**
 * One stage of a baseline run, copied from the result's `stages[]`.
 */
export interface StoredRunStage extends StoredStage {
  service: EncodedHistogram;
  labels: StoredRunLabel[];
}

/**
 * One stored run: when, where, and the stage histograms.
 */
export interface StoredRun {
  /** ISO 8601, the run's `startedAt`. */
  date: string;
  /** The run's fingerprint; numbers from a different one do not compare. */
  environment: Environment;
  stages: StoredRunStage[];
}

/**
 * The baseline file of one plan: `<dir>/<slug>.json`.
 */
export interface HistoryFile {
  schema: typeof HISTORY_FILE_SCHEMA;
  version: number;
  /** The plan's `name`, as written in the plan. */
  plan: string;
  /** The runs the regression gate judges against: the newest, oldest first. */
  runs: StoredRun[];
  /** The long history `tailgate history` reads: up to `--history-runs`, oldest first. */
  history: HistoryEntry[];
}

/**
 * How many runs a plan's long history keeps by default (`--history-runs N`): the newest. The
 * regression gate judges only the newest {@linkcode DEFAULT_BASELINE_RUNS} of them (`runs`); the
 * long history (`history`) feeds `tailgate history`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_HISTORY_RUNS } from "./history_types.ts";
 * assert.equal(DEFAULT_HISTORY_RUNS, 500);
 * ```
 */
export const DEFAULT_HISTORY_RUNS = 500;

/** One request label of a stage in the long history: counts and percentiles, no histogram. */
export interface HistoryLabel {
  label: string;
  counts: RequestCounts;
  /** The label's response-time percentiles (µs) as its histogram gave them: "50", "99.9"... */
  responsePercentilesUs: Record<string, number>;
}

/** One stage of a run in the long history: counts, the response histogram, label summaries. */
export interface HistoryStage extends StoredStage {
  labels: HistoryLabel[];
}

/** One run of the long history: what it measured, where, and at which commit. */
export interface HistoryEntry {
  /** ISO 8601, the run's `startedAt`. */
  date: string;
  /** The commit measured: `--commit`, else `GITHUB_SHA`/`CI_COMMIT_SHA`, else git's HEAD. */
  commit?: string;
  /** The branch it ran on, when known. */
  branch?: string;
  /** The runner fingerprint: a digest of CPU model, cores, Deno and tailgate versions. */
  runner: string;
  /** The plan fingerprint: a digest of the requests and stages as run. */
  plan: string;
  /**
   * Set on a run migrated from a version-1 file, which kept no plan: `plan` then digests its
   * stages alone, so a different `plan` next to it says nothing about the requests.
   */
  migrated?: true;
  /**
   * Why the run is no baseline for the regression gate, when it is none: it failed an SLO
   * (`slo_failed`: a failing build must not become the reference), or ran on a contended machine
   * (`contended`: docs/gates.md, "Contention"). It is kept in the long history, not in `runs`.
   */
  notBaseline?: NotBaselineReason[];
  /**
   * The share of its measured requests the machine's contention could have delayed
   * (`health.contention.share`), when it was measured: what later runs' contention is weighed
   * against (a run is contended only beyond what this runner usually shows).
   */
  contentionShare?: number;
  environment: Environment;
  stages: HistoryStage[];
}

/** Why a stored run is kept in the long history but not in the regression gate's window. */
export type NotBaselineReason = "slo_failed" | "contended";
