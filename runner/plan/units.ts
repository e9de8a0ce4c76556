/**
 * Parsers and formatters for the plan's units: durations (`250us`, `60s`, `1m30s`), rates (`20k/s`,
 * `600/m`) and percentages (`0.1%`). Pure functions; a failure says what is wrong and how to fix it.
 *
 * @module
 */

import { err, ok, type Problem, problem, type Result } from "../model/mod.ts";

/** A unit parse's outcome: the value, or the problem (its message and the fix). */
export type Parsed<T> = Result<T>;

const DURATION_UNITS_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  "µs": 1e-3,
  "μs": 1e-3,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

const DURATION_SYNONYMS: Record<string, string> = {
  sec: "s",
  secs: "s",
  second: "s",
  seconds: "s",
  min: "m",
  mins: "m",
  minute: "m",
  minutes: "m",
  hr: "h",
  hrs: "h",
  hour: "h",
  hours: "h",
  msec: "ms",
  msecs: "ms",
  millis: "ms",
  milliseconds: "ms",
  usec: "us",
  micros: "us",
  microseconds: "us",
  nsec: "ns",
  nanos: "ns",
  nanoseconds: "ns",
  S: "s",
  MS: "ms",
  M: "m",
  H: "h",
};

const NUMBER = String.raw`(-?\d+(?:\.\d+)?|-?\.\d+)`;
const DURATION_PART = new RegExp(String.raw`^${NUMBER}\s*([a-zA-Zµμ]*)`);

/**
 * Parses a duration such as `250us`, `1.5ms`, `60s`, `2m`, `1h` or `1m30s` into milliseconds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDurationMs } from "./units.ts";
 * assert.deepEqual(parseDurationMs("1m30s"), { ok: true, value: 90000 });
 * const bad = parseDurationMs("60sec");
 * assert.ok(!bad.ok);
 * assert.equal(bad.problems[0].message, "unknown unit `sec` in `60sec`");
 * assert.equal(bad.problems[0].hint, "write `60s`");
 * ```
 */
export function parseDurationMs(text: string | number): Result<number> {
  if (typeof text === "number") {
    return err(
      problem(
        `duration \`${text}\` has no unit`,
        `write \`${text}s\` or \`${text}ms\` (units: ns, us, ms, s, m, h)`,
      ),
    );
  }
  const source = text.trim();
  if (source === "") return err(problem("empty duration", "write e.g. `60s`"));
  let rest = source;
  let totalMs = 0;
  while (rest.length > 0) {
    const m = DURATION_PART.exec(rest);
    if (!m) {
      return err(
        problem(
          `\`${source}\` is not a duration`,
          "write a number and a unit, e.g. `250us`, `10ms`, `60s`, `2m`, `1m30s`",
        ),
      );
    }
    const amount = Number(m[1]);
    const unit = m[2];
    if (unit === "") {
      return err(
        problem(
          `duration \`${source}\` has no unit`,
          `write \`${source}s\` or \`${source}ms\` (units: ns, us, ms, s, m, h)`,
        ),
      );
    }
    const factor = DURATION_UNITS_MS[unit];
    if (factor === undefined) {
      const fix = DURATION_SYNONYMS[unit] ?? DURATION_SYNONYMS[unit.toLowerCase()];
      return err(
        problem(
          `unknown unit \`${unit}\` in \`${source}\``,
          fix ? `write \`${source.replace(unit, fix)}\`` : "units are ns, us (or µs), ms, s, m, h",
        ),
      );
    }
    if (amount < 0) {
      return err(problem(`duration \`${source}\` is negative`, "use a positive one"));
    }
    totalMs += amount * factor;
    rest = rest.slice(m[0].length).trimStart();
  }
  // A 400-digit number reads as Infinity: a run of infinite length would never end.
  if (!Number.isFinite(totalMs)) {
    return err(
      problem(
        `duration \`${shorten(source)}\` is too large to be a number`,
        "write a duration in s, m or h, e.g. `10m`",
      ),
    );
  }
  return ok(totalMs);
}

const RATE = new RegExp(String.raw`^${NUMBER}\s*([kKmM]?)\s*(?:/\s*([a-zA-Z]+)|([a-zA-Z]*))$`);
const RATE_PER: Record<string, number> = { s: 1, sec: 1, second: 1, m: 1 / 60, min: 1 / 60 };
const RATE_MULTIPLIER: Record<string, number> = { "": 1, k: 1e3, K: 1e3, M: 1e6 };

/**
 * Parses a rate such as `20k/s`, `1.5M/m`, `500/s` or `600/m` into requests per second.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRatePerSec } from "./units.ts";
 * assert.deepEqual(parseRatePerSec("20k/s"), { ok: true, value: 20000 });
 * assert.deepEqual(parseRatePerSec("600/m"), { ok: true, value: 10 });
 * ```
 */
