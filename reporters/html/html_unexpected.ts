/**
 * The report's **Unexpected statuses** card, right under the gates: for each request label and
 * status its `expect` does not take, how many answers had it and the first one's body as the
 * result keeps it (`unexpectedBodies`: its first 512 bytes, every secret already `***`), so a run
 * of 924 × 401 says why on the first screen. Bodies are text: escaped, wrapped, never markup.
 *
 * @module
 */
import type { RunResult, UnexpectedBody } from "../../runner/model/mod.ts";
import { statusKey, UNEXPECTED_BODY_BYTES } from "../../runner/model/mod.ts";
import { formatDurationMs } from "../../runner/plan/mod.ts";
import { escapeHtml } from "../page/mod.ts";

/** The card's title, also its link in the table of contents. */
export const UNEXPECTED_TITLE = "Unexpected statuses";

/** The card's content (intro and one entry per body), or "" when the result has none. */
export function unexpectedPanel(result: RunResult): string {
  const bodies = result.unexpectedBodies ?? [];
  if (bodies.length === 0) return "";
  const intro = `<p class="explain">The first answer of each status a request did not expect ` +
    `(its <code>expect</code>), per label: its body's first ${UNEXPECTED_BODY_BYTES} bytes as ` +
    `received, every secret of the plan (<code>\${env.X}</code> values, captured values) shown as ` +
    `<code>***</code>.</p>`;
  return intro + bodies.map((b) => entry(b, answered(result, b))).join("");
}

function entry(b: UnexpectedBody, count: number): string {
  const size = b.cut
    ? `its first ${UNEXPECTED_BODY_BYTES} of ${b.bodyBytes.toLocaleString("en-US")} bytes`
    : b.bodyBytes === 0
    ? "an empty body"
    : `all ${b.bodyBytes.toLocaleString("en-US")} bytes`;
  const when = `first answered ${formatDurationMs(b.atMs)} into the run; ${size}`;
  return `<div class="unexpected"><h3><span class="badge badge-fail">${statusKey(b.status)} × ${
    count.toLocaleString("en-US")
  }</span> ${escapeHtml(b.label)}</h3><p class="muted">${escapeHtml(when)}</p>` +
    (b.bodyBytes === 0 ? "" : `<pre class="body">${escapeHtml(b.body)}</pre>`) + `</div>`;
}

/** How many answers of the label had the status, over every stage. */
function answered(result: RunResult, b: UnexpectedBody): number {
  let n = 0;
  for (const s of result.stages) {
    for (const l of s.labels) {
      if (l.label === b.label) n += l.counts.statusCodes[statusKey(b.status)] ?? 0;
    }
  }
  return n;
}
