import assert from "node:assert/strict";
import {
  marginText,
  signedPercent,
  verdictFigures,
} from "../../../reporters/figures/verdict_figures.ts";
import { judgedRun } from "../_judged_results.ts";

Deno.test("verdictFigures() formats a judged SLO's value and bound in its unit, and its margin signed", async () => {
  const result = await judgedRun({
    slos: ["p99 < 1ms", "error_rate < 1%", 'p99.99 < 5ms for "GET /a"'],
  });
  const [latency, errors, inconclusive] = result.verdicts;
  const f = verdictFigures(latency);
  assert.equal(f.bound, "1ms");
  assert.match(f.measured, /^1\.\d+ms$/);
  assert.equal(f.margin, signedPercent(latency.margin));
  assert.ok(f.margin.startsWith("-"), "a failed SLO's margin is negative");
  assert.equal(verdictFigures(errors).bound, "1%");
  // An undecided gate still shows what was measured.
  assert.deepEqual(verdictFigures(inconclusive), {
    measured: "1.5ms",
    bound: "5ms",
    margin: "+70%",
  });
  assert.deepEqual(verdictFigures({ ...latency, measured: undefined, censored: true }), {
    measured: "failed requests",
    bound: "1ms",
    margin: f.margin,
  });
  assert.deepEqual(
    verdictFigures({ ...latency, measured: undefined, bound: undefined }).bound,
    "-",
  );
});

Deno.test("signedPercent() signs, rounds to a tenth and survives infinities and missing values", () => {
  assert.equal(signedPercent(0.25), "+25%");
  assert.equal(signedPercent(-0.12345), "-12.3%");
  assert.equal(signedPercent(-0.00001), "+0%");
  assert.equal(signedPercent(-Infinity), "-∞%");
  assert.equal(signedPercent(null), "-");
  assert.equal(signedPercent(undefined), "-");
});

Deno.test("marginText(): far over an upper bound reads as times the bound, else a signed percentage", () => {
  assert.equal(marginText({ margin: -18.057, unit: "us" }), "19.1x the bound");
  assert.equal(marginText({ margin: -1, unit: "fraction" }), "2x the bound");
  assert.equal(marginText({ margin: -0.5, unit: "us" }), "-50%");
  assert.equal(marginText({ margin: 0.25, unit: "us" }), "+25%");
  // Throughput's bound is a floor: its shortfall stays a percentage.
  assert.equal(marginText({ margin: -0.9, unit: "per_sec" }), "-90%");
  assert.equal(marginText({ unit: "us" }), "-");
});
