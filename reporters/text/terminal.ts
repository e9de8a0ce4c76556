/**
 * The summary printed after `tailgate run`: the protocol, per stage, corrected response time next
 * to service time (and time to first byte, in a result that has it) at p50 … p99.99 and max with
 * requests and errors, the rate-limited requests, the tool's health (over HTTP/2
 * the queue wait is the wait for a free stream) and the machine's CPU contention, a templated
 * plan's data sources and vars, warnings and every gate's verdict with its value against its
 * bound (under a failed latency gate, its slowest request with its trace id); coloured for a
 * terminal when asked, plain otherwise. {@linkcode shouldUseColor} decides which, following
 * no-color.org.
 *
 * @module
 */
import {
  checkLines,
  contentionSentence,
  failedLatencyGates,
  floorSentence,
  gateSlowestFigures,
  LABEL_COLUMNS,
  LABEL_TTFB_COLUMN,
  labelRows,
  type LatencyColumn,
  latencyColumnTitle,
  latencyUs,
  lateRenderSentence,
  NO_FIGURE,
  rateLimitedSentence,
  shapeLines,
  sourceLine,
  stepRows,
  streamPhrases,
  timeDomainLines,
  varsLine,
  verdictFigures,
} from "../figures/mod.ts";
import { JOURNEY_COLUMNS, journeyRows } from "../figures/mod.ts";
import { formatDurationMs } from "../../runner/plan/mod.ts";
import { errorTotal } from "../../runner/model/mod.ts";
import type {
  EncodedHistogram,
  RunResult,
  Verdict,
  VerdictStatus,
} from "../../runner/model/mod.ts";
import {
  formatMetric,
  protocolText,
  runErrorsInWords,
  runVerdict,
  toolLimitedSummary,
  undecidedWarning,
  waitedFor,
} from "../../runner/result/read/mod.ts";
import { printable } from "../../runner/plan/mod.ts";
import { type TextCell, textTable } from "./text_table.ts";

/** Options of {@linkcode renderTerminal}. */
export interface TerminalOptions {
  /** Colour with ANSI escapes (see {@linkcode shouldUseColor}). */
  color: boolean;
}

const COLUMNS: readonly LatencyColumn[] = ["50", "90", "99", "99.9", "99.99", "max"];

/** SGR codes: [on, off]. */
const SGR = {
  green: [32, 39],
  red: [31, 39],
  yellow: [33, 39],
  dim: [2, 22],
  bold: [1, 22],
} as const;
type Style = keyof typeof SGR;

const STATUS_STYLE: Record<VerdictStatus, Style> = {
  pass: "green",
  fail: "red",
  inconclusive: "yellow",
  invalid: "yellow",
};
const STATUS_MARK: Record<VerdictStatus, string> = {
  pass: "✓",
  fail: "✗",
  inconclusive: "?",
  invalid: "!",
};

/**
 * Renders the end-of-run summary of a judged result.
 */
