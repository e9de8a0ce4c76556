/**
 * Validates the `slo` list: each line parses under the SLO grammar, binds to a stage that exists
 * (`at 20k/s`) and a request label that exists (`for "GET /orders"`), and asks for a percentile
 * the planned request count can support (a warning otherwise). `sustainable_rate` needs a `search`
 * section; a trend or stall count needs a measured stage long enough to show one (a warning).
 *
 * @module
 */
import type { YamlNode, YamlScalar } from "../read/mod.ts";
import { didYouMean } from "../read/mod.ts";
import { parseSlo } from "./parse_slo.ts";
import { join, type PlanReader } from "../read/mod.ts";
import { requestsToPass, requestsToPassSlo } from "./sample_sufficiency.ts";
import type { PlanLoad, PlanRequest, Slo, StageBinding } from "../types.ts";
import { formatDurationMs, formatLengthMs, formatRatePerSec } from "../units.ts";
import { plannedRequests } from "../validate_load.ts";

/** What the `slo` list is read against: each part undefined when it is too broken to tell. */
export interface SloContext {
  /** The load, when it is valid. */
  load?: PlanLoad;
  /** What an `at` rate binds to, also when a stage is broken. */
  stages?: StageBinding[];
  /** When command-line overrides moved the stages: makes each SLO follow the stages it judged. */
  follow?: SloFollow;
  /** The requests, when they are all valid. */
  requests?: PlanRequest[];
  /** Every request's label, also when a request is broken. */
  labels?: string[];
  /** The journeys' names. */
  journeys?: string[];
  /** The journeys' weights and step labels, when they are valid (a label's share of the mix). */
  journeyMix?: JourneyMix[];
  /** Every check of the plan: the label it is on and its text. */
  checks?: { label: string; text: string }[];
  hasSearch: boolean;
}

/** A journey's place in the mix: its weight, and its steps' labels (each sent once per journey). */
export interface JourneyMix {
  name: string;
  weight: number;
  steps: string[];
}

/**
 * Makes an SLO, bound to the stages as written, follow them where command-line overrides moved
 * them (runner/plan/overrides/follow_slos.ts); `warn` reports at the SLO's line.
 */
export type SloFollow = (
  slo: Slo,
  at: { item: YamlScalar; index: number; warn(message: string, hint?: string): void },
) => Slo;

/**
 * Reads the `slo` list against the plan's stages and requests: an unknown `at` rate or `for`
 * label is reported together with the stage's or request's own errors.
 */
export function readSlos(reader: PlanReader, node: YamlNode, plan: SloContext): Slo[] {
  const { load, requests, labels, hasSearch } = plan;
  const stages = load?.stages ?? plan.stages;
  const items = reader.list(node, "slo");
  if (items === undefined) return [];
  const out: Slo[] = [];
  items.forEach((item, i) => {
    const path = join("slo", i);
    const report: SloReport = {
      error: (message, hint) => reader.error(item, path, message, hint),
      warn: (message, hint) => reader.warn(item, path, message, hint),
    };
    const text = reader.string(item, path);
    if (text === undefined || item.kind !== "scalar") return;
    const parsed = parseSlo(text);
    if (!parsed.ok) {
      const { message, hint, offset, length } = parsed.problems[0];
      // Point into the SLO text: the caret sits under the part that is wrong.
      const col = item.pos.col + (item.contentOffset - item.offset) + offset;
      reader.errorAt({ line: item.pos.line, col }, length, path, message, hint);
      return;
    }
    const written: Slo = { ...parsed.value, line: item.pos.line };
    const slo = plan.follow?.(written, { item, index: i, warn: report.warn }) ?? written;
    const journeys = plan.journeys ?? [];
    if (slo.series === "journey") {
      if (slo.label === undefined ? journeys.length !== 1 : !journeys.includes(slo.label)) {
        const guess = slo.label === undefined ? undefined : didYouMean(slo.label, journeys);
        report.error(
          journeys.length === 0
            ? "the plan has no journey for `journey.` to judge"
            : slo.label === undefined
            ? "the plan has several journeys: say which one"
            : `no journey is named \`${slo.label}\``,
          guess
            ? `did you mean \`${guess}\`?`
            : journeys.length
            ? `write \`for "${journeys[0]}"\` (journeys: ${journeys.join(", ")})`
            : undefined,
        );
        return;
      }
    } else if (slo.metric.kind === "check_rate" && plan.checks !== undefined) {
      const check = slo.metric.check;
      const on = plan.checks.filter((c) =>
        c.text === check && (!slo.label || c.label === slo.label)
      );
      if (on.length === 0) {
        const guess = didYouMean(check, plan.checks.map((c) => c.text));
        report.error(
          `no check reads \`${check}\`${slo.label ? ` on \`${slo.label}\`` : ""}`,
          guess ? `did you mean \`${guess}\`?` : "name a check by its text, e.g. `/state == open`",
        );
        return;
      }
    }
    if (slo.series !== "journey" && slo.label !== undefined && labels !== undefined) {
      if (journeys.includes(slo.label)) {
        report.error(
          `\`${slo.label}\` is a journey: \`for\` names a request or step label here`,
          `write \`journey.${
            slo.text.trim().split(/\s/)[0]
          }\` to judge the journey, or a step's label, e.g. \`${slo.label} / …\``,
        );
        return;
      }
      if (!labels.includes(slo.label)) {
        const guess = didYouMean(slo.label, labels);
        report.error(
          `no request is labelled \`${slo.label}\``,
          guess ? `did you mean \`${guess}\`?` : `labels: ${labels.join(", ")}`,
        );
        return;
      }
    }
    if (slo.metric.kind === "sustainable_rate" && !hasSearch) {
      report.error(
        "`sustainable_rate` is what the capacity search finds, and the plan has no `search`",
        "add e.g. `search: { from: 1k/s, max: 100k/s }` and run `tailgate search`",
      );
      return;
    }
    if (stages !== undefined && !checkBinding(report, slo, stages)) return;
    if (load !== undefined && requests !== undefined) {
      warnIfTooShort(report, slo, load, requests, plan.journeyMix ?? []);
    }
    if (load !== undefined) warnIfNoTimeDomain(report, slo, load);
    out.push(slo);
  });
  return out;
}

