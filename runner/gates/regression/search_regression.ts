/**
 * The found rate against its history: has the server's sustainable throughput dropped? Pure.
 *
 * The lowest rate the history allows is the lower of two: the history's median less the floor
 * (10%: a smaller drop is not worth failing a pull request for), and, from three comparable past
 * searches on, the history's 99.9% one-sided prediction bound (prediction_bound.ts: robust, on the
 * log scale), so a drop must be both large and unusual. A search brackets the sustainable rate
 * between the highest rate that held and the lowest that failed, so the gate reports a
 * `regression` (fail) when even the failing rate is at or below that limit, `ok` (pass) when the
 * rate that held meets it, and `inconclusive` when the limit lies inside the bracket (the search
 * tries the limit itself to avoid that). Only past searches on the same machine fingerprint count.
 *
 * @module
 */
import type { Environment } from "../../model/mod.ts";
import type { SearchConclusionRecord, SearchGate } from "../../model/mod.ts";
import { formatRatePerSec } from "../../plan/mod.ts";
import { fingerprintMismatch, type SearchHistoryEntry } from "../../history/mod.ts";
import { MIN_HISTORY_RUNS, predictionBounds } from "../stats/mod.ts";
import { median } from "../../result/mod.ts";

/** A drop smaller than this share of the history's median is never a regression. */
export const SEARCH_REGRESSION_FLOOR = 0.10;

/** The history's limit: the lowest sustainable rate that is not a regression, and its parts. */
export interface SearchRegressionLimit {
  /** The lowest rate that is not a regression, per second. */
  limitPerSec: number;
  /** Median of the comparable past rates. */
  medianPerSec: number;
  /** The prediction bound, from three comparable searches on. */
  predictionPerSec?: number;
  /** Comparable past searches (same fingerprint, a rate found). */
  n: number;
}

/**
 * The limit from the history comparable with `environment`, or undefined with none.
 */
export function searchRegressionLimit(
  entries: readonly SearchHistoryEntry[],
  environment: Environment,
  confidence = 0.999,
): SearchRegressionLimit | undefined {
  const values = entries.filter((e) =>
    e.status === "found" && fingerprintMismatch(e.environment, environment).length === 0
  ).map((e) => e.ratePerSec);
  if (values.length === 0) return undefined;
  const medianPerSec = median(values);
  const floored = (1 - SEARCH_REGRESSION_FLOOR) * medianPerSec;
  const prediction = values.length >= MIN_HISTORY_RUNS
    ? predictionBounds(values, confidence)?.lower
    : undefined;
  return {
    limitPerSec: prediction === undefined ? floored : Math.min(floored, prediction),
    medianPerSec,
    ...(prediction === undefined ? {} : { predictionPerSec: prediction }),
    n: values.length,
  };
}

/**
 * The regression gate of a search that concluded `conclusion`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeSearchRegression } from "./search_regression.ts";
 * const limit = { limitPerSec: 18_000, medianPerSec: 20_000, n: 2 };
 * assert.equal(judgeSearchRegression({ status: "found", ratePerSec: 15_000, failPerSec: 16_000 }, limit).status, "fail");
 * ```
 */
export function judgeSearchRegression(
  conclusion: SearchConclusionRecord,
  limit: SearchRegressionLimit,
): SearchGate {
  const show = formatRatePerSec;
  const history = `history median ${show(limit.medianPerSec)} over ${limit.n} search${
    limit.n === 1 ? "" : "es"
  }, lowest allowed ${show(limit.limitPerSec)} (${SEARCH_REGRESSION_FLOOR * 100}% floor${
    limit.predictionPerSec === undefined
      ? ""
      : `; 99.9% prediction bound ${show(limit.predictionPerSec)}`
  })`;
  const base = {
    kind: "regression" as const,
    name: "sustainable rate vs baseline",
    bound: limit.limitPerSec,
  };
  const held = conclusion.ratePerSec;
  const failed = conclusion.failPerSec;
  if (conclusion.status !== "inconclusive" && failed !== undefined && failed <= limit.limitPerSec) {
    return {
      ...base,
      status: "fail",
      message: `regression: ${show(failed)} already failed, so the sustainable rate is below the ` +
        `${history}`,
    };
  }
  if (held !== undefined && held >= limit.limitPerSec) {
    return { ...base, status: "pass", message: `ok: ${show(held)} held against the ${history}` };
  }
  return {
    ...base,
    status: "inconclusive",
    message: conclusion.status === "inconclusive"
      ? `inconclusive: the search found no rate to compare with the ${history}`
      : `inconclusive: ${held === undefined ? "no rate" : show(held)} held and ` +
        `${failed === undefined ? "no rate" : show(failed)} failed, around the ${history}`,
  };
}
