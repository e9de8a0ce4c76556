import assert from "node:assert/strict";
import { carrySlos, storedSlos } from "../../../../runner/result/read/stored_slos.ts";
import { planRecord } from "../../../../runner/result/plan_record.ts";
import { parsePlanText } from "../../../../runner/plan/load_plan.ts";

const PLAN = `name: s
target: http://127.0.0.1:8080
requests: [{ name: GET /a, path: /a }]
load: { connections: 2, stages: [{ rate: 1k/s, duration: 10s }] }
slo: [p99 < 10ms at 1k/s, 'error_rate < 1% for "GET /a"']
`;

Deno.test("a result built from a plan carries the SLOs the plan read, stored as written", () => {
  const { plan } = parsePlanText(PLAN);
  assert.ok(plan);
  const record = planRecord(plan);
  assert.deepEqual(JSON.parse(JSON.stringify(record.slos)), [
    { text: "p99 < 10ms at 1k/s", line: 5 },
    { text: 'error_rate < 1% for "GET /a"', line: 5 },
  ]);
  const slos = storedSlos(record);
  assert.deepEqual(
    slos.map((s) => s.parsed.ok && s.parsed.value),
    plan.slos.map(({ line: _line, ...slo }) => slo),
  );
  assert.equal(storedSlos(record), slos, "read once, not again");
});

Deno.test("a carried SLO is the plan's reading, not its text's", () => {
  // A search step drops an SLO's `at` rate and keeps its text: the step judges what it carries.
  const stored = [{ text: "p99 < 5ms at 1k/s", line: 3 }];
  carrySlos(stored, [{
    text: "p99 < 5ms at 1k/s",
    metric: { kind: "percentile", percentile: 99 },
    operator: "<",
    bound: 5000,
    line: 3,
  }]);
  const [slo] = storedSlos({ slos: stored });
  assert.ok(slo.parsed.ok);
  assert.equal(slo.parsed.value.atRatePerSec, undefined);
});

Deno.test("a stored SLO that does not parse says why; one added to the list later is read too", () => {
  const plan = { slos: [{ text: "p100 < 1s", line: 4 }] };
  const [bad] = storedSlos(plan);
  assert.equal(bad.parsed.ok, false);
  if (!bad.parsed.ok) assert.match(bad.parsed.problems[0].message, /not below 100/);
  plan.slos.push({ text: "max < 1s", line: 5 });
  const [again, added] = storedSlos(plan);
  assert.equal(again, bad, "the one already read is kept");
  assert.ok(added.parsed.ok);
  assert.deepEqual(added.parsed.value.metric, { kind: "max" });
});
