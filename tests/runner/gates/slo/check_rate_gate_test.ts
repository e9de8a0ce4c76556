import assert from "node:assert/strict";
import { evaluateSlos } from "../../../../runner/gates/slo/evaluate_slos.ts";
import { checkCounts } from "../../../../runner/gates/slo/check_rate_gate.ts";
import type { RunResult, Verdict } from "../../../../runner/model/run_result.ts";
import { gateResult, uniformUs } from "../../../_helpers/gate_fixtures.ts";

const stage = () => ({
  ratePerSec: 1000,
  durationMs: 10_000,
  labels: [
    { label: "POST /orders", response: uniformUs(10_000, 500, 1500) },
    { label: "GET /orders", response: uniformUs(10_000, 500, 1500) },
  ],
});

/** A result whose labels checked `/state == open` with these failures (of 10,000 each). */
function result(slos: string[], failedPost: number, failedGet: number): RunResult {
  const r = gateResult([stage()], { slos });
  const [post, get] = r.stages[0].labels;
  post.checks = [{ text: "/state == open", line: 5, evaluated: 10_000, failed: failedPost }];
  get.checks = [
    { text: "/id exists", line: 9, evaluated: 10_000, failed: 0 },
    { text: "/state == open", line: 10, evaluated: 10_000, failed: failedGet },
  ];
  return r;
}

const judge = (slo: string, failedPost: number, failedGet: number): Verdict =>
  evaluateSlos(result([slo], failedPost, failedGet))[0];

Deno.test("check_rate counts one check's failures over every label with it", () => {
  const r = result([], 12, 8);
  assert.deepEqual(checkCounts(r.stages, "/state == open"), { evaluated: 20_000, failed: 20 });
  assert.deepEqual(checkCounts(r.stages, "/state == open", "GET /orders"), {
    evaluated: 10_000,
    failed: 8,
  });
  assert.deepEqual(checkCounts(r.stages, "/none"), { evaluated: 0, failed: 0 });
});

Deno.test("check_rate passes when the failed share is surely under its bound", () => {
  const v = judge('check_rate("/state == open") < 1%', 2, 0);
  assert.equal(v.status, "pass", v.message);
  assert.equal(v.measured, 2 / 20_000);
  assert.match(v.message, /\(2 of 20000 failed\)$/);
});

Deno.test("check_rate fails when the failed share is surely over its bound", () => {
  const v = judge('check_rate("/state == open") < 0.1%', 100, 100);
  assert.equal(v.status, "fail", v.message);
  assert.equal(v.measured, 0.01);
});

Deno.test("check_rate for a label reads that label's evaluations only", () => {
  const v = judge('check_rate("/state == open") < 0.1% for "POST /orders"', 0, 500);
  assert.equal(v.status, "pass", v.message);
  assert.equal(v.measured, 0);
  assert.equal(v.label, "POST /orders");
});

Deno.test("check_rate is inconclusive when its share cannot be told from the bound yet", () => {
  const v = judge('check_rate("/state == open") < 0.1%', 10, 10);
  assert.equal(v.status, "inconclusive", v.message);
});

Deno.test("check_rate with no evaluation of its check is inconclusive, not a pass", () => {
  const r = result(['check_rate("/state == open") < 1%'], 0, 0);
  for (const l of r.stages[0].labels) delete l.checks;
  const [v] = evaluateSlos(r);
  assert.equal(v.status, "inconclusive");
  assert.match(v.message, /no response was checked for `\/state == open`/);
});

Deno.test("check_rate <= 0% fails on a single failure: the count decides", () => {
  assert.equal(judge('check_rate("/state == open") <= 0%', 0, 0).status, "pass");
  assert.equal(judge('check_rate("/state == open") <= 0%', 1, 0).status, "fail");
});
