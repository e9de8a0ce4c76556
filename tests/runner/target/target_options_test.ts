import assert from "node:assert/strict";
import { problemText } from "../../../runner/model/result.ts";
import {
  resolveTargetOptions,
  TARGET_DEFAULTS,
  type TargetOptions,
} from "../../../runner/target/mod.ts";

function errorsOf(options: TargetOptions): string[] {
  const result = resolveTargetOptions(options);
  return result.ok ? [] : result.problems.map(problemText);
}

Deno.test("resolveTargetOptions applies the defaults, 10ms for fixed mode's delay", () => {
  const stall = resolveTargetOptions({ mode: "stall" });
  assert.ok(stall.ok);
  assert.deepEqual(stall.value, { ...TARGET_DEFAULTS, mode: "stall" });
  const fixed = resolveTargetOptions({ mode: "fixed", port: 0 });
  assert.ok(fixed.ok);
  assert.equal(fixed.value.delayMs, 10);
  assert.equal(fixed.value.port, 0);
});

Deno.test("resolveTargetOptions refuses a non-loopback hostname unless listenAny", () => {
  assert.match(errorsOf({ mode: "hello", hostname: "0.0.0.0" }).join(), /non-loopback.*listen-any/);
  assert.deepEqual(errorsOf({ mode: "hello", hostname: "0.0.0.0", listenAny: true }), []);
  assert.deepEqual(errorsOf({ mode: "hello", hostname: "127.0.0.5" }), []);
});

Deno.test("resolveTargetOptions lists every problem at once", () => {
  const errors = errorsOf({
    mode: "stall",
    port: 70_000,
    stallMs: 3_000,
    periodMs: 2_000,
    frac: 1.5,
    firstN: -1,
    faultKinds: [],
    seed: 1.5,
  });
  assert.equal(errors.length, 6, errors.join("\n"));
  assert.match(errors.join("\n"), /stall 3s must be above zero and shorter than period 2s/);
});

Deno.test("resolveTargetOptions refuses negative and unbounded durations", () => {
  assert.match(
    errorsOf({ mode: "fixed", delayMs: -1 }).join(),
    /delay -1ms is out of range: use 0ms to 1h/,
  );
  assert.match(errorsOf({ mode: "fixed", delayMs: NaN }).join(), /delay NaN/);
  assert.match(errorsOf({ mode: "bimodal", slowMs: 1e10 }).join(), /slow 2778h is out of range/);
});
