/**
 * The report's plan summary: what was asked for (target, load settings, stages, requests with
 * method, URL and headers, SLOs). Header values are the stored templates: secrets never appear.
 *
 * @module
 */
import { formatDurationMs, formatRatePerSec } from "../../runner/plan/mod.ts";
import type { PlanRecord } from "../../runner/model/mod.ts";
import { escapeHtml, htmlTable, keyValueTable } from "../page/mod.ts";

type PlanRequestRecord = PlanRecord["requests"][number];

/**
 * The plan summary.
 */
export function planSummary(plan: PlanRecord): string {
  const load = plan.load;
  const settings = keyValueTable([
    ["plan", plan.name],
    ...(plan.description ? [["description", plan.description] as [string, string]] : []),
    ["file", shownFile(plan.file)],
    ...(plan.overrides?.length
      ? [["overridden by", plan.overrides.join(" ")] as [string, string]]
      : []),
    ["target", plan.target ?? "–"],
    [
      "connections",
      `${load.connections} to start, at most ${load.maxConnections}`,
    ],
    [
      "arrivals",
      `${load.arrival} (seed ${load.seed}${load.seedPerRun ? ", drawn for this run" : ""})`,
    ],
    ["workers", String(load.workers)],
  ]);
  const stages = htmlTable(
    ["#", "stage", "kind", "rate", "duration", "warmup"],
    load.stages.map((s) => [
      s.index + 1,
      s.name,
      s.kind,
      s.kind === "ramp"
        ? `${formatRatePerSec(s.fromPerSec)} → ${formatRatePerSec(s.toPerSec)}`
        : formatRatePerSec(s.fromPerSec),
      formatDurationMs(s.durationMs),
      s.warmup ? "yes (not judged)" : "no",
    ]),
    { numeric: [0, 3, 4] },
  );
  const requests = htmlTable(
    ["request", "method and URL", "headers", "body", "weight", "timeout", "expected status"],
    plan.requests.map((r) => [
      r.label,
      { html: `<code>${escapeHtml(r.method)} ${escapeHtml(r.url)}</code>` },
      { html: headerList(r.headers) },
      bodyText(r.body),
      r.weight,
      formatDurationMs(r.timeoutMs),
      [...r.expect.codes.map(String), ...r.expect.classes.map((c) => `${c}xx`)].join(", ") || "–",
    ]),
    { numeric: [4, 5] },
  );
  const slos = plan.slos.length === 0
    ? '<p class="muted">The plan sets no SLOs.</p>'
    : `<ul class="slos">${
      plan.slos.map((s) =>
        `<li><code>${escapeHtml(s.text)}</code> <span class="muted">(line ${s.line})</span></li>`
      ).join("")
    }</ul>`;
  const floors = plan.regression === undefined ? "" : `<p>Regression floors: ${
    escapeHtml(
      Object.entries(plan.regression).map(([m, f]) => `${m} ${+(f * 100).toPrecision(6)}%`)
        .join(", "),
    )
  }</p>`;
  return `${settings}<h3>Stages</h3>${stages}<h3>Requests</h3>${requests}<h3>SLOs</h3>${slos}${floors}`;
}

/**
 * The plan file as the report names it: as given when relative (`plans/smoke.yaml`), by its name
 * when absolute (`tailgate demo`'s installed plan, an ad-hoc run's): a runner's folders say
 * nothing to a reader, and the report names its other files relative too.
 */
function shownFile(file: string): string {
  const absolute = file.startsWith("/") || /^[A-Za-z]:[\\/]/.test(file) || file.startsWith("\\");
  return absolute ? file.split(/[\\/]/).pop() || file : file;
}

function headerList(headers: PlanRequestRecord["headers"]): string {
  if (headers.length === 0) return "–";
  return headers.map((h) =>
    `<code>${escapeHtml(h.name)}: ${escapeHtml(h.value)}</code>${
      h.secret ? ' <span class="badge badge-none">secret, not stored</span>' : ""
    }`
  ).join("<br>");
}

function bodyText(body: PlanRequestRecord["body"]): string {
  if (body === undefined) return "–";
  if (body.kind === "file") return `file ${body.path} (${body.sizeBytes} bytes)`;
  const text = body.text.length > 120 ? `${body.text.slice(0, 120)}…` : body.text;
  return `${body.kind}: ${text}`;
}
