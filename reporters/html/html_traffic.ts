/**
 * The report's traffic panel for a plan with `data` or `vars`: where the requests' templated
 * values came from (each data file with its rows, order, draws, rows used and wrapping; each var
 * with its spec) and the requests rendered late. Values are never stored, so never shown.
 *
 * @module
 */
import type { TrafficRecord } from "../../runner/model/mod.ts";
import { escapeHtml, htmlTable } from "../page/mod.ts";
import { lateRenderSentence, sourceFigures } from "../figures/mod.ts";

/** The traffic card's introduction. */
export const TRAFFIC_INTRO = `<p class="explain">Where the requests' templated values came ` +
  `from: each data file, with how many requests drew a row from it, how many distinct rows they ` +
  `took and whether the draws went past the last row and started again; and each var with what ` +
  `it draws. The values themselves are not stored.</p>`;

/**
 * The traffic panel: a table of data sources, a table of vars, and the late renders when there
 * were any. Every plan text is escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trafficPanel } from "./html_traffic.ts";
 * const html = trafficPanel({ sources: [], vars: [{ name: "id", spec: "uuid" }], lateRenders: 0 });
 * assert.ok(html.startsWith('<h3>Vars</h3><div class="table-wrap"><table>'));
 * assert.ok(html.includes("<code>uuid</code>"));
 * ```
 */
export function trafficPanel(traffic: TrafficRecord): string {
  const sources = traffic.sources.length === 0 ? "" : `<h3>Data</h3>${
    htmlTable(
      ["source", "file", "rows", "order", "draws", "rows used", "wrapped"],
      traffic.sources.map((s) => {
        const f = sourceFigures(s);
        return [
          s.name,
          { html: `<code>${escapeHtml(s.file)}</code>` },
          f.rows,
          s.order,
          f.draws,
          f.rowsUsed,
          f.wrapped,
        ];
      }),
      { numeric: [2, 4, 5, 6] },
    )
  }`;
  const vars = traffic.vars.length === 0 ? "" : `<h3>Vars</h3>${
    htmlTable(
      ["var", "spec"],
      traffic.vars.map((v) => [v.name, { html: `<code>${escapeHtml(v.spec)}</code>` }]),
    )
  }`;
  const late = lateRenderSentence(traffic.lateRenders);
  return sources + vars +
    (late === undefined ? "" : `<p><strong>Rendered late:</strong> ${escapeHtml(late)}.</p>`);
}
