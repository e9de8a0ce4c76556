/**
 * Search documents for report and history tests: a search that doubled, bisected and soaked, its
 * fields replaceable.
 *
 * @module
 */
import type { SearchResult, SearchStep } from "../../runner/model/search_result.ts";
import { SEARCH_SCHEMA, SEARCH_VERSION } from "../../runner/model/search_result.ts";
import { sampleResult } from "./result_fixtures.ts";

/**
 * One step: 10 s at `ratePerSec`, p99 25 ms when it failed and 4 ms otherwise.
 *
 * @example
 * ```ts
 * import { searchStep } from "./search_fixtures.ts";
 * searchStep(2_000, "fail").failedSlos; // ["p99 < 10ms"]
 * ```
 */
export function searchStep(
  ratePerSec: number,
  outcome: SearchStep["outcome"],
  soak = false,
): SearchStep {
  return {
    ratePerSec,
    durationMs: 10_000,
    soak,
    outcome,
    summary: "",
    failedSlos: outcome === "fail" ? ["p99 < 10ms"] : [],
    completed: ratePerSec * 10,
    answeredPerSec: Math.min(ratePerSec, 1_500),
    responseUs: { p50: 1_000, p99: outcome === "fail" ? 25_000 : 4_000, p999: 6_000, max: 9_000 },
  };
}

/**
 * A search that found 1.5k/s (2k/s failed) and passed its `sustainable_rate >= 1k/s` gate.
 *
 * @example
 * ```ts
 * import { searchResult } from "./search_fixtures.ts";
 * searchResult({ complete: false }).verdict.status; // "pass" (fields are replaced as given)
 * ```
 */
export function searchResult(over: Partial<SearchResult> = {}): SearchResult {
  const run = sampleResult();
  return {
    schema: SEARCH_SCHEMA,
    version: SEARCH_VERSION,
    startedAt: "2026-11-24T10:00:00.000Z",
    endedAt: "2026-11-24T10:05:00.000Z",
    complete: true,
    plan: {
      ...run.plan,
      name: "orders | *api*",
      slos: [{ text: "p99 < 10ms", line: 8 }, { text: "sustainable_rate >= 1k/s", line: 9 }],
    },
    environment: run.environment,
    settings: {
      fromPerSec: 500,
      maxPerSec: 10_000,
      stepMs: 10_000,
      warmupMs: 2_000,
      cooldownMs: 2_000,
      precision: 0.05,
      soakMs: 30_000,
    },
    steps: [
      searchStep(500, "pass"),
      searchStep(1_000, "pass"),
      searchStep(2_000, "fail"),
      searchStep(1_500, "pass"),
      searchStep(1_500, "pass", true),
    ],
    conclusion: { status: "found", ratePerSec: 1_500, failPerSec: 2_000, bindingSlo: "p99 < 10ms" },
    verdict: {
      status: "pass",
      message: "1 gate: 1 pass",
      gates: [{
        kind: "slo",
        name: "sustainable_rate >= 1k/s",
        line: 9,
        status: "pass",
        bound: 1_000,
        message: "passed: 1.5k/s held, 2k/s failed, so the sustainable rate is >= 1k/s",
      }],
    },
    ...over,
  };
}
