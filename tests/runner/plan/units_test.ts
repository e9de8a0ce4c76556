import assert from "node:assert/strict";
import {
  formatDurationMs,
  formatLengthMs,
  formatRatePerSec,
  formatSlopeUsPerMin,
  parseDurationMs,
  parsePercentFraction,
  parseRatePerSec,
  parseSlopeUsPerMin,
} from "../../../runner/plan/units.ts";
import type { Result } from "../../../runner/model/result.ts";

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`expected a value, got: ${r.problems[0].message}`);
  return r.value;
}

Deno.test("parseDurationMs() reads every unit of the plan language", () => {
  assert.equal(value(parseDurationMs("500ns")), 0.0005);
  assert.equal(value(parseDurationMs("250us")), 0.25);
  assert.equal(value(parseDurationMs("250µs")), 0.25);
  assert.equal(value(parseDurationMs("1.5ms")), 1.5);
  assert.equal(value(parseDurationMs("60s")), 60_000);
  assert.equal(value(parseDurationMs("2m")), 120_000);
  assert.equal(value(parseDurationMs("1h")), 3_600_000);
});

Deno.test("parseDurationMs() adds compound durations such as 1m30s", () => {
  assert.equal(value(parseDurationMs("1m30s")), 90_000);
  assert.equal(value(parseDurationMs("1h 2m")), 3_720_000);
});

Deno.test("parseDurationMs() names the fix for a unit from another tool", () => {
  const r = parseDurationMs("60sec");
  assert.equal(r.ok, false);
  assert.ok(!r.ok && r.problems[0].message.includes("`sec`"));
  assert.ok(!r.ok && r.problems[0].hint === "write `60s`");
  const mins = parseDurationMs("2mins");
  assert.ok(!mins.ok && mins.problems[0].hint === "write `2m`");
});

Deno.test("parseDurationMs() refuses a bare number, since seconds and ms are both plausible", () => {
  const r = parseDurationMs(60);
  assert.ok(!r.ok && r.problems[0].message.includes("no unit"));
  assert.ok(!r.ok && r.problems[0].hint?.includes("`60s`"));
  assert.equal(parseDurationMs("60").ok, false);
});

Deno.test("parseDurationMs() refuses negative durations and junk", () => {
  assert.equal(parseDurationMs("-3s").ok, false);
  assert.equal(parseDurationMs("soon").ok, false);
  assert.equal(parseDurationMs("").ok, false);
});

Deno.test("parseRatePerSec() reads k and M multipliers per second and per minute", () => {
  assert.equal(value(parseRatePerSec("20k/s")), 20_000);
  assert.equal(value(parseRatePerSec("1.5M/s")), 1_500_000);
  assert.equal(value(parseRatePerSec("500/s")), 500);
  assert.equal(value(parseRatePerSec("600/m")), 10);
  assert.equal(value(parseRatePerSec("3k/min")), 50);
  assert.equal(value(parseRatePerSec("20k / s")), 20_000);
});

Deno.test("parseRatePerSec() refuses zero, negative and unitless rates with a fix", () => {
  assert.equal(parseRatePerSec("0/s").ok, false);
  assert.equal(parseRatePerSec("-5/s").ok, false);
  const bare = parseRatePerSec(20000);
  assert.ok(!bare.ok && bare.problems[0].hint === "write `20000/s`");
  const rps = parseRatePerSec("20krps");
  assert.ok(!rps.ok && rps.problems[0].hint === "write `20k/s`");
});

Deno.test("parseRatePerSec() refuses a lowercase m multiplier as ambiguous", () => {
  const r = parseRatePerSec("2m/s");
  assert.ok(!r.ok && r.problems[0].hint?.includes("2M/s"));
});

Deno.test("parsePercentFraction() turns percentages into fractions within 0..100%", () => {
  assert.equal(value(parsePercentFraction("0.1%")), 0.001);
  assert.equal(value(parsePercentFraction("5 %")), 0.05);
  assert.equal(parsePercentFraction("0.1").ok, false);
  assert.equal(parsePercentFraction("120%").ok, false);
});

Deno.test("formatDurationMs() and formatRatePerSec() write what the parsers read back", () => {
  for (const ms of [0.0005, 0.25, 1.5, 60_000, 90_000, 3_600_000]) {
    assert.equal(value(parseDurationMs(formatDurationMs(ms))), ms);
  }
  for (const rate of [10, 500, 20_000, 1_500_000]) {
    assert.equal(value(parseRatePerSec(formatRatePerSec(rate))), rate);
  }
  assert.equal(formatRatePerSec(20_000), "20k/s");
  assert.equal(formatDurationMs(0.25), "250us");
});

Deno.test("parseSlopeUsPerMin() reads a duration per s, min or h into µs per minute", () => {
  assert.deepEqual(parseSlopeUsPerMin("1ms/min"), { ok: true, value: 1_000 });
  assert.deepEqual(parseSlopeUsPerMin("50us/s"), { ok: true, value: 3_000 });
  assert.deepEqual(parseSlopeUsPerMin("60ms/h"), { ok: true, value: 1_000 });
  const day = parseSlopeUsPerMin("1ms/day");
  assert.ok(!day.ok && /unknown time unit `day`/.test(day.problems[0].message));
  const bare = parseSlopeUsPerMin("1ms");
  assert.ok(
    !bare.ok && /is not a slope/.test(bare.problems[0].message) &&
      /1ms\/min/.test(bare.problems[0].hint!),
  );
  assert.equal(formatSlopeUsPerMin(1_200), "1.2ms/min");
});

Deno.test("formatLengthMs() rounds a length up as a reader writes it, never 1.843m", () => {
  const cases: Array<[number, string]> = [
    [8_440, "9s"],
    [59_000, "59s"],
    [60_000, "1m"],
    [110_600, "1m 51s"],
    [599_000, "9m 59s"],
    [600_001, "11m"],
    [3_599_000, "1h"],
    [7_366_000, "2h 3m"],
    [7_200_000, "2h"],
    [36_000_001, "11h"],
  ];
  for (const [ms, text] of cases) assert.equal(formatLengthMs(ms), text, `${ms} ms`);
  // As plan text (a step, an SLO's window): no space, and it reads back.
  assert.equal(formatLengthMs(110_600, { compact: true }), "1m51s");
  const back = parseDurationMs(formatLengthMs(110_600, { compact: true }));
  assert.ok(back.ok && back.value === 111_000);
});
