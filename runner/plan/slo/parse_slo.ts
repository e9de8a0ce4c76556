/**
 * The SLO grammar (docs/plan.md):
 *
 * ```
 * slo    = metric op bound [ "at" rate ] [ "for" '"' label '"' ] [ "over" duration ]
 * metric = "p" number | number "%ile" | "max" | "mean" | "error_rate" | "throughput"
 *        | "trend(p50)" | "trend(p99)" | "stalls" | "sustainable_rate"
 * op     = "<" | "<=" | ">" | ">=" | "==" (only `stalls == 0`)
 * ```
 *
 * Latency bounds are durations, `error_rate` bounds are percentages, `throughput` and
 * `sustainable_rate` bounds are rates, a trend's bound is a slope (`1ms/min`) and `stalls` a count.
 * `trend`, `stalls` and `sustainable_rate` judge all of a stage's requests (no `for`), and
 * `sustainable_rate` is the capacity search's finding (no `at`: the search picks its rates).
 * `over 10s` (percentiles, `max`, `mean`, `error_rate`) judges every window of that many whole
 * seconds, stepping by 1 s, instead of the stages as a whole. Pure; a
 * failure carries the offset and length of the offending part so errors point at it.
 *
 * @module
 */
import type { Slo, SloMetric, SloOperator } from "../types.ts";
import {
  parseDurationMs,
  parsePercentFraction,
  parseRatePerSec,
  parseSlopeUsPerMin,
} from "../units.ts";
import { didYouMean } from "../read/mod.ts";
import { err, ok, type Problem, problem, type Result } from "../../model/mod.ts";

/** A parsed SLO, without its source line (the caller knows it). */
export type ParsedSlo = Omit<Slo, "line">;

/** A failed SLO parse: what is wrong, where in the string (0-based offset, length), and a fix. */
export interface SloParseError extends Problem {
  /** Where the offending part starts in the SLO string (0-based). */
  offset: number;
  /** How many characters the offending part spans. */
  length: number;
}

const METRIC_WORDS = [
  "max",
  "mean",
  "error_rate",
  "throughput",
  "trend",
  "stalls",
  "sustainable_rate",
];
const METRIC_SYNONYMS: Record<string, string> = {
  avg: "mean",
  average: "mean",
  maximum: "max",
  errors: "error_rate",
  error: "error_rate",
  errorrate: "error_rate",
  "error-rate": "error_rate",
  rps: "throughput",
  qps: "throughput",
  rate: "throughput",
  stall: "stalls",
  pauses: "stalls",
  slope: "trend",
  drift: "trend",
  capacity: "sustainable_rate",
  sustainable: "sustainable_rate",
  max_rate: "sustainable_rate",
};
const EXAMPLES = "e.g. `p99.9 < 10ms at 20k/s`, `max < 1s`, `error_rate < 0.1%`";

/**
 * Parses one SLO line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSlo } from "./parse_slo.ts";
 * const r = parseSlo('p99.9 < 10ms at 20k/s for "GET /orders"');
 * assert.ok(r.ok);
 * assert.deepEqual(r.value.metric, { kind: "percentile", percentile: 99.9 });
 * assert.equal(r.value.operator, "<");
 * assert.equal(r.value.bound, 10000);
 * assert.equal(r.value.atRatePerSec, 20000);
 * assert.equal(r.value.label, "GET /orders");
 * ```
 */
