/**
 * The report's **slowest requests**, under the percentile chart: per stage × label, the requests
 * the result keeps with the longest response time (`slowest`, at most ten, slowest first), each
 * with the trace id its `traceparent` carried (text to select and paste into the service's
 * tracing), when it was meant to be sent, its response time and status; then one request per high
 * percentile (`exemplars`). A run that sent no `traceparent` is told how to send one. Under each
 * failed latency gate in the gate table, its slowest request and a link to the lists. Every value
 * is escaped: a result file is data.
 *
 * @module
 */
import type {
  LabelResult,
  PercentileExemplar,
  RunResult,
  StageResult,
  Verdict,
} from "../../runner/model/mod.ts";
import { SLOWEST_KEPT } from "../../runner/model/mod.ts";
import {
  failedLatencyGates,
  gateSlowestFigures,
  hasTraceIds,
  shownRequests,
  slowFigures,
} from "../figures/mod.ts";
import { type Cell, escapeHtml, htmlTable } from "../page/mod.ts";

/** Groups shown open when the measured stages hold at most this many (else the slowest one's). */
const OPEN_GROUPS = 4;

interface Group {
  stage: StageResult;
  label: LabelResult;
}

/**
 * The list's heading, introduction and one group per stage × label (measured stages first, their
 * labels in the plan's order, warmup stages last), or "" when the result keeps no slow requests.
 */
export function slowestPanel(result: RunResult): string {
  const ordered = [
    ...result.stages.filter((s) => !s.warmup),
    ...result.stages.filter((s) => s.warmup),
  ];
  const groups: Group[] = ordered.flatMap((stage) =>
    stage.labels.filter((l) => shownRequests(l.slowest).length > 0).map((label) => ({
      stage,
      label,
    }))
  );
  if (groups.length === 0) return "";
  const traced = result.plan.trace !== undefined ||
    hasTraceIds(groups.map((g) => g.label));
  const measured = groups.filter((g) => !g.stage.warmup);
  const slowest = measured.reduce<Group | undefined>(
    (a, g) => a === undefined || top(g) > top(a) ? g : a,
    undefined,
  );
  const open = (g: Group) => !g.stage.warmup && (measured.length <= OPEN_GROUPS || g === slowest);
  return `<h3 id="slowest">The ${SLOWEST_KEPT} slowest requests</h3>` + intro(traced) +
    groups.map((g) => group(g, traced, open(g), result.stages.length > 1)).join("");
}

/**
 * Under a failed latency gate in the gate table: the slowest request of the stages and label it
 * judged (trace id, response time, send time, label, stage, status) and a link to the lists; ""
 * for any other gate, or when the result keeps no slow requests.
 */
export function gateSlowest(result: RunResult, v: Verdict): string {
  if (!failedLatencyGates(result).includes(v)) return "";
  const slowest = gateSlowestFigures(result, v);
  if (slowest === undefined) return "";
  const id = slowest.traceId === undefined
    ? ""
    : `<code class="trace-id">${escapeHtml(slowest.traceId)}</code>, `;
  return `<div class="message slowest-request">Slowest request: ${id}` +
    `${escapeHtml(slowest.text)} · ` +
    `<a href="#slowest">the slowest requests</a></div>`;
}

function top(g: Group): number {
  return shownRequests(g.label.slowest)[0]?.responseUs ?? 0;
}

function intro(traced: boolean): string {
  const what = `<p class="explain">Per stage and label, the requests with the longest response ` +
    `time, slowest first: ${
      traced
        ? "the trace id their <code>traceparent</code> carried " +
          "(select it to find the request in the service's traces), "
        : ""
    }when each was meant to be ` +
    `sent (seconds from the run's start), its response time and its status; under each list, ` +
    `a request at each high percentile.</p>`;
  return traced ? what : what +
    `<p class="explain no-trace">This run sent no <code>traceparent</code>, so its requests ` +
    `have no trace ids: <code>trace: true</code> in the plan (or <code>--trace</code> on the ` +
    `command line) sends one with every request, and this list then names each request's ` +
    `trace.</p>`;
}

function group(g: Group, traced: boolean, open: boolean, stageNamed: boolean): string {
  const list = shownRequests(g.label.slowest);
  const title =
    (stageNamed
      ? `Stage ${g.stage.index + 1}: ${g.stage.name}${g.stage.warmup ? " (warmup)" : ""} · `
      : "") + g.label.label;
  const rows = list.map((r, i): Cell[] => {
    const f = slowFigures(r);
    return [
      i + 1,
      ...(traced ? [f.traceId === undefined ? "–" : traceCell(f.traceId)] : []),
      f.sentAt,
      f.response,
      f.status,
    ];
  });
  const headers = ["#", ...(traced ? ["trace id"] : []), "sent at", "response", "status"];
  const numeric = traced ? [0, 2, 3] : [0, 1, 2];
  return `<details class="slowest"${open ? " open" : ""}><summary>${escapeHtml(title)} ` +
    `<span class="muted">slowest ${escapeHtml(slowFigures(list[0]).response)}</span></summary>` +
    htmlTable(headers, rows, { numeric, className: "slowest" }) +
    exemplars(shownRequests(g.label.exemplars)) + `</details>`;
}

function traceCell(id: string): Cell {
  return { html: `<code class="trace-id">${escapeHtml(id)}</code>` };
}

/** `At its percentiles: p99.9: <trace id> 12.3ms · …`, or "" without exemplars. */
function exemplars(list: readonly PercentileExemplar[]): string {
  if (list.length === 0) return "";
  const item = (e: PercentileExemplar) => {
    const f = slowFigures(e);
    const at = `p${escapeHtml(e.percentile)}:`;
    return f.traceId === undefined
      ? `${at} ${escapeHtml(f.response)} (sent at ${escapeHtml(f.sentAt)})`
      : `${at} <code class="trace-id">${escapeHtml(f.traceId)}</code> ${escapeHtml(f.response)}`;
  };
  return `<p class="exemplars muted">At its percentiles: ${list.map(item).join(" · ")}</p>`;
}
