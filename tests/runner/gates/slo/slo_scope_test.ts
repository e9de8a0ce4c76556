import assert from "node:assert/strict";
import { type SloScope, sloScope } from "../../../../runner/gates/slo/slo_scope.ts";
import { createHistogram, type Histogram } from "../../../../runner/hdr/mod.ts";
import { decodeHistogram } from "../../../../runner/hdr/hdr_codec.ts";
import type { StageResult } from "../../../../runner/model/run_result.ts";
import { gateResult, pointsUs, uniformUs } from "../../../_helpers/gate_fixtures.ts";

/** Four stages: warmup and main at 1k/s, a ramp, and 2k/s; each with labels "GET /a", "GET /b". */
function stages(): StageResult[] {
  const labels = (base: number, errors: number) => [
    { label: "GET /a", response: uniformUs(1_000, base, base + 100), errors },
    { label: "GET /b", response: pointsUs([[base * 3, 500], [base * 4, 7]]) },
  ];
  return gateResult([
    { warmup: true, ratePerSec: 1000, durationMs: 2_000, labels: labels(100, 1) },
    { ratePerSec: 1000, durationMs: 3_000, labels: labels(200, 2) },
    { kind: "ramp", ratePerSec: 1000, toPerSec: 2000, durationMs: 4_000, labels: labels(300, 3) },
    { ratePerSec: 2000, durationMs: 5_000, labels: labels(400, 4) },
  ]).stages;
}

function scoped(scope: SloScope | { missing: string }): SloScope {
  assert.ok(!("missing" in scope), "missing" in scope ? scope.missing : "");
  return scope;
}

/** The non-empty buckets of a histogram, for exact comparison. */
function buckets(h: Histogram): Array<[number, number]> {
  return [...h.recordedValues()].map((b) => [b.valueUs, b.count]);
}

Deno.test("without `at`, every non-warmup stage is merged exactly into one histogram", () => {
  const all = stages();
  const scope = scoped(sloScope(all, {}));
  assert.deepEqual(scope.stageIndexes, [1, 2, 3]);
  const expected = createHistogram();
  for (const s of all.slice(1)) expected.add(decodeHistogram(s.response.hdr));
  const decodedTotal = all.slice(1).reduce(
    (n, s) => n + decodeHistogram(s.response.hdr).totalCount,
    0,
  );
  assert.equal(scope.response.totalCount, decodedTotal);
  assert.equal(scope.response.totalCount, 3 * 1_507);
  assert.deepEqual(buckets(scope.response), buckets(expected));
  // Failed requests are counted besides the latency histogram (result format 3).
  assert.equal(scope.counts.completed, 3 * 1_507 + 2 + 3 + 4);
  assert.deepEqual(scope.counts.errors, { unexpected_status: 2 + 3 + 4 });
  assert.equal(scope.durationMs, 3_000 + 4_000 + 5_000);
  assert.ok(Math.abs(scope.intendedPerSec - (3 * 1_507 + 9) / 12) < 1e-9);
});

Deno.test("`at <rate>` keeps only constant stages at that rate", () => {
  const all = stages();
  const atOne = scoped(sloScope(all, { atRatePerSec: 1000 }));
  assert.deepEqual(atOne.stageIndexes, [1], "neither the warmup nor the ramp starting at 1k/s");
  assert.deepEqual(buckets(atOne.response), buckets(decodeHistogram(all[1].response.hdr)));
  assert.equal(atOne.durationMs, 3_000);
  const atTwo = scoped(sloScope(all, { atRatePerSec: 2000 }));
  assert.deepEqual(atTwo.stageIndexes, [3], "not the ramp ending at 2k/s");
});

Deno.test("a label scope merges only that label's histograms and counts", () => {
  const all = stages();
  const scope = scoped(sloScope(all, { label: "GET /b" }));
  assert.deepEqual(scope.stageIndexes, [1, 2, 3]);
  assert.equal(scope.response.totalCount, 3 * 507);
  const expected = createHistogram();
  for (const s of all.slice(1)) expected.add(decodeHistogram(s.labels[1].response.hdr));
  assert.deepEqual(buckets(scope.response), buckets(expected));
  assert.deepEqual(scope.counts.errors, {}, "label b had no errors");
  assert.equal(scope.counts.completed, 3 * 507);
  assert.ok(Math.abs(scope.intendedPerSec - (3 * 507) / 12) < 1e-9);
});

Deno.test("a label or rate the result does not hold is reported, not judged on nothing", () => {
  const all = stages();
  assert.deepEqual(sloScope(all, { label: "GET /c" }), {
    missing: 'no request is labelled "GET /c"',
  });
  assert.deepEqual(sloScope(all, { atRatePerSec: 1500 }), { missing: "no stage at that rate" });
  assert.deepEqual(sloScope(all.slice(0, 1), {}), { missing: "no stage to judge" });
});
