import assert from "node:assert/strict";
import { problemText } from "../../../runner/model/result.ts";
import {
  describeTargetConfig,
  resolveTargetOptions,
  type TargetOptions,
} from "../../../runner/target/mod.ts";

Deno.test("describeTargetConfig names each mode's parameters", () => {
  const line = (options: TargetOptions) => {
    const result = resolveTargetOptions(options);
    assert.ok(result.ok);
    return describeTargetConfig(result.value);
  };
  assert.equal(line({ mode: "stall", stallMs: 2_000, periodMs: 10_000 }), "stall 2s every 10s");
  assert.equal(line({ mode: "bimodal", frac: 0.01, slowMs: 250 }), "1% at 250ms, the rest at 0ms");
  assert.equal(line({ mode: "first-n", firstN: 5, slowMs: 1_000 }), "first 5 at 0ms, then 1s");
  assert.equal(
    line({ mode: "faults", faultFrac: 0.5, faultKinds: ["reset"], seed: 4 }),
    "50% faults (reset), the rest 200 at 0ms, seed 4",
  );
  assert.equal(
    line({ mode: "capacity", servers: 8, delayMs: 2 }),
    "8 server(s) at 2ms each, one FIFO queue: capacity 4k/s",
  );
});

Deno.test("capacity mode needs whole servers and a service time, and says so", () => {
  const errors = (options: TargetOptions) => {
    const result = resolveTargetOptions(options);
    return result.ok ? [] : result.problems.map(problemText);
  };
  assert.deepEqual(errors({ mode: "capacity" }), []); // 4 servers x 10 ms: 400/s
  assert.match(errors({ mode: "capacity", servers: 0 })[0], /servers 0 must be a whole number/);
  assert.match(errors({ mode: "capacity", servers: 2.5 })[0], /servers 2.5 must be a whole number/);
  assert.match(
    errors({ mode: "capacity", delayMs: 0 })[0],
    /capacity needs a service time above zero/,
  );
});