export function parseRatePerSec(text: string | number): Result<number> {
  const source = String(text).trim();
  const m = RATE.exec(source);
  if (!m) {
    return err(
      problem(
        `\`${source}\` is not a rate`,
        "write requests per second or minute, e.g. `500/s`, `20k/s`, `1.5M/m`",
      ),
    );
  }
  const [, num, mult, per, suffix] = m;
  if (per === undefined) {
    const guess = `${num}${mult === "m" ? "M" : mult}/s`;
    const what = suffix === ""
      ? "has no unit"
      : `has unit \`${suffix}\`, which tailgate does not read`;
    return err(problem(`rate \`${source}\` ${what}`, `write \`${guess}\``));
  }
  if (mult === "m") {
    return err(
      problem(
        `\`m\` in rate \`${source}\` is ambiguous`,
        `write \`${num}M/${per}\` for millions (k = thousand, M = million)`,
      ),
    );
  }
  const perFactor = RATE_PER[per] ?? RATE_PER[per.toLowerCase()];
  if (perFactor === undefined) {
    return err(
      problem(
        `unknown time unit \`/${per}\` in rate \`${source}\``,
        "rates are per second (`/s`) or per minute (`/m`)",
      ),
    );
  }
  const value = Number(num) * RATE_MULTIPLIER[mult] * perFactor;
  if (!Number.isFinite(value)) {
    return err(
      problem(
        `rate \`${shorten(source)}\` is too large to be a number`,
        "write a rate such as `20k/s`",
      ),
    );
  }
  if (!(value > 0)) {
    return err(problem(`rate \`${source}\` must be above zero`, "e.g. `100/s`"));
  }
  return ok(value);
}

/** A ramp's two rates. */
export interface RampRates {
  fromPerSec: number;
  toPerSec: number;
}

/** A problem with a ramp: with the `side` whose rate is wrong, or without when it is no ramp. */
export interface RampProblem extends Problem {
  side?: "from" | "to";
}

/**
 * Parses a ramp, `1k/s -> 30k/s` (or `→`, `to`), into its two rates; a failure holds the problem
 * of each side that is wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRamp } from "./units.ts";
 * assert.deepEqual(parseRamp("1k/s -> 30k/s"), { ok: true, value: { fromPerSec: 1000, toPerSec: 30000 } });
 * ```
 */
export function parseRamp(text: string): Result<RampRates, RampProblem> {
  const parts = text.split(/\s*(?:->|→|\bto\b)\s*/);
  if (parts.length !== 2) {
    return err(problem(`\`${text}\` is not a ramp`, "write `ramp: 1k/s -> 30k/s` with `over: 2m`"));
  }
  const [from, to] = parts.map(parseRatePerSec);
  if (from.ok && to.ok) return ok({ fromPerSec: from.value, toPerSec: to.value });
  const sides = [["from", from], ["to", to]] as const;
  return err(sides.flatMap(([side, r]) => r.ok ? [] : r.problems.map((p) => ({ ...p, side }))));
}

/**
 * Parses a percentage such as `0.1%` into a fraction (0.001).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePercentFraction } from "./units.ts";
 * assert.deepEqual(parsePercentFraction("0.1%"), { ok: true, value: 0.001 });
 * ```
 */
export function parsePercentFraction(text: string): Result<number> {
  const source = text.trim();
  const m = new RegExp(String.raw`^${NUMBER}\s*%$`).exec(source);
  if (!m) {
    return err(problem(`\`${source}\` is not a percentage`, "write e.g. `0.1%`"));
  }
  const percent = Number(m[1]);
  if (percent < 0 || Object.is(percent, -0) || percent > 100) {
    return err(problem(`percentage \`${source}\` is outside 0%..100%`));
  }
  return ok(percent / 100);
}

const SLOPE_PER_MIN: Record<string, number> = { s: 60, sec: 60, m: 1, min: 1, h: 1 / 60 };

/**
 * Parses a latency slope such as `1ms/min`, `50us/s` or `10ms/h` into microseconds per minute:
 * how fast a percentile may drift over a stage (the `trend(p99) < 1ms/min` SLO's bound).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSlopeUsPerMin } from "./units.ts";
 * assert.deepEqual(parseSlopeUsPerMin("1ms/min"), { ok: true, value: 1000 });
 * assert.deepEqual(parseSlopeUsPerMin("50us/s"), { ok: true, value: 3000 });
 * ```
 */
export function parseSlopeUsPerMin(text: string): Result<number> {
  const source = text.trim();
  const slash = source.lastIndexOf("/");
  const hint = "write a duration per time, e.g. `1ms/min`, `50us/s`, `10ms/h`";
  if (slash < 0) return err(problem(`\`${shorten(source)}\` is not a slope`, hint));
  const per = source.slice(slash + 1).trim();
  const factor = SLOPE_PER_MIN[per];
  if (factor === undefined) {
    return err(
      problem(
        `unknown time unit \`${per}\` in \`${shorten(source)}\``,
        "a slope is per `s`, `min` or `h`, e.g. `1ms/min`",
      ),
    );
  }
  const amount = parseDurationMs(source.slice(0, slash));
  if (!amount.ok) return err(problem(amount.problems[0].message, hint));
  return ok(amount.value * 1000 * factor);
}

