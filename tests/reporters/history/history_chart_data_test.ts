import assert from "node:assert/strict";
import { historyChartData } from "../../../reporters/history/history_chart_data.ts";
import { commitOf, historyReport, planHistory, RUNS, STEP_AT } from "./_history_report.ts";

Deno.test("historyChartData() draws a stage's latency percentiles together, throughput and errors alone", () => {
  const [plan] = historyChartData(historyReport()).plans;
  assert.deepEqual(
    plan.charts.map((c) => [c.id, c.title, c.axis, c.lines.map((l) => l.metric)]),
    [
      ["history-0-0", "stage steady · all requests · latency", "latency", [
        "p50",
        "p90",
        "p99",
        "p99.9",
      ]],
      ["history-0-1", "stage steady · all requests · throughput", "throughput", ["throughput"]],
      ["history-0-2", "stage steady · all requests · error rate", "error_rate", ["error_rate"]],
    ],
  );
  const source = planHistory();
  const [latency, , errors] = plan.charts;
  // Microseconds become ms, fractions percent; a missing value stays a gap.
  assert.equal(latency.lines[2].values[0], source.series[2].values[0]! / 1000);
  assert.equal(latency.lines[3].values[12], null);
  assert.equal(errors.lines[0].values[10], null);
  assert.equal(errors.lines[0].values[0], source.series[5].values[0]! * 100);
  assert.equal(latency.lines[0].values.length, RUNS);
});

Deno.test("historyChartData() marks the step at its run on its own chart, and carries the SLO bounds", () => {
  const [latency, throughput, errors] = historyChartData(historyReport()).plans[0].charts;
  assert.deepEqual(latency.marks, [{
    kind: "step",
    worse: true,
    direction: "worse",
    metrics: ["p99"],
    index: STEP_AT,
    endIndex: STEP_AT,
    text: "p99 rose 12%",
  }]);
  assert.deepEqual(throughput.marks, []);
  assert.deepEqual(latency.bounds, [{ metric: "p99", value: 10, text: "p99 < 10ms" }]);
  assert.deepEqual(errors.bounds, [{ metric: "error_rate", value: 1, text: "error_rate < 1%" }]);
  assert.deepEqual(throughput.bounds, []);
});

Deno.test("historyChartData() spans a trend from its first run to its last", () => {
  const plan = planHistory();
  plan.changes = [{
    ...plan.changes[0],
    series: 4,
    kind: "trend",
    direction: "worse",
    worse: true,
    index: 20,
    endIndex: 45,
    relativeChange: -0.15,
  }];
  const [, throughput] = historyChartData(historyReport([plan])).plans[0].charts;
  assert.deepEqual(
    throughput.marks.map((m) => [m.kind, m.index, m.endIndex, m.text]),
    [["trend", 20, 45, "throughput fell 15% over 26 runs"]],
  );
});

Deno.test("historyChartData() marks a change whose interval includes no change as unclear", () => {
  const plan = planHistory();
  plan.changes = [{
    ...plan.changes[0],
    direction: "unclear",
    worse: false,
    relativeChange: 0.002,
    interval95: [-0.038, 0.042],
  }];
  const [latency] = historyChartData(historyReport([plan])).plans[0].charts;
  assert.deepEqual(
    latency.marks.map((m) => [m.direction, m.worse, m.text]),
    [["unclear", false, "p99 changed by +0.2%"]],
  );
});

Deno.test("historyChartData() labels each run by its short commit, or by its date without one", () => {
  const plan = planHistory();
  plan.runs[3] = { date: plan.runs[3].date, runner: "r", plan: "p" };
  const runs = historyChartData(historyReport([plan])).plans[0].runs;
  assert.deepEqual(runs[0], {
    tick: commitOf(0).slice(0, 7),
    commit: commitOf(0).slice(0, 7),
    branch: "main",
    date: "2026-10-01 03:04Z",
  });
  assert.deepEqual(runs[3], { tick: "2026-10-04", date: "2026-10-04 03:04Z" });
});

Deno.test("historyChartData() gives each stage and label its own charts, stages in plan order", () => {
  const plan = planHistory();
  const labelled = plan.series.map((s) => ({ ...s, label: "GET /cart" }));
  const warm = plan.series.slice(0, 1).map((s) => ({ ...s, stage: "warm", stageIndex: 0 }));
  plan.series = [...plan.series, ...labelled, ...warm];
  plan.changes = [];
  const charts = historyChartData(historyReport([plan])).plans[0].charts;
  assert.deepEqual(charts.map((c) => c.title), [
    "stage warm · all requests · latency",
    "stage steady · all requests · latency",
    "stage steady · all requests · throughput",
    "stage steady · all requests · error rate",
    "stage steady · GET /cart · latency",
    "stage steady · GET /cart · throughput",
    "stage steady · GET /cart · error rate",
  ]);
  assert.deepEqual(charts.map((c) => c.id), charts.map((_, i) => `history-0-${i}`));
});

Deno.test("historyChartData() makes one mark of percentiles that moved alike at the same run", () => {
  const report = historyReport();
  const [plan] = report.plans;
  const p99 = plan.changes[0];
  const p50 = plan.series.findIndex((s) => s.metric === "p50" && s.label === undefined);
  const p90 = plan.series.findIndex((s) => s.metric === "p90" && s.label === undefined);
  plan.changes = [
    { ...p99, series: p50 },
    p99,
    { ...p99, series: p90, relativeChange: 0.3, interval95: [0.28, 0.32] },
  ];
  const [latency] = historyChartData(report).plans[0].charts;
  assert.equal(latency.marks.length, 1);
  assert.deepEqual(latency.marks[0].metrics, ["p50", "p99", "p90"]);
  assert.equal(latency.marks[0].text, "p50 rose 12%; p99 rose 12%; p90 rose 30%");
  plan.changes = [{ ...p99, series: p50 }, p99];
  assert.equal(historyChartData(report).plans[0].charts[0].marks[0].text, "p50, p99 rose 12%");
});
