/**
 * The Markdown summary for `$GITHUB_STEP_SUMMARY` and pull-request comments: the verdict and the
 * run's facts (the protocol among them), the gates (failing first; under a failed latency gate,
 * its slowest requests with their trace ids), key percentiles of every judged stage against the
 * baseline (time to first byte too, in a result that has it), the rate-limited requests, the
 * tool's health, warnings, a templated plan's traffic and a link to the HTML report.
 * Plan-controlled text is escaped, and the whole stays under {@linkcode MARKDOWN_MAX_BYTES}
 * whatever the plan's size.
 *
 * @module
 */
import {
  checkLines,
  floorSentence,
  KEY_LATENCY_COLUMNS,
  ksByStage,
  LABEL_COLUMNS,
  LABEL_ROWS_SHOWN,
  LABEL_TTFB_COLUMN,
  labelRows,
  latencyColumnTitle,
  latencyUs,
  lateRenderSentence,
  NO_FIGURE,
  rateLimitedSentence,
  signedPercent,
  sourceFigures,
  STEP_COLUMNS,
  stepRows,
  STEPS_INTRO,
  streamPhrases,
  timeDomainLines,
  verdictFigures,
} from "../figures/mod.ts";
import { JOURNEY_COLUMNS, journeyRows } from "../figures/mod.ts";
import {
  formatMetric,
  protocolText,
  runErrorsInWords,
  runVerdict,
  STATUS_SEVERITY,
  toolLimitedSummary,
  undecidedWarning,
  waitedFor,
} from "../../runner/result/read/mod.ts";
import { formatDurationMs, formatRatePerSec } from "../../runner/plan/mod.ts";
import { errorTotal } from "../../runner/model/mod.ts";
import type {
  BaselineReference,
  EncodedHistogram,
  RunResult,
  RunVerdict,
  StepRecord,
  TrafficRecord,
  Verdict,
  VerdictStatus,
} from "../../runner/model/mod.ts";
import { markdownText } from "./markdown_escape.ts";
import { markdownTable, markdownUrl } from "./markdown_table.ts";
import { slowestUnderGates } from "./markdown_slowest.ts";
import { REPORT_FILES } from "../report_formats.ts";

/** The largest summary {@linkcode renderMarkdown} returns, in UTF-8 bytes (GitHub: 65,536). */
export const MARKDOWN_MAX_BYTES = 60_000;

/** Options of {@linkcode renderMarkdown}. */
export interface MarkdownOptions {
  /** Where the HTML report is; without it the summary names `report.html` in the artifact. */
  htmlUrl?: string;
}

const MARK: Record<VerdictStatus, string> = {
  pass: "✅",
  fail: "❌",
  inconclusive: "⚠️",
  invalid: "⚠️",
};

/** How much of each list is shown, and how long plan-controlled text may be. */
interface Caps {
  gates: number;
  stages: number;
  items: number;
  textChars: number;
}

/**
 * Renders the Markdown summary of a judged result.
 */
export function renderMarkdown(result: RunResult, options: MarkdownOptions = {}): string {
  // Every reason whole while the summary fits: a 2 KB summary never cuts one.
  let caps: Caps = { gates: 50, stages: 20, items: 20, textChars: Infinity };
  let text = render(result, options, caps);
  const fits = () => new TextEncoder().encode(text).length <= MARKDOWN_MAX_BYTES;
  if (!fits()) {
    // First the texts are cut to 400 characters, then the shown rows shrink until the text fits:
    // at zero rows and 16-character names it always does.
    caps = { ...caps, textChars: 400 };
    text = render(result, options, caps);
  }
  for (let i = 0; i < 16 && !fits(); i++) {
    caps = {
      gates: Math.floor(caps.gates / 2),
      stages: Math.floor(caps.stages / 2),
      items: Math.floor(caps.items / 2),
      textChars: Math.max(16, Math.floor(caps.textChars / 2)),
    };
    text = render(result, options, caps);
  }
  return text;
}

