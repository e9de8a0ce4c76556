/**
 * Parsers and formatters for the plan's units: durations (`250us`, `60s`, `1m30s`), rates (`20k/s`,
 * `600/m`) and percentages (`0.1%`). Pure functions; a failure says what is wrong and how to fix it.
 *
 * @module
 */

/** A parse outcome: the value, or a message with an optional hint that names the fix. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string; hint?: string };

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
 * import { parseDurationMs } from "./units.ts";
 * parseDurationMs("1m30s"); // { ok: true, value: 90000 }
 * parseDurationMs("60sec"); // { ok: false, message: "unknown unit `sec` in `60sec`", hint: "write `60s`" }
 * ```
 */
export function parseDurationMs(text: string | number): Parsed<number> {
  if (typeof text === "number") {
    return {
      ok: false,
      message: `duration \`${text}\` has no unit`,
      hint: `write \`${text}s\` or \`${text}ms\` (units: ns, us, ms, s, m, h)`,
    };
  }
  const source = text.trim();
  if (source === "") return { ok: false, message: "empty duration", hint: "write e.g. `60s`" };
  let rest = source;
  let totalMs = 0;
  while (rest.length > 0) {
    const m = DURATION_PART.exec(rest);
    if (!m) {
      return {
        ok: false,
        message: `\`${source}\` is not a duration`,
        hint: "write a number and a unit, e.g. `250us`, `10ms`, `60s`, `2m`, `1m30s`",
      };
    }
    const amount = Number(m[1]);
    const unit = m[2];
    if (unit === "") {
      return {
        ok: false,
        message: `duration \`${source}\` has no unit`,
        hint: `write \`${source}s\` or \`${source}ms\` (units: ns, us, ms, s, m, h)`,
      };
    }
    const factor = DURATION_UNITS_MS[unit];
    if (factor === undefined) {
      const fix = DURATION_SYNONYMS[unit] ?? DURATION_SYNONYMS[unit.toLowerCase()];
      return {
        ok: false,
        message: `unknown unit \`${unit}\` in \`${source}\``,
        hint: fix
          ? `write \`${source.replace(unit, fix)}\``
          : "units are ns, us (or µs), ms, s, m, h",
      };
    }
    if (amount < 0) {
      return {
        ok: false,
        message: `duration \`${source}\` is negative`,
        hint: "use a positive one",
      };
    }
    totalMs += amount * factor;
    rest = rest.slice(m[0].length).trimStart();
  }
  // A 400-digit number reads as Infinity: a run of infinite length would never end.
  if (!Number.isFinite(totalMs)) {
    return {
      ok: false,
      message: `duration \`${shorten(source)}\` is too large to be a number`,
      hint: "write a duration in s, m or h, e.g. `10m`",
    };
  }
  return { ok: true, value: totalMs };
}

const RATE = new RegExp(String.raw`^${NUMBER}\s*([kKmM]?)\s*(?:/\s*([a-zA-Z]+)|([a-zA-Z]*))$`);
const RATE_PER: Record<string, number> = { s: 1, sec: 1, second: 1, m: 1 / 60, min: 1 / 60 };
const RATE_MULTIPLIER: Record<string, number> = { "": 1, k: 1e3, K: 1e3, M: 1e6 };

/**
 * Parses a rate such as `20k/s`, `1.5M/m`, `500/s` or `600/m` into requests per second.
 *
 * @example
 * ```ts
 * import { parseRatePerSec } from "./units.ts";
 * parseRatePerSec("20k/s"); // { ok: true, value: 20000 }
 * parseRatePerSec("600/m"); // { ok: true, value: 10 }
 * ```
 */