/**
 * Formats a slope in microseconds per minute: `1.2ms/min`, `-300us/min`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatSlopeUsPerMin } from "./units.ts";
 * assert.equal(formatSlopeUsPerMin(1200), "1.2ms/min");
 * ```
 */
export function formatSlopeUsPerMin(slopeUsPerMin: number): string {
  return `${formatDurationMs(slopeUsPerMin / 1000)}/min`;
}

/**
 * Formats milliseconds with the largest unit that keeps the value readable: `250us`, `1.5ms`, `2s`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatDurationMs } from "./units.ts";
 * assert.equal(formatDurationMs(0.25), "250us");
 * assert.equal(formatDurationMs(90_000), "1.5m");
 * ```
 */
export function formatDurationMs(durationMs: number): string {
  const abs = Math.abs(durationMs);
  if (abs === 0) return "0ms";
  if (abs < 1e-3) return `${round(durationMs * 1e6)}ns`;
  if (abs < 1) return `${round(durationMs * 1e3)}us`;
  if (abs < 1_000) return `${round(durationMs)}ms`;
  if (abs < 60_000) return `${round(durationMs / 1e3)}s`;
  if (abs < 3_600_000) return `${round(durationMs / 6e4)}m`;
  return `${round(durationMs / 3.6e6)}h`;
}

/**
 * A length to run or to set, rounded up to whole seconds as a reader writes it: `9s`, `1m 51s`,
 * `12m`, `2h 3m`, `11h` (never `1.843m`). `compact` leaves out the space, for plan text (`1m51s`
 * reads back as a duration, also inside an SLO).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatLengthMs } from "./units.ts";
 * assert.equal(formatLengthMs(110_600), "1m 51s");
 * assert.equal(formatLengthMs(110_600, { compact: true }), "1m51s");
 * ```
 */
export function formatLengthMs(durationMs: number, options: { compact?: boolean } = {}): string {
  const gap = options.compact ? "" : " ";
  const s = Math.max(1, Math.ceil(durationMs / 1000 - 1e-9));
  const two = (big: number, bigUnit: string, small: number, smallUnit: string) =>
    small === 0 ? `${big}${bigUnit}` : `${big}${bigUnit}${gap}${small}${smallUnit}`;
  if (s < 60) return `${s}s`;
  if (s < 600) return two(Math.floor(s / 60), "m", s % 60, "s");
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${minutes}m`;
  if (s < 36_000) return two(Math.floor(minutes / 60), "h", minutes % 60, "m");
  return `${Math.ceil(s / 3600)}h`;
}

/**
 * Formats requests per second as the plan language writes them: `500/s`, `20k/s`, `1.5M/s`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRatePerSec } from "./units.ts";
 * assert.equal(formatRatePerSec(20_000), "20k/s");
 * ```
 */
export function formatRatePerSec(ratePerSec: number): string {
  if (ratePerSec >= 1e6) return `${round(ratePerSec / 1e6)}M/s`;
  if (ratePerSec >= 1e3) return `${round(ratePerSec / 1e3)}k/s`;
  return `${round(ratePerSec)}/s`;
}

/**
 * A rate as plan text that reads back exactly: `5k/s` when that is exact, else `12345.6/s`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rateText } from "./units.ts";
 * assert.equal(rateText(5000), "5k/s");
 * assert.equal(rateText(12345.6), "12345.6/s");
 * ```
 */
export function rateText(ratePerSec: number): string {
  const short = formatRatePerSec(ratePerSec);
  const back = parseRatePerSec(short);
  return back.ok && Math.abs(back.value - ratePerSec) <= 1e-9 * ratePerSec
    ? short
    : `${Number(ratePerSec.toPrecision(12))}/s`;
}

/**
 * A duration as plan text that reads back exactly: `6s` when that is exact, else `1234.5ms`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { durationText } from "./units.ts";
 * assert.equal(durationText(6000), "6s");
 * ```
 */
export function durationText(durationMs: number): string {
  const short = formatDurationMs(durationMs);
  const back = parseDurationMs(short);
  return back.ok && Math.abs(back.value - durationMs) <= 1e-9 * durationMs
    ? short
    : `${Number(durationMs.toPrecision(12))}ms`;
}

function round(x: number): number {
  return Number(x.toPrecision(4));
}

/** A long source text cut for a message: its start and length. */
function shorten(text: string): string {
  return text.length <= 40 ? text : `${text.slice(0, 24)}… (${text.length} characters)`;
}