function render(result: RunResult, options: MarkdownOptions, caps: Caps): string {
  const esc = (text: string) => markdownText(text, caps.textChars);
  const overall = runVerdict(result);
  const t = result.totals.counts;
  const errors = runErrorsInWords(result);
  const facts = [
    ...(overall.reason === undefined ? [] : [`**${esc(overall.reason)}**`]),
    esc(overall.summary),
    `${t.completed} of ${t.scheduled} requests completed in ` +
    `${(result.run.durationMs / 1000).toFixed(1)}s, ${errorTotal(t)} errors` +
    (errors === "" ? "" : ` (${esc(errors)})`),
    `started ${esc(result.run.startedAt)}`,
    protocolText(result),
    ...(result.environment.gitSha ? [`commit ${esc(result.environment.gitSha.slice(0, 12))}`] : []),
    ...(result.plan.overrides?.length
      ? [`plan overridden: ${esc(result.plan.overrides.join(" "))}`]
      : []),
  ];
  return [
    `## ${MARK[overall.status]} tailgate: ${esc(result.plan.name)} — ${overall.status}`,
    "",
    facts.join(" · "),
    "",
    ...regressionWarning(overall),
    ...gates(result.verdicts, caps, esc),
    ...slowestUnderGates(result, caps.gates, esc),
    ...latency(result, caps, esc),
    ...labelTable(result, caps, esc),
    ...rateLimited(result, esc),
    ...streams(result, esc),
    ...checksSection(result),
    ...journeyTable(result, esc),
    ...health(result, caps, esc),
    ...warnings(result.warnings ?? [], caps, esc),
    ...(result.traffic === undefined ? [] : traffic(result.traffic, caps, esc)),
    ...(result.steps?.length ? steps(result.steps, caps, esc) : []),
    options.htmlUrl === undefined
      ? `Full report: \`${REPORT_FILES.html}\` in this run's artifact (\`--report-url\` makes ` +
        "this a link; the GitHub Action sets it)."
      : `[Full report (HTML)](${markdownUrl(options.htmlUrl)})`,
    "",
  ].join("\n");
}

/** The undecided regression checks' warning, above the gates (fail_on.ts words it). */
function regressionWarning(overall: RunVerdict): string[] {
  const warning = undecidedWarning(overall);
  return warning === undefined ? [] : [`> ⚠️ **Warning:** ${markdownText(warning)}.`, ""];
}

function gates(verdicts: readonly Verdict[], caps: Caps, esc: (t: string) => string): string[] {
  if (verdicts.length === 0) return [];
  const rank = (v: Verdict) => STATUS_SEVERITY.indexOf(v.status);
  const shown = [...verdicts].sort((a, b) => rank(a) - rank(b)).slice(0, caps.gates);
  const rows = shown.map((v) => {
    const f = verdictFigures(v);
    const detail = v.status === "pass" && !v.marginal ? "" : esc(v.message);
    return [`${MARK[v.status]} ${v.status}`, esc(v.name), f.measured, f.bound, f.margin, detail];
  });
  return [
    "### Gates",
    "",
    ...markdownTable(
      ["status", "gate", "measured", "bound", "margin", "detail"],
      ["left", "left", "right", "right", "right", "left"],
      rows,
    ),
    "",
    ...more(verdicts.length - shown.length, "gates"),
  ];
}

function latency(result: RunResult, caps: Caps, esc: (t: string) => string): string[] {
  const judged = result.stages.filter((s) => !s.warmup);
  if (judged.length === 0) return [];
  const base = result.baseline;
  const shown = judged.slice(0, caps.stages);
  const ks = ksByStage(result);
  const rows = shown.flatMap((s) => {
    const past = base?.stages.find((b) => b.index === s.index);
    const row = (kind: "response" | "service" | "ttfb", requests: string, errors: string) => [
      esc(s.name),
      kind === "response"
        ? "response time"
        : kind === "service"
        ? "service time"
        : result.run.grpc
        ? "time to first message"
        : "time to first byte",
      requests,
      errors,
      ...KEY_LATENCY_COLUMNS.map((c) => cell(s[kind]!, past?.[kind], c)),
      ...(base === undefined
        ? []
        : [kind === "response" && ks.has(s.index) ? ks.get(s.index)!.toFixed(3) : NO_FIGURE]),
    ];
    return [
      row("response", String(s.counts.completed), String(errorTotal(s.counts))),
      row("service", "", ""),
      ...(s.ttfb === undefined ? [] : [row("ttfb", "", "")]),
    ];
  });
  return [
    base === undefined ? "### Latency" : "### Latency vs baseline",
    "",
    ...(base === undefined ? [] : [baselineLine(base, esc), ""]),
    ...markdownTable(
      [
        "stage",
        "latency",
        "requests",
        "errors",
        ...KEY_LATENCY_COLUMNS.map(latencyColumnTitle),
        ...(base === undefined ? [] : ["shape (KS)"]),
      ],
      [
        "left",
        "left",
        "right",
        "right",
        ...KEY_LATENCY_COLUMNS.map(() => "right" as const),
        ...(base === undefined ? [] : ["right" as const]),
      ],
      rows,
    ),
    "",
    ...more(judged.length - shown.length, "stages"),
    ...(base === undefined ? [] : [
      "Shape (KS): the largest gap between this run's and the baseline's response-time " +
      "distributions (0: the same shape; 1: no overlap), shown even when the percentiles hold.",
      "",
    ]),
    "Response time runs from each request's intended send time (corrected for coordinated " +
    "omission); service time from its actual send" +
    (judged.some((s) => s.ttfb !== undefined)
      ? result.run.grpc
        ? "; time to first message (ttfb) from the intended send time to the end of the first " +
          "response message."
        : "; time to first byte from the intended send time to the response's first byte."
      : "."),
    "",
  ];
}