export function parseSlo(
  text: string,
): Result<ParsedSlo, SloParseError> {
  const fail = (message: string, offset: number, length: number, hint?: string) =>
    err({ message, hint, offset, length: Math.max(1, length) });
  const failWith = (p: Problem, offset: number, length: number) =>
    fail(p.message, offset, length, p.hint);
  let pos = skipSpace(text, 0);
  // `journey.p99`, `ttfb.p99`: which times a latency SLO reads (docs/decisions/journeys.md).
  const seriesMatch = /^(journey|ttfb)\./.exec(text.slice(pos));
  const series = seriesMatch?.[1] as "journey" | "ttfb" | undefined;
  if (seriesMatch) pos += seriesMatch[0].length;
  const checkRate = /^check_rate\s*\(\s*(["'])(.*?)\1\s*\)/.exec(text.slice(pos));
  if (/^check_rate\b/.test(text.slice(pos)) && (!checkRate || checkRate[2].trim() === "")) {
    return fail(
      "`check_rate` needs the check it counts, in quotes",
      pos,
      10,
      'e.g. `check_rate("/state == open") < 0.1%`',
    );
  }
  const metricMatch = /^(?:p(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*%ile|([A-Za-z_][\w-]*))/.exec(
    text.slice(pos),
  );
  if (!metricMatch) {
    return fail("an SLO starts with what it measures", pos, 1, EXAMPLES);
  }
  let metric: SloMetric;
  let metricLength = metricMatch[0].length;
  const percentileText = metricMatch[1] ?? metricMatch[2];
  if (series && (percentileText === undefined && !["max", "mean"].includes(metricMatch[3]))) {
    return fail(
      `\`${series}.\` goes before a percentile, \`max\` or \`mean\``,
      pos,
      metricMatch[0].length,
      `e.g. \`${series}.p99 < 200ms\``,
    );
  }
  if (checkRate) {
    metric = { kind: "check_rate", check: checkRate[2] };
    metricLength = checkRate[0].length;
  } else if (percentileText !== undefined) {
    const percentile = Number(percentileText);
    if (percentile >= 100) {
      return fail(
        `percentile ${percentileText} is not below 100`,
        pos,
        metricMatch[0].length,
        "use `max`",
      );
    }
    if (percentile <= 0) {
      return fail(`percentile ${percentileText} must be above 0`, pos, metricMatch[0].length);
    }
    metric = { kind: "percentile", percentile };
  } else {
    const word = metricMatch[3];
    if (!METRIC_WORDS.includes(word)) {
      const guess = didYouMean(word, METRIC_WORDS, METRIC_SYNONYMS);
      return fail(
        `unknown SLO metric \`${word}\``,
        pos,
        word.length,
        guess
          ? `did you mean \`${guess}\`?`
          : `write pNN (p99, p99.9), max, mean, error_rate, throughput, trend(p99), stalls ` +
            "or sustainable_rate",
      );
    }
    if (word === "trend") {
      const arg = /^\s*\(\s*p(\d+(?:\.\d+)?)\s*\)/.exec(text.slice(pos + word.length));
      if (!arg || (arg[1] !== "50" && arg[1] !== "99")) {
        return fail(
          "`trend` needs the percentile it follows: `trend(p50)` or `trend(p99)`",
          pos,
          word.length + (arg?.[0].length ?? 0),
          "e.g. `trend(p99) < 1ms/min`",
        );
      }
      metric = { kind: "trend", percentile: arg[1] === "50" ? 50 : 99 };
      metricLength = word.length + arg[0].length;
    } else metric = { kind: word } as SloMetric;
  }
  pos = skipSpace(text, pos + metricLength);

  const opMatch = /^(<=|>=|<|>|==?|!=)/.exec(text.slice(pos));
  const stallsEqual = metric.kind === "stalls" && opMatch?.[1] === "==";
  if (!opMatch || ((opMatch[1].startsWith("=") || opMatch[1] === "!=") && !stallsEqual)) {
    const found = opMatch?.[1] ?? text.slice(pos).split(/\s/)[0];
    return fail(
      found ? `expected <, <=, > or >= but found \`${found}\`` : "the SLO ends before its operator",
      pos,
      found.length,
      EXAMPLES,
    );
  }
  const operator: SloOperator = stallsEqual ? "<=" : opMatch[1] as SloOperator;
  const wantsUpper = metric.kind !== "throughput" && metric.kind !== "sustainable_rate";
  if (wantsUpper !== operator.startsWith("<")) {
    return fail(
      wantsUpper
        ? `\`${operator}\` would set a floor on ${
          metric.kind === "error_rate"
            ? "errors"
            : metric.kind === "stalls"
            ? "stalls"
            : metric.kind === "trend"
            ? "a trend"
            : "latency"
        }`
        : `\`${metric.kind}\` is judged against a floor`,
      pos,
      operator.length,
      wantsUpper ? "use `<` or `<=`" : "use `>=` or `>`",
    );
  }
  pos = skipSpace(text, pos + opMatch[1].length);

  const boundText = /^\S+/.exec(text.slice(pos))?.[0] ?? "";
  if (boundText === "") return fail("the SLO ends before its bound", pos, 1, EXAMPLES);
  const boundParse = metric.kind === "throughput" || metric.kind === "sustainable_rate"
    ? parseRatePerSec(boundText)
    : metric.kind === "error_rate" || metric.kind === "check_rate"
    ? parsePercentFraction(boundText)
    : metric.kind === "trend"
    ? parseSlopeUsPerMin(boundText)
    : metric.kind === "stalls"
    ? parseCount(boundText)
    : parseDurationMs(boundText);
  if (!boundParse.ok) return failWith(boundParse.problems[0], pos, boundText.length);
  if (stallsEqual && boundParse.value !== 0) {
    return fail(
      "`==` only says `stalls == 0`",
      pos,
      boundText.length,
      `write \`stalls <= ${boundParse.value}\``,
    );
  }
  if (metric.kind === "stalls" && operator === "<" && boundParse.value === 0) {
    return fail("no count of stalls is below 0", pos, boundText.length, "write `stalls == 0`");
  }
  const isLatency = metric.kind === "percentile" || metric.kind === "max" || metric.kind === "mean";
  const bound = isLatency ? boundParse.value * 1000 : boundParse.value;
  if (isLatency && !(bound > 0)) {
    return fail("a latency bound must be above zero", pos, boundText.length);
  }
  const never = neverPasses(metric, operator, bound);
  if (never) return failWith(never, pos, boundText.length);
  pos = skipSpace(text, pos + boundText.length);

  const slo: ParsedSlo = { text, metric, operator, bound, ...(series ? { series } : {}) };
  while (pos < text.length) {
    const word = /^\S+/.exec(text.slice(pos))![0];
    if ((word === "at" || word === "for") && metric.kind === "sustainable_rate") {
      return fail(
        `\`sustainable_rate\` takes no \`${word}\``,
        pos,
        word.length,
        "the search tries its own rates and judges every SLO of the plan at each",
      );
    }
    if (word === "for" && (metric.kind === "trend" || metric.kind === "stalls")) {
      return fail(
        `\`${metric.kind === "trend" ? "trend" : "stalls"}\` takes no \`for\``,
        pos,
        word.length,
        "trends and stalls are judged on all of a stage's requests; bind a stage with `at <rate>`",
      );
    }
    if (word === "over" && slo.windowMs === undefined) {
      const start = pos;
      pos = skipSpace(text, pos + 4);
      const windowed = ["percentile", "max", "mean", "error_rate"].includes(metric.kind);
      if (!windowed) {
        return fail(
          `\`${metric.kind}\` takes no \`over\``,
          start,
          4,
          "a window suits a percentile, `max`, `mean` or `error_rate`: e.g. `p99 < 50ms over 10s`",
        );
      }
      const spanText = /^\S+/.exec(text.slice(pos))?.[0] ?? "";
      if (spanText === "") return fail("`over` needs a window length", pos, 1, "e.g. `over 10s`");
      const span = parseDurationMs(spanText);
      if (!span.ok) return failWith(span.problems[0], pos, spanText.length);
      if (!(span.value >= 1000) || span.value % 1000 !== 0) {
        const seconds = Math.max(1, Math.round(span.value / 1000));
        return fail(
          `a window is a whole number of seconds (the run's intervals are 1 s), not ${spanText}`,
          pos,
          spanText.length,
          `write \`over ${seconds}s\``,
        );
      }
      slo.windowMs = span.value;
      pos = skipSpace(text, pos + spanText.length);
    } else if (word === "at" && slo.atRatePerSec === undefined) {
      pos = skipSpace(text, pos + 2);
      const rateText = /^\S+/.exec(text.slice(pos))?.[0] ?? "";
      if (rateText === "") return fail("`at` needs a rate", pos, 1, "e.g. `at 20k/s`");
      const rate = parseRatePerSec(rateText);
      if (!rate.ok) return failWith(rate.problems[0], pos, rateText.length);
      slo.atRatePerSec = rate.value;
      pos = skipSpace(text, pos + rateText.length);
    } else if (word === "for" && slo.label === undefined) {
      pos = skipSpace(text, pos + 3);
      const quoted = /^(["'])(.*?)\1/.exec(text.slice(pos));
      if (!quoted) {
        const rest = text.slice(pos);
        return fail(
          "`for` needs a request label in quotes",
          pos,
          Math.max(1, rest.length),
          rest ? `write \`for "${rest}"\`` : undefined,
        );
      }
      if (quoted[2].trim() === "") return fail("the label is empty", pos, quoted[0].length);
      slo.label = quoted[2];
      pos = skipSpace(text, pos + quoted[0].length);
    } else {
      return fail(
        `unexpected \`${word}\``,
        pos,
        word.length,
        'after the bound come only `at <rate>`, `for "<label>"` and `over <window>`',
      );
    }
  }
  return ok(slo);
}

/**
 * Why an upper bound no measurement can meet is refused (it would fail every run, a healthy
 * server's included): no error rate is below 0%, and latency is recorded in whole microseconds.
 */
function neverPasses(
  metric: SloMetric,
  operator: SloOperator,
  bound: number,
): Problem | undefined {
  const strict = operator === "<";
  if (metric.kind === "error_rate" && strict && bound <= 0) {
    return {
      message: "no error rate is below 0%, so this SLO would fail every run",
      hint: "write `error_rate <= 0%` to allow no errors at all",
    };
  }
  const latency = metric.kind === "percentile" || metric.kind === "max" || metric.kind === "mean";
  if (latency && (strict ? bound <= 1 : bound < 1)) {
    return {
      message: "tailgate measures latency in whole microseconds and none is below 1us, so this " +
        "SLO can never pass",
      hint: "write a bound of 2us or more (`<= 1us` at the least)",
    };
  }
  return undefined;
}

function parseCount(text: string): Result<number> {
  return /^\d+$/.test(text) && Number.isSafeInteger(Number(text))
    ? ok(Number(text))
    : err(problem(`\`${text}\` is not a count of stalls`, "e.g. `stalls == 0`"));
}

function skipSpace(text: string, pos: number): number {
  while (pos < text.length && /\s/.test(text[pos])) pos++;
  return pos;
}
