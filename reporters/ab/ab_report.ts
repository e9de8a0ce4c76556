/**
 * The A/B comparison's terminal summary and Markdown page: the verdict, one row per gated (stage,
 * label, metric) with base's and head's medians over the rounds, the change with its 95% interval
 * and the floor, the SLOs judged on head's runs, and the rounds in the order they ran. They read
 * only the A/B document.
 *
 * @module
 */
import {
  formatChange,
  formatChangeRange,
  formatMetric,
  median,
  undecidedWarning,
} from "../../runner/result/read/mod.ts";
import type { AbResult } from "../../runner/model/mod.ts";
import { printable } from "../../runner/plan/mod.ts";
import { markdownTable, markdownText } from "../text/mod.ts";

/** The comparison table's columns. */
export const AB_HEADER = ["status", "check", "base", "head", "change", "95% interval", "floor"];

/**
 * One row per comparison.
 */
export function abRows(ab: AbResult): string[][] {
  return ab.comparisons.map((c) => [
    c.status,
    c.name,
    c.base.length ? formatMetric(median(c.base), c.unit) : "-",
    c.head.length ? formatMetric(median(c.head), c.unit) : "-",
    c.base.length ? formatChange(c.change, c.metric === "error_rate") : "-",
    formatChangeRange(c.ci95[0], c.ci95[1], c.metric === "error_rate"),
    c.metric === "error_rate"
      ? `${+(c.floor * 100).toFixed(2)} points`
      : `${+(c.floor * 100).toFixed(1)}%`,
  ]);
}

/**
 * The verdict in one line.
 */
export function abHeadline(ab: AbResult): string {
  return `${ab.verdict.status.toUpperCase()}: ${ab.verdict.message}; ${ab.rounds.length} of ` +
    `${ab.settings.rounds} rounds, seed ${ab.settings.seed}${
      ab.complete ? "" : " (stopped early)"
    }`;
}

/**
 * The terminal summary.
 */
export function renderAbTerminal(ab: AbResult): string {
  // Names and messages quote the plan (its name, stages, labels, SLOs): one line each, inert.
  const p = printable;
  const rows = [AB_HEADER, ...abRows(ab).map((r) => r.map(p))];
  const widths = AB_HEADER.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const table = rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd());
  const undecided = ab.comparisons.filter((c) => c.status !== "pass")
    .map((c) => `  ${c.status}: ${p(c.name)}: ${p(c.message)}`);
  return [
    `A/B comparison: ${p(ab.plan.name)} (base ${p(ab.targets.base.url)}, head ${
      p(ab.targets.head.url)
    })`,
    ...table,
    ...undecided,
    ...ab.slos.map((s) => `SLO ${s.status}: ${p(s.name)} (${p(s.message)})`),
    `rounds: ${ab.rounds.map((r) => r.order.join("→")).join(", ")}`,
    ...[undecidedWarning(ab.verdict)].flatMap((w) => w ? [`WARNING: ${p(w)}`] : []),
    p(abHeadline(ab)),
  ].join("\n");
}

/**
 * The Markdown page.
 */
export function renderAbMarkdown(ab: AbResult): string {
  const esc = (t: string) => markdownText(t);
  return [
    `## A/B comparison: ${esc(ab.plan.name)}`,
    "",
    `**${esc(abHeadline(ab))}**`,
    "",
    ...[undecidedWarning(ab.verdict)].flatMap((w) => w ? [`> ⚠️ **Warning:** ${esc(w)}.`, ""] : []),
    `Base ${esc(ab.targets.base.url)} and head ${esc(ab.targets.head.url)} ran the plan in ` +
    `${ab.rounds.length} rounds on one machine, in a random order within each round. Each check ` +
    "compares the rounds pairwise: the change is head against base, better or worse (for " +
    "throughput a drop is worse), its 95% interval from the rounds' spread; a regression is worse than the floor beyond Holm's level, " +
    "ok is an interval within the floor.",
    "",
    ...markdownTable(
      AB_HEADER,
      ["left", "left", "right", "right", "right", "right", "right"],
      abRows(ab).map((r) => r.map(esc)),
    ),
    "",
    ...ab.comparisons.filter((c) => c.status !== "pass").map((c) =>
      `- **${c.status}** ${esc(c.name)}: ${esc(c.message)}`
    ),
    ...(ab.slos.length
      ? [
        "",
        "SLOs, judged on head's runs:",
        "",
        ...markdownTable(
          ["status", "SLO", "head's runs"],
          ["left", "left", "left"],
          ab.slos.map((s) => [s.status, esc(s.name), esc(s.perRound.join(", "))]),
        ),
      ]
      : []),
    "",
    `Rounds: ${ab.rounds.map((r) => `${r.index}: ${r.order.join(" then ")}`).join("; ")}.`,
    "",
  ].join("\n");
}
