import assert from "node:assert/strict";
import { logGamma } from "../../../../runner/gates/stats/log_gamma.ts";

const close = (a: number, b: number, rel = 1e-9) =>
  assert.ok(Math.abs(a - b) <= rel * Math.max(Math.abs(b), 1e-300), `${a} vs ${b}`);

Deno.test("logGamma() gives factorials and the half-integer value", () => {
  close(Math.exp(logGamma(11)), 3_628_800);
  close(Math.exp(logGamma(0.5)), Math.sqrt(Math.PI));
  close(logGamma(1_000_001), 12_815_518.384_658_169, 1e-12); // ln(10^6!)
});