/** How many requests were rate limited, the Retry-After values, and when; nothing when none. */
function rateLimited(result: RunResult, esc: (t: string) => string): string[] {
  const sentence = rateLimitedSentence(result);
  return sentence === undefined ? [] : [`**Rate limited:** ${esc(sentence)}`, ""];
}

/** A gRPC run's server-streaming labels' messages per stream; nothing for any other run. */
function streams(result: RunResult, esc: (t: string) => string): string[] {
  const phrases = streamPhrases(result);
  return phrases.length === 0
    ? []
    : [`**Streams** (measured stages): ${esc(phrases.join(", "))}`, ""];
}

/** Each label's requests, errors by code, p50 and p99 over the measured stages. */
function labelTable(result: RunResult, caps: Caps, esc: (t: string) => string): string[] {
  const labels = labelRows(result, Math.min(LABEL_ROWS_SHOWN, caps.items));
  if (labels === undefined) return [];
  const ttfb = labels.ttfb ? [LABEL_TTFB_COLUMN] : [];
  return [
    "### Labels",
    "",
    ...markdownTable(
      [...LABEL_COLUMNS, ...ttfb],
      ["left", "right", "left", "right", "right", ...ttfb.map(() => "right" as const)],
      labels.rows.map((r) => [
        esc(r.label),
        String(r.requests),
        esc(r.errors),
        r.p50,
        r.p99,
        ...(labels.ttfb ? [r.ttfbP99] : []),
      ]),
    ),
    "",
    ...more(labels.hidden, "labels"),
    "Over the measured stages (warmup left out), the busiest labels first; p50 and p99 of the " +
    "response time" +
    (labels.ttfb ? `, p99 of the time to first ${result.run.grpc ? "message" : "byte"}.` : "."),
    "",
  ];
}

/** Each journey's row and its steps', over the measured stages. */
function journeyTable(result: RunResult, esc: (t: string) => string): string[] {
  const journeys = journeyRows(result);
  if (journeys === undefined) return [];
  return [
    "### Journeys",
    "",
    ...markdownTable(
      [...JOURNEY_COLUMNS],
      ["left", ...JOURNEY_COLUMNS.slice(1).map(() => "right" as const)],
      journeys.map((r) =>
        JOURNEY_COLUMNS.map((c, i) =>
          i === 0 ? (r.journey ? `**${esc(r[c])}**` : esc(r[c].trim())) : r[c]
        )
      ),
    ),
    "",
    "Journey time runs from the journey's intended start to its last step's end, think time " +
    "excluded (think: its mean per completed journey); a step's times run from its due time. " +
    "Per step, completed + skipped = started.",
    "",
  ];
}

function baselineLine(base: BaselineReference, esc: (t: string) => string): string {
  return `Deltas against the newest of ${base.runs} stored run${base.runs === 1 ? "" : "s"}, ` +
    `started ${esc(base.date)}${base.gitSha ? ` at commit ${esc(base.gitSha.slice(0, 12))}` : ""}.`;
}

function cell(
  now: EncodedHistogram,
  past: EncodedHistogram | undefined,
  column: (typeof KEY_LATENCY_COLUMNS)[number],
): string {
  const valueUs = latencyUs(now, column);
  if (valueUs === undefined) return NO_FIGURE;
  const shown = formatMetric(valueUs, "us");
  const pastUs = past === undefined ? undefined : latencyUs(past, column);
  if (pastUs === undefined) return shown;
  const deltaUs = valueUs - pastUs;
  const delta = deltaUs === 0 ? "±0" : `${deltaUs > 0 ? "+" : ""}${formatMetric(deltaUs, "us")}`;
  return `${shown} (${delta}, ${pastUs > 0 ? signedPercent(deltaUs / pastUs) : NO_FIGURE})`;
}

