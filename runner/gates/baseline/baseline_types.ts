/**
 * The baseline file: the recent history of one plan's sound runs, kept small (stage and label
 * histograms, no intervals) so it can be committed or cached in CI.
 *
 * @module
 */
import type { EncodedHistogram, Environment, RequestCounts } from "../../model/run_result.ts";

/**
 * The `schema` field of every baseline file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BASELINE_SCHEMA } from "./baseline_types.ts";
 * assert.equal(BASELINE_SCHEMA, "tailgate/baseline");
 * ```
 */
export const BASELINE_SCHEMA = "tailgate/baseline";

/**
 * The version of the baseline format this build writes; a newer file is refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BASELINE_VERSION } from "./baseline_types.ts";
 * assert.equal(BASELINE_VERSION, 1);
 * ```
 */
export const BASELINE_VERSION = 1;

/**
 * Where `tailgate run` looks for baselines when `--baseline` is not given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_BASELINE_DIR } from "./baseline_types.ts";
 * assert.equal(DEFAULT_BASELINE_DIR, ".tailgate/baselines");
 * ```
 */
export const DEFAULT_BASELINE_DIR = ".tailgate/baselines";

/**
 * How many runs a plan's history keeps by default (the newest).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_BASELINE_RUNS } from "./baseline_types.ts";
 * assert.equal(DEFAULT_BASELINE_RUNS, 10);
 * ```
 */
export const DEFAULT_BASELINE_RUNS = 10;

/**
 * One request label within a baseline stage.
 */
export interface BaselineLabel {
  label: string;
  counts: RequestCounts;
  /** completion − intended send time. */
  response: EncodedHistogram;
  /** completion − actual write. */
  service: EncodedHistogram;
}

/**
 * One stage of a baseline run, copied from the result's `stages[]`.
 */
export interface BaselineStage {
  index: number;
  name: string;
  warmup: boolean;
  /** Intended rate: constant stages have from = to. */
  fromPerSec: number;
  toPerSec: number;
  durationMs: number;
  counts: RequestCounts;
  response: EncodedHistogram;
  service: EncodedHistogram;
  labels: BaselineLabel[];
}

/**
 * One stored run: when, where, and the stage histograms.
 */
export interface BaselineRun {
  /** ISO 8601, the run's `startedAt`. */
  date: string;
  /** The run's fingerprint; numbers from a different one do not compare. */
  environment: Environment;
  stages: BaselineStage[];
}

/**
 * The baseline file of one plan: `<dir>/<slug>.json`.
 */
export interface Baseline {
  schema: typeof BASELINE_SCHEMA;
  version: number;
  /** The plan's `name`, as written in the plan. */
  plan: string;
  /** Oldest first. */
  runs: BaselineRun[];
}
