import assert from "node:assert/strict";
import type { SearchStep } from "../../../runner/model/search_result.ts";
import type { Slo } from "../../../runner/plan/types.ts";
import { judgeRateSlos, searchVerdict } from "../../../runner/search/search_gates.ts";

const slo = (bound: number, operator: ">=" | ">" = ">="): Slo => ({
  text: `sustainable_rate ${operator} ${bound}/s`,
  metric: { kind: "sustainable_rate" },
  operator,
  bound,
  line: 4,
});
const step = (ratePerSec: number, outcome: SearchStep["outcome"], soak = false) => ({
  ratePerSec,
  outcome,
  soak,
  durationMs: 1000,
});
const bracketed = [step(100, "pass"), step(200, "pass"), step(400, "fail"), step(300, "fail")];

Deno.test("sustainable_rate passes on a held rate at its bound, fails on a broken one at or below it", () => {
  const [pass, fail, between, exact] = judgeRateSlos(
    [slo(200), slo(300), slo(250), slo(200, ">")],
    bracketed,
  );
  assert.equal(pass.status, "pass", pass.message);
  assert.equal(fail.status, "fail", fail.message);
  assert.match(fail.message, /300\/s already broke the SLOs/);
  assert.equal(between.status, "inconclusive");
  assert.match(between.message, /a run at the bound itself decides it/);
  // `> 200/s`: 200/s holding does not show more than 200/s.
  assert.equal(exact.status, "inconclusive");
  assert.equal(pass.line, 4);
});

Deno.test("a failed soak counts against the rate; other SLOs are not the search's gates", () => {
  const soaked = [step(100, "pass"), step(200, "pass"), step(200, "fail", true)];
  const [gate] = judgeRateSlos([slo(200)], soaked);
  assert.equal(gate.status, "fail");
  const latency: Slo = {
    ...slo(1),
    text: "p99 < 1ms",
    metric: { kind: "percentile", percentile: 99 },
  };
  assert.deepEqual(judgeRateSlos([latency], soaked), []);
});

Deno.test("the search's verdict: a fail over inconclusive over pass; no gate judges the finding", () => {
  const gate = (status: "pass" | "fail" | "inconclusive") => ({
    kind: "slo" as const,
    name: "g",
    status,
    message: "",
  });
  const found = { status: "found" as const, ratePerSec: 200, failPerSec: 300 };
  assert.equal(
    searchVerdict([gate("pass"), gate("fail"), gate("inconclusive")], found, true).status,
    "fail",
  );
  const undecided = searchVerdict([gate("pass"), gate("inconclusive")], found, true);
  assert.equal(undecided.status, "inconclusive");
  assert.equal(undecided.message, "2 gates: 1 inconclusive, 1 pass");
  assert.equal(searchVerdict([], found, true).status, "pass");
  assert.equal(searchVerdict([], found, false).status, "inconclusive");
  assert.equal(
    searchVerdict([], { status: "inconclusive", reason: "tailgate could not send 20k/s" }, true)
      .message,
    "tailgate could not send 20k/s",
  );
});
