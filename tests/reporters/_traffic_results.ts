/**
 * Traffic records for reporter tests: a templated plan's data sources (one of each order) and
 * vars with late renders, and one whose every plan text is hostile HTML and Markdown.
 *
 * @module
 */
import type { RunResult, TrafficRecord } from "../../runner/model/run_result.ts";
import { HOSTILE } from "../_helpers/report_fixtures.ts";

/**
 * Three data sources: `users` read in sequence and wrapped 2.4 times, `regions` drawn at random,
 * `coupons` shuffled and half used; two vars; 1,200 requests rendered late.
 *
 * @example
 * ```ts
 * import { TRAFFIC } from "./_traffic_results.ts";
 * TRAFFIC.sources.map((s) => s.order); // ["sequence", "random", "shuffle"]
 * ```
 */
export const TRAFFIC: TrafficRecord = {
  sources: [
    {
      name: "users",
      file: "data/users.csv",
      format: "csv",
      columns: ["id", "email"],
      rows: 100_000,
      order: "sequence",
      exhausted: "wrap",
      draws: 240_000,
      rowsUsed: 100_000,
      wrapped: true,
    },
    {
      name: "regions",
      file: "data/regions.jsonl",
      format: "jsonl",
      columns: ["code"],
      rows: 12,
      order: "random",
      exhausted: "wrap",
      draws: 240_000,
      wrapped: false,
    },
    {
      name: "coupons",
      file: "data/coupons.csv",
      format: "csv",
      columns: ["code"],
      rows: 1_000,
      order: "shuffle",
      exhausted: "error",
      draws: 500,
      rowsUsed: 500,
      wrapped: false,
    },
  ],
  vars: [{ name: "id", spec: "uuid" }, { name: "qty", spec: "int [1, 20]" }],
  lateRenders: 1_200,
};

/**
 * The hostile marker with the characters that end a Markdown table cell or open a code span,
 * a link or emphasis.
 *
 * @example
 * ```ts
 * import { HOSTILE_MARKDOWN } from "./_traffic_results.ts";
 * HOSTILE_MARKDOWN.includes("|"); // true
 * ```
 */
export const HOSTILE_MARKDOWN = `${HOSTILE}<script>|x|\`code\` [a](b) *b* _i_ ~s~ $m$\\`;

/**
 * A source whose name and file, and a var whose name and spec, are {@linkcode HOSTILE_MARKDOWN}.
 *
 * @example
 * ```ts
 * import { HOSTILE_TRAFFIC } from "./_traffic_results.ts";
 * HOSTILE_TRAFFIC.sources[0].file.includes("<script>"); // true
 * ```
 */
export const HOSTILE_TRAFFIC: TrafficRecord = {
  sources: [{
    ...TRAFFIC.sources[0],
    name: HOSTILE_MARKDOWN,
    file: `data/${HOSTILE_MARKDOWN}.csv`,
  }],
  vars: [{ name: HOSTILE_MARKDOWN, spec: `choice [${HOSTILE_MARKDOWN}, |]` }],
  lateRenders: 0,
};

/**
 * The result with `traffic` set (a deep copy of it, so tests may change it).
 *
 * @example
 * ```ts
 * import { TRAFFIC, withTraffic } from "./_traffic_results.ts";
 * import { sampleResult } from "../_helpers/result_fixtures.ts";
 * withTraffic(sampleResult(), TRAFFIC).traffic?.sources.length; // 3
 * ```
 */
export function withTraffic(result: RunResult, traffic: TrafficRecord = TRAFFIC): RunResult {
  return { ...result, traffic: structuredClone(traffic) };
}
