import assert from "node:assert/strict";
import { LABEL_ROWS_SHOWN, labelRows } from "../../../reporters/figures/label_rows.ts";
import { gateResult, pointsUs } from "../../_helpers/gate_fixtures.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { formatMetric } from "../../../runner/result/read/mod.ts";

/** A warmup and a measured stage of the labels given: [label, answered at 1 ms / 9 ms, failed]. */
function run(labels: Array<[string, number, number, number]>): RunResult {
  const spec = (warmup: boolean) => ({
    name: warmup ? "warm" : "main",
    warmup,
    ratePerSec: 100,
    durationMs: 10_000,
    labels: labels.map(([label, fast, slow, errors]) => ({
      label,
      response: pointsUs(
        (warmup ? [[1_000, 1]] as const : [[1_000, fast], [9_000, slow]] as const)
          .filter(([, n]) => n > 0),
      ),
      errors: warmup ? 0 : errors,
    })),
  });
  const result = gateResult([spec(true), spec(false)]);
  result.plan.requests = labels.map(([label]) => ({
    ...result.plan.requests[0],
    label,
    expect: { codes: [], classes: [2] },
  }));
  return result;
}

Deno.test("labelRows() gives each label's requests, errors by code and p50, p99 over the measured stages", () => {
  const result = run([["GET /a", 98, 2, 0], ["GET /b", 50, 0, 10]]);
  // 9 ms as the histogram keeps it (the top of its bucket).
  const p99 = formatMetric(result.stages[1].labels[0].response.percentilesUs["99"], "us");
  assert.match(p99, /^9(\.\d+)?ms$/);
  assert.deepEqual(labelRows(result), {
    rows: [
      // Warmup left out: its one request per label is not counted.
      { label: "GET /a", requests: 100, errors: "0", p50: "1ms", p99, ttfbP99: "-" },
      { label: "GET /b", requests: 60, errors: "500 × 10", p50: "1ms", p99: "1ms", ttfbP99: "-" },
    ],
    hidden: 0,
    ttfb: false,
  });
});

Deno.test("labelRows() shows the busiest labels first, at most 20, and counts the rest", () => {
  const labels = Array.from(
    { length: 25 },
    (_, i): [string, number, number, number] => [`GET /${i}`, 10 + i, 0, 0],
  );
  const shown = labelRows(run(labels))!;
  assert.equal(LABEL_ROWS_SHOWN, 20);
  assert.equal(shown.rows.length, 20);
  assert.equal(shown.hidden, 5);
  assert.deepEqual(shown.rows.slice(0, 2).map((r) => r.label), ["GET /24", "GET /23"]);
  assert.equal(labelRows(run(labels), 3)!.rows.length, 3);
});

Deno.test("labelRows() is undefined for a plan of one label: the stage rows say it all", () => {
  assert.equal(labelRows(run([["GET /a", 10, 0, 0]])), undefined);
});

Deno.test("labelRows() shows a dash for a label whose every request failed", () => {
  const { rows } = labelRows(run([["GET /a", 10, 0, 0], ["GET /b", 0, 0, 7]]))!;
  assert.deepEqual(rows[1], {
    label: "GET /b",
    requests: 7,
    errors: "500 × 7",
    p50: "-",
    p99: "-",
    ttfbP99: "-",
  });
});

Deno.test("labelRows() merges a label's measured stages exactly, never averaging their percentiles", () => {
  const stage = (name: string, valueUs: number) => ({
    name,
    ratePerSec: 100,
    durationMs: 10_000,
    labels: [
      { label: "GET /a", response: pointsUs([[valueUs, 100]]) },
      { label: "GET /b", response: pointsUs([[1_000, 1]]) },
    ],
  });
  // 100 at 1 ms and 100 at 3 ms: p50 is 1 ms and p99 3 ms (its bucket's top), never 2 ms.
  const { rows } = labelRows(gateResult([stage("one", 1_000), stage("two", 3_000)]))!;
  assert.deepEqual(rows[0], {
    label: "GET /a",
    requests: 200,
    errors: "0",
    p50: "1ms",
    p99: "3.001ms",
    ttfbP99: "-",
  });
});

Deno.test("labelRows() gives p99 of each label's time to first byte where the result has it", () => {
  const result = run([["GET /a", 98, 2, 0], ["GET /b", 50, 0, 10]]);
  const ttfb = toEncodedHistogram(pointsUs([[500, 99], [2_000, 1]]));
  for (const stage of result.stages) {
    stage.ttfb = ttfb;
    stage.labels[0].ttfb = ttfb;
  }
  const rows = labelRows(result)!;
  assert.equal(rows.ttfb, true);
  assert.deepEqual(rows.rows.map((r) => r.ttfbP99), ["500us", "-"]);
});