export function renderTerminal(result: RunResult, options: TerminalOptions): string {
  const paint = (style: Style, text: string) =>
    options.color && text !== "" ? `\x1b[${SGR[style][0]}m${text}\x1b[${SGR[style][1]}m` : text;
  const styled = (style: Style, text: string): TextCell => ({
    text,
    style: (t) => paint(style, t),
  });
  const t = result.totals.counts;
  const lines = [
    `${printable(result.plan.name)}: ${t.completed} of ${t.scheduled} requests completed in ` +
    `${(result.run.durationMs / 1000).toFixed(1)}s, ${errorTotal(t)} errors` +
    (result.run.complete ? "" : ` (stopped early: ${result.run.stopReason})`),
    `protocol: ${protocolText(result)}`,
    ...(result.plan.overrides?.length
      ? [`plan overridden: ${printable(result.plan.overrides.join(" "))}`]
      : []),
    "",
  ];
  const rows: TextCell[][] = [
    ["stage", "latency", "requests", "errors", ...COLUMNS.map(latencyColumnTitle)].map((h) =>
      styled("bold", h)
    ),
  ];
  for (const s of result.stages) {
    const name = printable(s.warmup ? `${s.name} (warmup)` : s.name);
    rows.push([
      name,
      "response",
      String(s.counts.completed),
      String(errorTotal(s.counts)),
      ...cells(s.response),
    ]);
    rows.push(["", ...["service", "", "", ...cells(s.service)].map((c) => styled("dim", c))]);
    if (s.ttfb !== undefined) {
      rows.push(["", ...["ttfb", "", "", ...cells(s.ttfb)].map((c) => styled("dim", c))]);
    }
  }
  lines.push(...textTable(rows, ["left", "left", ...rows[0].slice(2).map(() => "right" as const)]));
  lines.push(...labelLines(result, styled));
  lines.push(...journeyLines(result, styled));
  lines.push(
    "",
    paint(
      "dim",
      "response = from the intended send time (corrected for coordinated omission); " +
        "service = from the actual send" +
        (result.stages.some((s) => s.ttfb !== undefined)
          ? `; ttfb = to the first response ${
            result.run.grpc ? "message" : "byte"
          }, from the intended send time`
          : ""),
    ),
  );
  const errors = runErrorsInWords(result);
  if (errors !== "") lines.push(`errors: ${errors}`);
  for (const s of streamPhrases(result)) lines.push(`streams: ${printable(s)}`);
  const limited = rateLimitedSentence(result);
  if (limited !== undefined) lines.push(paint("yellow", `rate limited: ${limited}`));
  lines.push(healthLine(result));
  const floor = floorSentence(result);
  if (floor !== undefined) lines.push(`measured floor: ${floor}`);
  const contention = contentionSentence(result);
  if (contention !== undefined) lines.push(`machine: ${printable(contention)}`);
  for (const line of timeDomainLines(result)) lines.push(`over time: ${line}`);
  const checks = checkLines(result);
  for (const line of checks.lines) lines.push(`check: ${printable(line)}`);
  if (checks.hidden > 0) lines.push(`check: … ${checks.hidden} more (see the HTML report)`);
  if (result.traffic !== undefined) {
    const traffic = result.traffic;
    for (const s of traffic.sources) lines.push(`data: ${printable(sourceLine(s))}`);
    if (traffic.vars.length) lines.push(`vars: ${printable(varsLine(traffic.vars))}`);
    const late = lateRenderSentence(traffic.lateRenders);
    if (late !== undefined) lines.push(paint("yellow", `rendered late: ${late}`));
  }
  for (const [step, request, status, time, captured] of stepRows(result.steps ?? [])) {
    const took = captured === "–" ? "" : `, captured ${captured}`;
    lines.push(printable(`${step}: ${request} → ${status} in ${time}${took}`));
  }
  if (result.baseline !== undefined) {
    const b = result.baseline;
    lines.push(paint(
      "dim",
      printable(
        `baseline: newest of ${b.runs} stored run${b.runs === 1 ? "" : "s"}, started ${b.date}` +
          `${b.gitSha ? ` at commit ${b.gitSha.slice(0, 12)}` : ""} (${b.source})`,
      ),
    ));
    for (const line of shapeLines(result)) lines.push(`shape vs baseline: ${printable(line)}`);
  }
  for (const w of result.warnings ?? []) lines.push(paint("yellow", `WARNING: ${printable(w)}`));
  if (result.verdicts.length > 0) {
    lines.push("", "gates:");
    const gateRows = result.verdicts.map((v) => verdictRow(v, styled));
    const gateLines = textTable(gateRows, ["left", "left", "right", "left", "right", "left"]);
    const failed = failedLatencyGates(result);
    result.verdicts.forEach((v, i) => {
      lines.push(gateLines[i]);
      const slowest = failed.includes(v) ? slowestLine(result, v) : undefined;
      if (slowest !== undefined) lines.push(paint("dim", slowest));
    });
  }
  const h = result.health;
  if (h.toolLimited) {
    lines.push(
      paint(
        "yellow",
        `TOOL-LIMITED: ${toolLimitedSummary(result)}:`,
      ),
    );
    for (const r of h.reasons) lines.push(`  - ${printable(r)}`);
  }
  const overall = runVerdict(result);
  const warning = undecidedWarning(overall);
  if (warning !== undefined) lines.push("", paint("yellow", `WARNING: ${warning}`));
  const verdict = `${STATUS_MARK[overall.status]} ${overall.status.toUpperCase()}: ` +
    overall.summary + (overall.reason === undefined ? "" : ` (${overall.reason})`);
  lines.push("", paint("bold", paint(STATUS_STYLE[overall.status], verdict)));
  return lines.join("\n");
}

/** Each label's requests, errors by code, p50 and p99 over the measured stages, after a blank line. */
function labelLines(
  result: RunResult,
  styled: (style: Style, text: string) => TextCell,
): string[] {
  const labels = labelRows(result);
  if (labels === undefined) return [];
  const ttfb = labels.ttfb ? [LABEL_TTFB_COLUMN] : [];
  const rows: TextCell[][] = [
    [...LABEL_COLUMNS, ...ttfb].map((h) => styled("bold", h)),
    ...labels.rows.map((r) => [
      printable(r.label),
      String(r.requests),
      r.errors,
      r.p50,
      r.p99,
      ...(labels.ttfb ? [r.ttfbP99] : []),
    ]),
  ];
  return [
    "",
    ...textTable(rows, [
      "left",
      "right",
      "left",
      "right",
      "right",
      ...ttfb.map(() => "right" as const),
    ]),
    ...(labels.hidden > 0 ? [`… ${labels.hidden} more labels (see the HTML report)`] : []),
  ];
}