export function parseRatePerSec(text: string | number): Parsed<number> {
  const source = String(text).trim();
  const m = RATE.exec(source);
  if (!m) {
    return {
      ok: false,
      message: `\`${source}\` is not a rate`,
      hint: "write requests per second or minute, e.g. `500/s`, `20k/s`, `1.5M/m`",
    };
  }
  const [, num, mult, per, suffix] = m;
  if (per === undefined) {
    const guess = `${num}${mult === "m" ? "M" : mult}/s`;
    const what = suffix === ""
      ? "has no unit"
      : `has unit \`${suffix}\`, which tailgate does not read`;
    return { ok: false, message: `rate \`${source}\` ${what}`, hint: `write \`${guess}\`` };
  }
  if (mult === "m") {
    return {
      ok: false,
      message: `\`m\` in rate \`${source}\` is ambiguous`,
      hint: `write \`${num}M/${per}\` for millions (k = thousand, M = million)`,
    };
  }
  const perFactor = RATE_PER[per] ?? RATE_PER[per.toLowerCase()];
  if (perFactor === undefined) {
    return {
      ok: false,
      message: `unknown time unit \`/${per}\` in rate \`${source}\``,
      hint: "rates are per second (`/s`) or per minute (`/m`)",
    };
  }
  const value = Number(num) * RATE_MULTIPLIER[mult] * perFactor;
  if (!Number.isFinite(value)) {
    return {
      ok: false,
      message: `rate \`${shorten(source)}\` is too large to be a number`,
      hint: "write a rate such as `20k/s`",
    };
  }
  if (!(value > 0)) {
    return { ok: false, message: `rate \`${source}\` must be above zero`, hint: "e.g. `100/s`" };
  }
  return { ok: true, value };
}

/**
 * Parses a percentage such as `0.1%` into a fraction (0.001).
 *
 * @example
 * ```ts
 * import { parsePercentFraction } from "./units.ts";
 * parsePercentFraction("0.1%"); // { ok: true, value: 0.001 }
 * ```
 */
export function parsePercentFraction(text: string): Parsed<number> {
  const source = text.trim();
  const m = new RegExp(String.raw`^${NUMBER}\s*%$`).exec(source);
  if (!m) {
    return { ok: false, message: `\`${source}\` is not a percentage`, hint: "write e.g. `0.1%`" };
  }
  const percent = Number(m[1]);
  if (percent < 0 || Object.is(percent, -0) || percent > 100) {
    return { ok: false, message: `percentage \`${source}\` is outside 0%..100%` };
  }
  return { ok: true, value: percent / 100 };
}

const SLOPE_PER_MIN: Record<string, number> = { s: 60, sec: 60, m: 1, min: 1, h: 1 / 60 };

/**
 * Parses a latency slope such as `1ms/min`, `50us/s` or `10ms/h` into microseconds per minute:
 * how fast a percentile may drift over a stage (the `trend(p99) < 1ms/min` SLO's bound).
 *
 * @example
 * ```ts
 * import { parseSlopeUsPerMin } from "./units.ts";
 * parseSlopeUsPerMin("1ms/min"); // { ok: true, value: 1000 }
 * parseSlopeUsPerMin("50us/s"); // { ok: true, value: 3000 }
 * ```
 */
export function parseSlopeUsPerMin(text: string): Parsed<number> {
  const source = text.trim();
  const slash = source.lastIndexOf("/");
  const hint = "write a duration per time, e.g. `1ms/min`, `50us/s`, `10ms/h`";
  if (slash < 0) return { ok: false, message: `\`${shorten(source)}\` is not a slope`, hint };
  const per = source.slice(slash + 1).trim();
  const factor = SLOPE_PER_MIN[per];
  if (factor === undefined) {
    return {
      ok: false,
      message: `unknown time unit \`${per}\` in \`${shorten(source)}\``,
      hint: "a slope is per `s`, `min` or `h`, e.g. `1ms/min`",
    };
  }
  const amount = parseDurationMs(source.slice(0, slash));
  if (!amount.ok) return { ok: false, message: amount.message, hint };
  return { ok: true, value: amount.value * 1000 * factor };
}

/**
 * Formats a slope in microseconds per minute: `1.2ms/min`, `-300us/min`.
 *
 * @example
 * ```ts
 * import { formatSlopeUsPerMin } from "./units.ts";
 * formatSlopeUsPerMin(1200); // "1.2ms/min"
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
 * import { formatDurationMs } from "./units.ts";
 * formatDurationMs(0.25); // "250us"
 * formatDurationMs(90_000); // "1.5m"
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
 * Formats requests per second as the plan language writes them: `500/s`, `20k/s`, `1.5M/s`.
 *
 * @example
 * ```ts
 * import { formatRatePerSec } from "./units.ts";
 * formatRatePerSec(20_000); // "20k/s"
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
 * import { rateText } from "./units.ts";
 * rateText(5000); // "5k/s"
 * rateText(12345.6); // "12345.6/s"
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
 * import { durationText } from "./units.ts";
 * durationText(6000); // "6s"
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
