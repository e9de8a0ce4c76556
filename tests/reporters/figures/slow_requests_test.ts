import assert from "node:assert/strict";
import {
  failedLatencyGates,
  isLatencyGate,
  slowestOf,
  slowFigures,
} from "../../../reporters/figures/slow_requests.ts";
import { reportResult } from "../../_helpers/report_fixtures.ts";
import { responseUsOf, traceIdOf, withoutSlowest, withSlowest } from "../_slowest_results.ts";
import type { SlowRequest, Verdict } from "../../../runner/model/run_result.ts";

Deno.test("slowestOf() merges the stages' lists slowest first, over every label when none is named", () => {
  const result = withSlowest(reportResult(), true);
  const top = slowestOf(result, [1, 2], undefined, 3);
  assert.deepEqual(
    top.map((r) => [r.stageIndex, r.label, r.responseUs, r.traceId]),
    [
      [2, "POST /order", responseUsOf(2, 1, 0), traceIdOf(2, 1, 0)],
      [2, "POST /order", responseUsOf(2, 1, 1), traceIdOf(2, 1, 1)],
      [2, "POST /order", responseUsOf(2, 1, 2), traceIdOf(2, 1, 2)],
    ],
  );
  // POST /order's ten (26.3 ms the least) all beat GET /cart's slowest, 24 ms.
  assert.equal(
    slowestOf(result, [1, 2], undefined, 20).findIndex((r) => r.label === "GET /cart"),
    10,
  );
});

Deno.test("slowestOf() keeps to the gate's label and stages", () => {
  const result = withSlowest(reportResult(), true);
  const cart = slowestOf(result, [1], "GET /cart", 30);
  assert.equal(cart.length, 10);
  assert.ok(cart.every((r) => r.stageIndex === 1 && r.label === "GET /cart"));
  assert.deepEqual(
    cart.map((r) => r.responseUs),
    [...cart.map((r) => r.responseUs)].sort((a, b) => b - a),
  );
  assert.deepEqual(slowestOf(result, [1], "no such label", 3), []);
  assert.deepEqual(
    slowestOf(withoutSlowest(reportResult()), [1, 2], undefined, 3),
    [],
    "a result without them",
  );
});

Deno.test("slowFigures() names statuses, gRPC's by name, a failure without one by its kind", () => {
  const base = { intendedMs: 61_000.4, responseUs: 1_250 };
  assert.deepEqual(slowFigures({ ...base, status: 503 }), {
    sentAt: "61.000 s",
    response: "1.25ms",
    status: "503",
  });
  assert.equal(slowFigures({ ...base, status: 1004 }).status, "DEADLINE_EXCEEDED");
  assert.equal(slowFigures({ ...base, status: 0, error: "reset" }).status, "reset");
  assert.equal(slowFigures({ ...base, status: 0 }).status, "no response");
});

Deno.test("slowFigures() leaves out a trace id that is not 32 hex digits", () => {
  const r = { intendedMs: 0, responseUs: 1, status: 200 };
  assert.equal(slowFigures({ ...r, traceId: "</code><script>x</script>" }).traceId, undefined);
  assert.equal(slowFigures({ ...r, traceId: "A".repeat(32) }).traceId, undefined);
  assert.equal(slowFigures({ ...r, traceId: "0".repeat(31) }).traceId, undefined);
});

Deno.test("failedLatencyGates() takes failed latency gates over stages, not error rates or passes", () => {
  const result = reportResult();
  assert.deepEqual(failedLatencyGates(result).map((v) => v.name), ["p90 < 1ms", "max < 1ms"]);
  const errorGate = result.verdicts.find((v) => v.unit === "fraction")!;
  assert.equal(isLatencyGate(errorGate), false);
  const noStage: Verdict = { ...failedLatencyGates(result)[0], stageIndexes: [] };
  result.verdicts = [noStage];
  assert.deepEqual(failedLatencyGates(result), []);
});

Deno.test("slowestOf() leaves out damaged entries of a result file instead of throwing", () => {
  const result = withSlowest(reportResult(), true);
  const [cart, order] = result.stages[2].labels;
  // deno-lint-ignore no-explicit-any
  (cart as any).slowest = "not a list";
  // deno-lint-ignore no-explicit-any
  (order.slowest as any[]).splice(0, 2, null, { intendedMs: "5", responseUs: 1e9, status: 200 });
  const top = slowestOf(result, [2], undefined, 3);
  assert.deepEqual(top.map((r) => r.traceId), [
    traceIdOf(2, 1, 2),
    traceIdOf(2, 1, 3),
    traceIdOf(2, 1, 4),
  ]);
  const damaged = { intendedMs: 0, responseUs: 1, status: 0, error: {} } as unknown as SlowRequest;
  assert.equal(slowFigures(damaged).status, "no response");
});