/**
 * Each journey's row (started, completed, failed, journey time without think, mean think) and
 * its steps' (sent, failed, skipped, response time), after a blank line.
 */
function journeyLines(
  result: RunResult,
  styled: (style: Style, text: string) => TextCell,
): string[] {
  const journeys = journeyRows(result);
  if (journeys === undefined) return [];
  const rows: TextCell[][] = [
    JOURNEY_COLUMNS.map((h) => styled("bold", h)),
    ...journeys.map((r) =>
      JOURNEY_COLUMNS.map((c, i) =>
        i === 0 && r.journey ? styled("bold", printable(r[c])) : printable(r[c])
      )
    ),
  ];
  return [
    "",
    ...textTable(rows, ["left", ...JOURNEY_COLUMNS.slice(1).map(() => "right" as const)]),
    ...textTable([[
      styled(
        "dim",
        "journey time = from the journey's intended start to its last step's end, think " +
          "excluded (think: its mean per completed journey); a step's times are from its due time",
      ),
    ]], ["left"]),
  ];
}

function cells(h: EncodedHistogram): string[] {
  return COLUMNS.map((c) => {
    const valueUs = latencyUs(h, c);
    return valueUs === undefined ? NO_FIGURE : formatMetric(valueUs, "us");
  });
}

function healthLine(result: RunResult): string {
  const h = result.health;
  const lagUs = h.sendLag.count > 0 ? h.sendLag.percentilesUs["99"] : undefined;
  return `tool health: send lag p99 ${
    lagUs === undefined ? NO_FIGURE : formatMetric(lagUs, "us")
  }, ` +
    `${h.cpu.perRequestUs.toFixed(1)} us CPU/request, ` +
    `${Math.round(h.achievedPerSec)}/s sent of ${Math.round(h.intendedPerSec)}/s scheduled` +
    (h.queueWait.count > 0
      ? `; ${h.queueWait.count} requests waited for ${waitedFor(result)} (up to ` +
        `${formatDurationMs(h.queueWait.maxUs / 1000)}, counted in their response time)`
      : "");
}

/**
 * The slowest request of a failed latency gate's stages and label, in one line: its trace id,
 * response time, send time, label, stage and status (without a trace id, how to get one); none
 * when none was kept.
 */
function slowestLine(result: RunResult, v: Verdict): string | undefined {
  const slowest = gateSlowestFigures(result, v);
  if (slowest === undefined) return undefined;
  const figures = printable(slowest.text);
  return slowest.traceId === undefined
    ? `      ↳ slowest request: ${figures}; no trace id (trace: true or --trace sends one)`
    : `      ↳ slowest request: ${slowest.traceId}, ${figures}`;
}

function verdictRow(v: Verdict, styled: (style: Style, text: string) => TextCell): TextCell[] {
  const f = verdictFigures(v);
  const has = (s: string) => s !== NO_FIGURE;
  return [
    styled(STATUS_STYLE[v.status], `  ${STATUS_MARK[v.status]} ${v.status.toUpperCase()}`),
    printable(v.name),
    has(f.measured) ? f.measured : "",
    has(f.bound) ? `vs ${f.bound}` : "",
    has(f.margin) ? f.margin : "",
    styled("dim", printable(v.message)),
  ];
}

/** What {@linkcode shouldUseColor} looks at. */
export interface ColorContext {
  /** Whether the output goes to a terminal (`Deno.stdout.isTerminal()`). */
  isTerminal: boolean;
  /** The environment variables read: NO_COLOR, FORCE_COLOR and TERM. */
  env: { NO_COLOR?: string; FORCE_COLOR?: string; TERM?: string };
}

/**
 * Whether to colour, after no-color.org: `NO_COLOR` set and non-empty disables colour (it wins);
 * `FORCE_COLOR` set and non-empty forces it (`0` or `false` disables it); `TERM=dumb` and output
 * that is not a terminal disable it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shouldUseColor } from "./terminal.ts";
 * assert.equal(shouldUseColor({ isTerminal: true, env: { NO_COLOR: "1" } }), false);
 * assert.equal(shouldUseColor({ isTerminal: false, env: { FORCE_COLOR: "1" } }), true);
 * ```
 */
export function shouldUseColor(context: ColorContext): boolean {
  const { NO_COLOR, FORCE_COLOR, TERM } = context.env;
  if (NO_COLOR !== undefined && NO_COLOR !== "") return false;
  if (FORCE_COLOR !== undefined && FORCE_COLOR !== "") {
    return !["0", "false"].includes(FORCE_COLOR.toLowerCase());
  }
  if (TERM === "dumb") return false;
  return context.isTerminal;
}
