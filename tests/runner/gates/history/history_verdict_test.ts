import assert from "node:assert/strict";
import { historyVerdict } from "../../../../runner/gates/history/history_verdict.ts";
import type { HistoryChange, PlanHistory } from "../../../../runner/model/history_result.ts";

function change(worse: boolean, recent: boolean, text: string): HistoryChange {
  return {
    series: 0,
    kind: "step",
    direction: worse ? "worse" : "better",
    worse,
    index: 10,
    endIndex: 10,
    meanBefore: 1,
    meanAfter: worse ? 1.1 : 0.9,
    runsBefore: 10,
    runsAfter: 10,
    relativeChange: worse ? 0.1 : -0.1,
    interval95: worse ? [0.08, 0.12] : [-0.12, -0.08],
    absoluteChange: worse ? 0.1 : -0.1,
    absoluteInterval95: worse ? [0.08, 0.12] : [-0.12, -0.08],
    pValue: 1e-6,
    pAtFloor: false,
    recent,
    coincides: [],
    text,
  };
}

function plan(name: string, changes: HistoryChange[]): PlanHistory {
  return {
    plan: name,
    planFile: `${name}.yaml`,
    source: "",
    runs: [],
    series: [],
    changes,
    notes: [],
  };
}

const settings = (failRecent: number) => ({
  maxPValue: 0.001,
  windowRuns: 50,
  minMagnitude: 0.05,
  failRecent,
});

Deno.test("historyVerdict fails only on a worse change within the newest runs", () => {
  const plans = [
    plan("shop", [change(true, false, "old rise"), change(false, true, "recent fall")]),
    plan("cart", [change(true, true, "p99 rose")]),
  ];
  const v = historyVerdict(plans, settings(10));
  assert.equal(v.status, "fail");
  assert.equal(v.message, "1 change for the worse within the newest 10 runs: cart: p99 rose");
  const calm = historyVerdict([plans[0]], settings(10));
  assert.deepEqual(calm, {
    status: "pass",
    message: "no change for the worse within the newest 10 runs",
  });
});

Deno.test("historyVerdict with --fail-recent 0 reports and passes, however worse the changes", () => {
  const v = historyVerdict(
    [plan("shop", [change(true, true, "a"), change(false, true, "b")])],
    settings(0),
  );
  assert.deepEqual(v, {
    status: "pass",
    message: "2 changes found (1 for the worse); report only (--fail-recent 0)",
  });
});

Deno.test("historyVerdict names the first failing change and counts the others", () => {
  const plans = [plan("shop", [change(true, true, "p50 rose"), change(true, true, "p99 rose")])];
  assert.equal(
    historyVerdict(plans, settings(5)).message,
    "2 changes for the worse within the newest 5 runs: p50 rose; and 1 more",
  );
});

Deno.test("historyVerdict counts no change whose interval includes no change, and says so", () => {
  const unclear: HistoryChange = {
    ...change(false, true, "p90 changed by +0.2%"),
    direction: "unclear",
    relativeChange: 0.002,
    interval95: [-0.038, 0.042],
  };
  const plans = [plan("shop", [unclear, change(true, false, "old rise")])];
  assert.deepEqual(historyVerdict(plans, settings(10)), {
    status: "pass",
    message: "no change for the worse within the newest 10 runs (1 change whose 95% interval " +
      "includes no change: not counted)",
  });
  assert.equal(
    historyVerdict(plans, settings(0)).message,
    "2 changes found (1 for the worse, 1 whose interval includes no change); report only " +
      "(--fail-recent 0)",
  );
});
