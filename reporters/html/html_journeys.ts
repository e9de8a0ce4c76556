/**
 * The report's journeys card: a row per journey (started, completed, failed, journey time with
 * think excluded, mean think) and an indented row per step (completed, failed, skipped, response
 * time), over the measured stages, as the terminal and the Markdown summary show them
 * (reporters/figures/journey_rows.ts).
 *
 * @module
 */
import type { RunResult } from "../../runner/model/mod.ts";
import { type Cell, escapeHtml, htmlTable } from "../page/mod.ts";
import { JOURNEY_COLUMNS, journeyRows } from "../figures/mod.ts";

/**
 * The journeys table of `result`, or "" when it ran none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { journeyTable } from "./html_journeys.ts";
 * assert.equal(journeyTable({ stages: [] } as never), "");
 * ```
 */
export function journeyTable(result: Pick<RunResult, "stages">): string {
  const rows = journeyRows(result);
  if (rows === undefined) return "";
  const cells: Cell[][] = rows.map((r) =>
    JOURNEY_COLUMNS.map((c, i): Cell =>
      i > 0
        ? r[c]
        : r.journey
        ? { html: `<strong>${escapeHtml(r[c])}</strong>`, className: "row-stage" }
        : { html: `↳ ${escapeHtml(r[c].trim())}`, className: "row-label" }
    )
  );
  return htmlTable([...JOURNEY_COLUMNS], cells, {
    numeric: JOURNEY_COLUMNS.slice(1).map((_, i) => i + 1),
    className: "journeys",
  });
}

/** What the journeys card says before its table. */
export const JOURNEYS_INTRO = `<p class="explain">Over the measured stages. <strong>Journey ` +
  `time</strong> runs from a journey's scheduled start to its last step's end, think time ` +
  `excluded (think: the mean of a completed journey); a failed journey is counted, not timed. ` +
  `Each step's times run from its due time (the previous step's end plus its think time), so a ` +
  `wait for a connection is in them. Per step, completed + skipped = started.</p>`;
