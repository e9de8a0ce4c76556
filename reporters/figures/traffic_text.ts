/**
 * A templated plan's traffic in words, shared by the HTML report, the Markdown summary and the
 * terminal: per data source its rows, order, draws, rows used and how often it wrapped; per var its
 * spec; the requests rendered late. Plain text: each reporter escapes it for its format.
 *
 * @module
 */
import type { TrafficRecord } from "../../runner/model/mod.ts";
import { NO_FIGURE } from "./verdict_figures.ts";

/** One data source of a {@linkcode TrafficRecord}. */
export type TrafficSource = TrafficRecord["sources"][number];

/** A data source's figures as table cells (counts with thousands separators). */
export interface SourceFigures {
  /** Rows in the file: `100,000`. */
  rows: string;
  /** Requests that drew a row: `240,000`. */
  draws: string;
  /** Distinct rows taken: `all 100,000`, `500`; {@linkcode NO_FIGURE} for random draws. */
  rowsUsed: string;
  /** How many times over the draws went through the rows: `2.4×`, `no`; a dash for random. */
  wrapped: string;
}

/**
 * A data source's figures for a table row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sourceFigures } from "./traffic_text.ts";
 * assert.deepEqual(
 *   sourceFigures({ name: "users", file: "users.csv", format: "csv", columns: ["id"], rows: 100_000,
 *     order: "sequence", exhausted: "wrap", draws: 240_000, rowsUsed: 100_000, wrapped: true }),
 *   { rows: "100,000", draws: "240,000", rowsUsed: "all 100,000", wrapped: "2.4×" },
 * );
 * ```
 */
export function sourceFigures(source: TrafficSource): SourceFigures {
  const random = source.order === "random" || source.rowsUsed === undefined;
  return {
    rows: count(source.rows),
    draws: count(source.draws),
    rowsUsed: random
      ? NO_FIGURE
      : source.rowsUsed! >= source.rows
      ? `all ${count(source.rows)}`
      : count(source.rowsUsed!),
    wrapped: random ? NO_FIGURE : source.wrapped ? `${timesThrough(source)}×` : "no",
  };
}

/**
 * A data source in one line: name, file and rows, then its order with the draws, the rows used
 * and how often it wrapped (sequence and shuffle), or the draws alone (random).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sourceLine } from "./traffic_text.ts";
 * assert.equal(
 *   sourceLine({ name: "users", file: "data/users.csv", format: "csv", columns: ["id"],
 *     rows: 100_000, order: "sequence", exhausted: "wrap", draws: 240_000, rowsUsed: 100_000,
 *     wrapped: true }),
 *   "users — data/users.csv, 100,000 rows, sequence: 240,000 draws, all 100,000 rows used, wrapped 2.4×",
 * );
 * ```
 */
export function sourceLine(source: TrafficSource): string {
  const head = `${source.name} — ${source.file}, ${counted(source.rows, "row")}, ` +
    `${source.order}: ${counted(source.draws, "draw")}`;
  if (source.order === "random" || source.rowsUsed === undefined) return head;
  const used = source.rowsUsed >= source.rows
    ? `all ${counted(source.rows, "row")} used`
    : `${count(source.rowsUsed)} of ${counted(source.rows, "row")} used`;
  return `${head}, ${used}${source.wrapped ? `, wrapped ${timesThrough(source)}×` : ""}`;
}

/**
 * The vars in one line: each name with its spec in brackets.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { varsLine } from "./traffic_text.ts";
 * assert.equal(
 *   varsLine([{ name: "id", spec: "uuid" }, { name: "qty", spec: "int [1, 20]" }]),
 *   "id (uuid), qty (int [1, 20])",
 * );
 * ```
 */
export function varsLine(vars: TrafficRecord["vars"]): string {
  return vars.map((v) => `${v.name} (${v.spec})`).join(", ");
}

/**
 * What requests rendered when due (not ahead of the schedule) mean, with their count; undefined
 * when there were none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lateRenderSentence } from "./traffic_text.ts";
 * assert.equal(
 *   lateRenderSentence(1200),
 *   "1,200 requests were rendered when due instead of ahead of the schedule (the generator fell behind rendering them: its own lateness, not the server's)",
 * );
 * ```
 */
export function lateRenderSentence(lateRenders: number): string | undefined {
  if (lateRenders <= 0) return undefined;
  return `${counted(lateRenders, "request")} ${lateRenders === 1 ? "was" : "were"} rendered ` +
    "when due instead of ahead of the schedule (the generator fell behind rendering them: its " +
    "own lateness, not the server's)";
}

/** How many times over the draws went through the rows, to a tenth: `2.4`. */
function timesThrough(source: TrafficSource): string {
  return source.rows > 0 ? (source.draws / source.rows).toFixed(1) : NO_FIGURE;
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function counted(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? "" : "s"}`;
}
