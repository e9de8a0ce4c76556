/**
 * The HTML report's page: the document shell, its inlined style sheet, and the scripts (chart.js,
 * the chart data as JSON, the drawing script). A Content-Security-Policy allows only these two
 * scripts (by hash) and no network at all, so the file opens from disk and fetches nothing.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { escapeHtml, jsonForScript, safeInlineScript } from "./html_escape.ts";

/** What the page is made of: escaped HTML parts and the raw script texts. */
export interface PageParts {
  /** The document's title (text; escaped here). */
  title: string;
  /** The page's body HTML, escaped by its builders. */
  bodyHtml: string;
  /** The value embedded as `<script type="application/json" id="tailgate-data">`. */
  data: unknown;
  /** Scripts run in order after the body (chart.js, then the drawing script). */
  scripts: string[];
}

/**
 * Assembles the page.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { htmlPage } from "./html_page.ts";
 * const html = htmlPage({ title: "t", bodyHtml: "<p>hi</p>", data: {}, scripts: [] });
 * assert.ok(html.startsWith("<!DOCTYPE html>"));
 * ```
 */
export function htmlPage(parts: PageParts): string {
  const scripts = parts.scripts.map(safeInlineScript);
  const hashes = scripts.map((s) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`);
  const csp = [
    "default-src 'none'",
    `script-src ${hashes.join(" ") || "'none'"}`,
    "style-src 'unsafe-inline'",
    "img-src data:",
  ].join("; "); // holds no `"` or `&`: safe in the attribute as it is
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${parts.bodyHtml}
</main>
<script type="application/json" id="tailgate-data">${jsonForScript(parts.data)}</script>
${scripts.map((s) => `<script>${s}</script>`).join("\n")}
</body>
</html>
`;
}

const STYLE = `
:root { --fg: #212529; --muted: #6c757d; --line: #dee2e6; --bg: #fff; --soft: #f8f9fa;
  --pass: #2f9e44; --fail: #e03131; --inconclusive: #e8590c; --invalid: #7048e8; --none: #868e96; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--soft); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 26px; margin: 4px 0 6px; line-height: 1.25; }
h2 { font-size: 19px; margin: 0 0 10px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
p { margin: 6px 0; }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
section.card { background: var(--bg); border: 1px solid var(--line); border-radius: 8px;
  padding: 18px 20px; margin: 16px 0; }
.banner { border-radius: 8px; padding: 18px 22px; color: #fff; background: var(--none); }
.banner .eyebrow { margin: 0; opacity: .85; font-size: 13px; letter-spacing: .02em; }
.banner .facts { margin: 0; opacity: .92; }
.banner-pass { background: var(--pass); } .banner-fail { background: var(--fail); }
.banner-inconclusive { background: var(--inconclusive); } .banner-invalid { background: var(--invalid); }
.warnings { background: #fff9db; border: 1px solid #fcc419; border-left: 6px solid #f59f00;
  border-radius: 8px; padding: 12px 18px; margin: 16px 0; }
.warnings h2 { font-size: 16px; margin: 0 0 4px; color: #8f5b00; }
.warnings ul { margin: 0; padding-left: 20px; }
.unexpected h3 { margin: 14px 0 2px; } .unexpected h3 .badge { font-size: 13px; }
pre.body { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; margin: 4px 0;
  background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 8px 10px;
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 16em; overflow-y: auto; }
nav.toc { font-size: 14px; margin: 12px 2px; color: var(--muted); }
nav.toc a { color: #1971c2; text-decoration: none; margin-right: 14px; }
.explain { color: #495057; max-width: 860px; }
.muted { color: var(--muted); font-size: 13px; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid var(--line); }
thead th { font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted);
  border-bottom: 2px solid var(--line); white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.kv { width: auto; min-width: 50%; } table.kv th { color: var(--muted); font-weight: 500; width: 180px; }
td.bad { color: var(--fail); font-weight: 600; }
table.gates td:nth-child(2) { min-width: 13em; }
td.row-label { padding-left: 22px; }
.message { color: #495057; font-size: 13px; margin-top: 2px; }
.kind { display: inline-block; font-size: 11px; text-transform: uppercase; color: var(--muted);
  border: 1px solid var(--line); border-radius: 3px; padding: 0 4px; margin-right: 4px; }
.badge { display: inline-block; font-size: 12px; font-weight: 600; border-radius: 10px; padding: 1px 9px;
  color: #fff; background: var(--none); white-space: nowrap; text-transform: uppercase; }
.badge-pass { background: var(--pass); } .badge-fail { background: var(--fail); }
.badge-inconclusive { background: var(--inconclusive); } .badge-invalid { background: var(--invalid); }
.badge-marginal { background: #fff3bf; color: #8f5b00; text-transform: none; font-weight: 500; }
.badge-none { background: #e9ecef; color: #495057; text-transform: none; font-weight: 500; }
.chart { position: relative; height: 380px; margin: 10px 0 4px; }
.chart.short { height: 280px; }
.controls { display: flex; gap: 18px; align-items: center; flex-wrap: wrap; font-size: 14px; }
.controls label { max-width: 100%; }
.controls select { font: inherit; padding: 3px 6px; max-width: 100%; }
.health-verdict { border-radius: 6px; padding: 8px 12px; margin: 4px 0 10px; }
.health-ok { background: #ebfbee; border: 1px solid #b2f2bb; }
.health-limited { background: #fff5f5; border: 1px solid #ffa8a8; }
.health-verdict ul { margin: 4px 0 0; padding-left: 20px; }
details.slowest { margin: 8px 0; } details.slowest summary { cursor: pointer; font-weight: 600; }
code.trace-id { user-select: all; white-space: nowrap; word-break: normal; }
.noscript { background: var(--soft); border: 1px dashed var(--line); padding: 10px; color: var(--muted); }
footer { color: var(--muted); font-size: 12px; margin-top: 24px; }
`;

/**
 * One section of a report page: a card with its id (for the table of contents), a title, an
 * introduction (HTML) and a body (HTML).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { htmlCard } from "./html_page.ts";
 * assert.equal(
 *   htmlCard("gates", "Gates", "", "<p>…</p>"),
 *   '<section class="card" id="gates"><h2>Gates</h2><p>…</p></section>',
 * );
 * ```
 */
export function htmlCard(id: string, title: string, intro: string, body: string): string {
  return `<section class="card" id="${id}"><h2>${escapeHtml(title)}</h2>${intro}${body}</section>`;
}
