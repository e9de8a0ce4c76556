/**
 * The top of the HTML report: the overall verdict, the warnings every report must show, and the
 * gate table (status, what was judged, value against bound, margin, confidence interval).
 *
 * @module
 */
import {
  formatMetric,
  protocolText,
  runErrorsInWords,
  runVerdict,
  STATUS_SEVERITY,
  toolLimitedSummary,
  undecidedWarning,
} from "../../runner/result/read/mod.ts";
import { formatDurationMs } from "../../runner/plan/mod.ts";
import { errorTotal } from "../../runner/model/mod.ts";
import type { RunResult, Verdict, VerdictStatus } from "../../runner/model/mod.ts";
import { escapeHtml, htmlTable } from "../page/mod.ts";
import { verdictFigures } from "../figures/mod.ts";

/** The banner's outcome: the run's overall status, or "none" when no gate was evaluated. */
export type BannerStatus = VerdictStatus | "none";

/**
 * The outcome the banner shows: as {@linkcode runVerdict}, but "none" for a sound run without
 * verdicts (nothing was judged, so nothing passed).
 */
export function bannerStatus(result: RunResult): BannerStatus {
  const overall = runVerdict(result);
  return result.verdicts.length === 0 && overall.reason === undefined ? "none" : overall.status;
}

/**
 * The banner: the overall verdict in words, and what ran (the protocol among it).
 */
export function verdictBanner(result: RunResult): string {
  const overall = runVerdict(result);
  const status = bannerStatus(result);
  const count = (s: VerdictStatus) => overall.tally[s];
  const n = result.verdicts.length;
  const headline = {
    pass: `PASS: all ${n} gate${n === 1 ? "" : "s"} passed`,
    fail: overall.targetLost !== undefined
      ? `FAIL: ${overall.reason}`
      : `FAIL: ${count("fail")} of ${n} gate${n === 1 ? "" : "s"} failed`,
    inconclusive: `INCONCLUSIVE: ${count("inconclusive")} of ${n} gate${
      n === 1 ? "" : "s"
    } could not be decided by this run (${
      overall.regressionOnly
        ? "regression checks only: a warning; "
        : overall.runnerOnly
        ? "undecided for the runner's sake: a warning; "
        : ""
    }each says why and what would decide it)`,
    invalid: overall.reason !== undefined
      ? `INVALID: ${overall.reason}`
      : `INVALID: ${count("invalid")} of ${n} gate${n === 1 ? "" : "s"} could not be judged`,
    none: "NO GATES: this result was not judged against SLOs or a baseline",
  }[status];
  const t = result.totals.counts;
  const facts = [
    `${t.completed.toLocaleString("en-US")} of ${
      t.scheduled.toLocaleString("en-US")
    } requests completed`,
    `${errorTotal(t).toLocaleString("en-US")} errors` +
    (errorTotal(t) > 0 ? ` (${runErrorsInWords(result)})` : ""),
    `${formatDurationMs(result.run.durationMs)} run started ${result.run.startedAt}`,
    protocolText(result),
    ...(result.run.complete ? [] : [`stopped early (${result.run.stopReason})`]),
  ];
  return `<section class="banner banner-${status}" id="verdict">
<p class="eyebrow">tailgate load test · ${escapeHtml(result.plan.name)}</p>
<h1>${escapeHtml(headline)}</h1>
<p class="facts">${facts.map(escapeHtml).join(" · ")}</p>
</section>`;
}

/**
 * The warnings every report must show: regression checks that alone are undecided, the result's
 * own, an early stop, a tool-limited run.
 * Empty when there are none.
 */
export function warningsBox(result: RunResult): string {
  const undecided = undecidedWarning(runVerdict(result));
  const items: string[] = [
    ...(undecided === undefined ? [] : [`${undecided[0].toUpperCase()}${undecided.slice(1)}.`]),
    ...(result.warnings ?? []),
  ];
  if (!result.run.complete) {
    items.push(
      `The run was stopped early (${result.run.stopReason}): the numbers are what was measured ` +
        "until then.",
    );
  }
  if (result.health.toolLimited) {
    items.push(
      `Tool-limited: ${toolLimitedSummary(result)}. ` +
        `Why: ${result.health.reasons.join("; ") || "see tool health"}.`,
    );
  }
  if (items.length === 0) return "";
  return `<section class="warnings" id="warnings" role="alert"><h2>Warnings</h2><ul>${
    items.map((w) => `<li>${escapeHtml(w)}</li>`).join("")
  }</ul></section>`;
}

/**
 * The gate table: one row per verdict, failing gates first (fail, invalid, inconclusive, pass; the
 * plan's order within each).
 */
export function gateTable(
  verdicts: readonly Verdict[],
  note: (v: Verdict) => string = () => "",
): string {
  if (verdicts.length === 0) {
    return `<p class="muted">No gates were evaluated: the plan has no SLOs and no baseline was ` +
      "compared.</p>";
  }
  // What failed first: fail, invalid, inconclusive, pass (as the Markdown summary lists them).
  const rank = (v: Verdict) => STATUS_SEVERITY.indexOf(v.status);
  const sorted = [...verdicts].sort((a, b) => rank(a) - rank(b));
  const rows = sorted.map((v) => [v, verdictFigures(v)] as const).map(([v, f]) => [
    { html: `<span class="badge badge-${v.status}">${escapeHtml(v.status)}</span>` },
    {
      html: `<span class="kind">${v.implicit ? "implicit " : ""}${escapeHtml(v.kind)}</span> ${
        escapeHtml(v.name)
      }${
        v.line === undefined ? "" : ` <span class="muted">(plan line ${v.line})</span>`
      }<div class="message">${escapeHtml(v.message)}</div>${note(v)}`,
    },
    f.measured,
    f.bound,
    { html: escapeHtml(f.margin), className: (v.margin ?? 0) < 0 ? "bad" : "" },
    v.ci95 === undefined
      ? "-"
      : `${formatMetric(v.ci95[0], v.unit ?? "us")} – ${formatMetric(v.ci95[1], v.unit ?? "us")}`,
    {
      html: [
        v.marginal
          ? `<span class="badge badge-marginal">marginal: a rerun could flip it</span>`
          : "",
        v.ksDistance === undefined ? "" : `KS distance ${escapeHtml(v.ksDistance.toFixed(3))}`,
      ].filter(Boolean).join("<br>") || "-",
    },
  ]);
  return htmlTable(
    ["status", "gate", "measured", "bound", "margin", "95% CI", "note"],
    rows,
    { numeric: [2, 3, 4], className: "gates" },
  );
}