/** Reports about one SLO of the list, located at its line. */
interface SloReport {
  error(message: string, hint?: string): void;
  warn(message: string, hint?: string): void;
}

/** The stages an SLO judges: the constant stages at its rate, or every non-warmup stage. */
export function stagesForSlo<S extends StageBinding>(
  slo: Pick<Slo, "atRatePerSec">,
  stages: readonly S[],
): S[] {
  if (slo.atRatePerSec === undefined) return stages.filter((s) => !s.warmup);
  return stages.filter((s: StageBinding) =>
    !s.warmup && s.kind === "constant" && sameRate(s.ratePerSec, slo.atRatePerSec!)
  );
}

function checkBinding(
  report: SloReport,
  slo: Slo,
  stages: readonly StageBinding[],
): boolean {
  if (slo.atRatePerSec === undefined || stagesForSlo(slo, stages).length > 0) return true;
  const rate = formatRatePerSec(slo.atRatePerSec);
  const warm = stages.some((s) =>
    s.kind === "constant" && s.warmup && sameRate(s.ratePerSec, slo.atRatePerSec!)
  );
  const rates = [
    ...new Set(
      stages.flatMap((s) =>
        s.kind === "constant" && !s.warmup ? [formatRatePerSec(s.ratePerSec)] : []
      ),
    ),
  ];
  report.error(
    warm ? `the only stage at ${rate} is a warmup, which gates skip` : `no stage runs at ${rate}`,
    rates.length ? `stages run at ${rates.join(", ")}` : "add a constant-rate stage at that rate",
  );
  return false;
}

function warnIfTooShort(
  report: SloReport,
  slo: Slo,
  load: PlanLoad,
  requests: PlanRequest[],
  journeys: JourneyMix[],
): void {
  if (slo.windowMs !== undefined) {
    return warnIfWindowTooShort(report, slo, load, requests, journeys);
  }
  if (slo.metric.kind !== "percentile") return;
  const stages = stagesForSlo(slo, load.stages);
  const share = labelShare(slo, requests, journeys);
  const planned = stages.reduce((sum, s) => sum + plannedRequests(s), 0) * share;
  const needed = requestsToPass(slo.metric.percentile);
  if (planned >= needed) return;
  const perSec = stages.reduce((sum, s) => sum + plannedRequests(s), 0) * share /
    (stages.reduce((sum, s) => sum + s.durationMs, 0) / 1000);
  const seconds = Math.ceil(needed / perSec);
  const things = slo.series === "journey" ? "journeys" : "requests";
  report.warn(
    `p${slo.metric.percentile} cannot pass with fewer than ${needed} ${things} (even with none ` +
      `beyond its bound); the plan ${slo.series === "journey" ? "starts" : "sends"} about ${
        Math.floor(planned)
      } ${slo.series === "journey" ? "" : "to it"}`.trimEnd(),
    `run at least ${
      formatLengthMs(seconds * 1000)
    } at this rate, or gate a lower percentile; otherwise the verdict is \`inconclusive\` ` +
      "(a clear failure still fails)",
  );
}

/**
 * A windowed SLO (`over 10s`): warns when no whole window fits in a bound stage, or when the
 * thinnest window (at a stage's lowest rate) holds too few requests for its figure to pass.
 */