function health(result: RunResult, caps: Caps, esc: (t: string) => string): string[] {
  const h = result.health;
  const lagUs = h.sendLag.percentilesUs["99"];
  const share = h.intendedPerSec > 0
    ? ` (${Math.round((100 * h.achievedPerSec) / h.intendedPerSec)}%)`
    : "";
  const facts = [
    h.toolLimited
      ? `⚠️ **tool-limited**: ${esc(toolLimitedSummary(result) ?? "")}`
      : "✅ not tool-limited",
    `send lag p99 ${
      lagUs === undefined || h.sendLag.count === 0 ? NO_FIGURE : formatMetric(lagUs, "us")
    }`,
    `achieved ${formatRatePerSec(h.achievedPerSec)} of ${formatRatePerSec(h.intendedPerSec)} ` +
    `intended${share}`,
    ...(h.queueWait.count > 0
      ? [
        `${h.queueWait.count} requests waited for ${waitedFor(result)} (up to ` +
        `${formatDurationMs(h.queueWait.maxUs / 1000)}, counted in their response time)`,
      ]
      : []),
  ];
  const reasons = h.toolLimited ? h.reasons : [];
  const shown = reasons.slice(0, caps.items);
  const floor = floorSentence(result);
  return [
    `**Tool health:** ${facts.join(" · ")}`,
    "",
    ...(floor === undefined ? [] : [`**Measured floor:** ${esc(floor)}`, ""]),
    ...overTime(result, esc),
    ...(shown.length > 0 ? [...shown.map((r) => `- ${esc(r)}`), ""] : []),
    ...more(reasons.length - shown.length, "reasons"),
  ];
}

function warnings(list: readonly string[], caps: Caps, esc: (t: string) => string): string[] {
  if (list.length === 0) return [];
  const shown = list.slice(0, caps.items);
  return [
    "### Warnings",
    "",
    ...shown.map((w) => `- ⚠️ ${esc(w)}`),
    "",
    ...more(list.length - shown.length, "warnings"),
  ];
}

/** The data sources as a table, the vars on one line and the late renders (a templated plan). */
function traffic(t: TrafficRecord, caps: Caps, esc: (text: string) => string): string[] {
  const sources = t.sources.slice(0, caps.items);
  const vars = t.vars.slice(0, caps.items);
  const late = lateRenderSentence(t.lateRenders);
  return [
    "### Traffic",
    "",
    ...(sources.length === 0 ? [] : [
      ...markdownTable(
        ["source", "file", "rows", "order", "draws", "rows used", "wrapped"],
        ["left", "left", "right", "left", "right", "right", "right"],
        sources.map((s) => {
          const f = sourceFigures(s);
          return [esc(s.name), esc(s.file), f.rows, esc(s.order), f.draws, f.rowsUsed, f.wrapped];
        }),
      ),
      "",
    ]),
    ...more(t.sources.length - sources.length, "data sources"),
    ...(vars.length === 0
      ? []
      : [`**Vars:** ${vars.map((v) => `${esc(v.name)} (${esc(v.spec)})`).join(", ")}`, ""]),
    ...more(t.vars.length - vars.length, "vars"),
    ...(late === undefined ? [] : [`⚠️ **Rendered late:** ${late}.`, ""]),
  ];
}

/** The setup and teardown steps as a table. */
function steps(list: readonly StepRecord[], caps: Caps, esc: (text: string) => string): string[] {
  const shown = list.slice(0, caps.items);
  return [
    "### Setup and teardown",
    "",
    esc(STEPS_INTRO),
    "",
    ...markdownTable(
      [...STEP_COLUMNS],
      ["left", "left", "left", "right", "left"],
      stepRows(shown).map((row) => row.map(esc)),
    ),
    "",
    ...more(list.length - shown.length, "steps"),
  ];
}

function more(hidden: number, what: string): string[] {
  return hidden > 0 ? [`… ${hidden} more ${what} (see the HTML report)`, ""] : [];
}

/** Each check of each label: how many of its evaluations failed, one bullet each. */
function checksSection(result: RunResult): string[] {
  const { items, hidden } = checkLines(result);
  if (items.length === 0) return [];
  // The check and the label as code, whatever they hold (a backtick gets a wider fence).
  const code = (t: string) => t.includes("`") ? `\`\` ${t} \`\`` : `\`${t}\``;
  const more = hidden > 0 ? [`- … ${hidden} more (see the HTML report)`] : [];
  return [
    "### Checks",
    "",
    ...items.map((c) =>
      `- ${c.failed} of ${c.evaluated} ${code(c.text)} failed on ${code(c.label)}`
    ),
    ...more,
    "",
  ];
}

/** The time-domain findings (trends, stalls, two modes), one bullet per stage. */
function overTime(result: RunResult, esc: (text: string) => string): string[] {
  const lines = timeDomainLines(result);
  return lines.length ? ["**Over time:**", "", ...lines.map((l) => `- ${esc(l)}`), ""] : [];
}