function warnIfWindowTooShort(
  report: SloReport,
  slo: Slo,
  load: PlanLoad,
  requests: PlanRequest[],
  journeys: JourneyMix[],
): void {
  const windowMs = slo.windowMs!;
  const stages = stagesForSlo(slo, load.stages);
  // Windows run on across adjacent bound stages.
  let longestMs = 0;
  let runMs = 0;
  stages.forEach((s, i) => {
    runMs = i > 0 && stages[i - 1].index === s.index - 1 ? runMs + s.durationMs : s.durationMs;
    longestMs = Math.max(longestMs, runMs);
  });
  const windowText = formatDurationMs(windowMs);
  if (stages.length > 0 && longestMs < windowMs) {
    report.warn(
      `the stages this SLO binds to do not last ${windowText} in a row, so no whole window fits ` +
        `(the longest run lasts ${formatDurationMs(longestMs)})`,
      `shorten the window or lengthen the stage; otherwise the verdict is \`inconclusive\``,
    );
    return;
  }
  const m = slo.metric;
  if ((m.kind !== "percentile" && m.kind !== "error_rate") || stages.length === 0) return;
  const needed = requestsToPassSlo(m, slo.bound);
  const share = labelShare(slo, requests, journeys);
  const lowestPerSec = Math.min(
    ...stages.map((s) => s.kind === "constant" ? s.ratePerSec : Math.min(s.fromPerSec, s.toPerSec)),
  ) * share;
  const planned = lowestPerSec * windowMs / 1000;
  if (planned >= needed) return;
  const figure = m.kind === "percentile" ? `p${m.percentile}` : "error_rate";
  const seconds = lowestPerSec > 0 ? Math.ceil(needed / lowestPerSec) : Infinity;
  report.warn(
    `a ${windowText} window at ${formatRatePerSec(lowestPerSec)} holds about ${
      Math.floor(planned)
    } requests, and ${figure} cannot pass with fewer than ${needed} (even with none beyond its ` +
      "bound)",
    (Number.isFinite(seconds)
      ? `use \`over ${seconds}s\` or more, or a higher rate`
      : "raise the rate") +
      "; otherwise those windows are `inconclusive` (a clear failure still fails)",
  );
}

/**
 * How many of the figures an SLO judges one arrival brings, on average: its label's weight (a
 * step's is its journey's, sent at most once per journey), its journey's for `journey.`, or every
 * request an arrival sends (a journey's steps each at most once: the most it can send).
 */
function labelShare(slo: Slo, requests: PlanRequest[], journeys: JourneyMix[]): number {
  if (slo.series === "journey") {
    const named = slo.label === undefined ? journeys : journeys.filter((j) => j.name === slo.label);
    return named.reduce((sum, j) => sum + j.weight, 0) / totalWeightOf(requests, journeys);
  }
  if (slo.label === undefined) {
    const perArrival = requests.reduce((sum, r) => sum + r.weight, 0) +
      journeys.reduce((sum, j) => sum + j.weight * j.steps.length, 0);
    return perArrival / totalWeightOf(requests, journeys);
  }
  const weight = requests.find((r) => r.label === slo.label)?.weight ??
    journeys.find((j) => j.steps.includes(slo.label!))?.weight ?? 0;
  return weight / totalWeightOf(requests, journeys);
}

function totalWeightOf(requests: PlanRequest[], journeys: JourneyMix[]): number {
  return requests.reduce((sum, r) => sum + r.weight, 0) +
    journeys.reduce((sum, j) => sum + j.weight, 0);
}

/** Whole seconds a trend or a stall count needs (one point per 1 s interval). */
export const TIME_DOMAIN_MIN_SECONDS = 10;

function warnIfNoTimeDomain(
  report: SloReport,
  slo: Slo,
  load: PlanLoad,
): void {
  const kind = slo.metric.kind;
  if (kind !== "trend" && kind !== "stalls") return;
  const stages = stagesForSlo(slo, load.stages).filter((s) =>
    kind === "stalls" || s.kind === "constant"
  );
  const longest = Math.max(0, ...stages.map((s) => s.durationMs));
  if (longest >= TIME_DOMAIN_MIN_SECONDS * 1000) return;
  report.warn(
    kind === "trend"
      ? `a trend is measured over a constant-rate stage of at least ${TIME_DOMAIN_MIN_SECONDS}s ` +
        "(one point a second), and this SLO binds none"
      : `stalls are counted over at least ${TIME_DOMAIN_MIN_SECONDS}s of a stage, and this SLO ` +
        "binds none that long",
    `add a constant stage of ${TIME_DOMAIN_MIN_SECONDS}s or more; otherwise the verdict is ` +
      "`inconclusive` (a clear failure still fails)",
  );
}

function sameRate(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(a, b);
}
