import assert from "node:assert/strict";
import { type MergedResults, mergeResults } from "../../../runner/result/merge_results.ts";
import { problemText, type Result } from "../../../runner/model/result.ts";
import type { EncodedHistogram, RunResult } from "../../../runner/model/run_result.ts";
import { recordShard, shardPlan, shardResults } from "../../_helpers/shard_fixtures.ts";
import { valueOf } from "../../_helpers/result_value.ts";
import { grpcResult } from "../../_helpers/grpc_result_fixtures.ts";

/** Why the shards were refused, asserting they were. */
function refusal(r: Result<MergedResults>): string {
  assert.ok(!r.ok, "the shards were merged");
  return r.problems.map(problemText).join("\n");
}

function sameHistogram(a: EncodedHistogram, b: EncodedHistogram, what: string) {
  assert.equal(a.count, b.count, `${what} count`);
  assert.equal(a.minUs, b.minUs, `${what} min`);
  assert.equal(a.maxUs, b.maxUs, `${what} max`);
  assert.deepEqual(a.percentilesUs, b.percentilesUs, `${what} percentiles`);
  assert.equal(a.hdr, b.hdr, `${what} encoding`);
}

Deno.test("mergeResults() of 4 shards equals recording every request in one histogram", () => {
  const p = shardPlan();
  const whole = recordShard(p);
  const { result, warnings } = valueOf(mergeResults(shardResults(p, 4), ["s0", "s1", "s2", "s3"]));
  assert.deepEqual(warnings, []);
  assert.equal(result.run.mergedShards, 4);
  assert.equal(result.run.shard, undefined);
  assert.deepEqual(result.totals.counts, whole.totals.counts);
  sameHistogram(result.totals.response, whole.totals.response, "totals response");
  sameHistogram(result.totals.service, whole.totals.service, "totals service");
  assert.equal(result.stages.length, 3);
  for (const [i, stage] of result.stages.entries()) {
    assert.deepEqual(stage.counts, whole.stages[i].counts, `stage ${i} counts`);
    sameHistogram(stage.response, whole.stages[i].response, `stage ${i}`);
    for (const [j, label] of stage.labels.entries()) {
      sameHistogram(label.response, whole.stages[i].labels[j].response, `stage ${i} label ${j}`);
      // The slowest of the union are the whole run's slowest.
      assert.deepEqual(label.slowest, whole.stages[i].labels[j].slowest, `stage ${i} slowest`);
    }
  }
  assert.equal(result.intervals.length, whole.intervals.length);
  for (const [i, interval] of result.intervals.entries()) {
    assert.equal(interval.startMs, whole.intervals[i].startMs);
    assert.deepEqual(interval.counts, whole.intervals[i].counts, `interval ${i} counts`);
    sameHistogram(interval.response, whole.intervals[i].response, `interval ${i}`);
  }
  sameHistogram(result.health.sendLag, whole.health.sendLag, "send lag");
  // Every scheduled request is in exactly one shard: the union is the plan's schedule.
  assert.equal(result.totals.counts.scheduled, whole.totals.counts.scheduled);
  assert.equal(result.health.intendedPerSec, whole.health.intendedPerSec);
  assert.deepEqual(result.verdicts, [], "the gates are judged after merging, once");
});

Deno.test("mergeResults() aligns shards that started apart by wall-clock time, and says so", () => {
  const p = shardPlan();
  const starts = ["2026-01-01T00:00:00.000Z", "2026-01-01T00:00:02.100Z"];
  const { result, warnings } = valueOf(
    mergeResults(shardResults(p, 2, (i) => starts[i]), ["a", "b"]),
  );
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /started up to 2\.100 s apart \(no common --start-at\)/);
  assert.ok(result.warnings?.some((w) => w === warnings[0]));
  assert.equal(result.run.startedAt, starts[0]);
  // Shard b's first interval lands 2 s (the nearest whole interval) after shard a's.
  const [a, b] = shardResults(p, 2);
  const last = (r: RunResult) => r.intervals.at(-1)!.startMs;
  assert.equal(result.intervals.at(-1)!.startMs, Math.max(last(a), last(b) + 2000));
  assert.equal(result.intervals[0].counts.scheduled, a.intervals[0].counts.scheduled);
  assert.equal(
    result.intervals[2].counts.scheduled,
    a.intervals[2].counts.scheduled + b.intervals[0].counts.scheduled,
  );
  assert.equal(result.totals.counts.scheduled, recordShard(p).totals.counts.scheduled);
});

Deno.test("mergeResults() refuses missing, repeated or foreign shards with the file named", () => {
  const p = shardPlan();
  const four = shardResults(p, 4);
  assert.match(
    refusal(mergeResults([four[0], four[1], four[3]], ["s0", "s1", "s3"])),
    /shard 2\/4 missing/,
  );
  assert.match(
    refusal(mergeResults([four[0], four[0]], ["x.json", "y.json"])),
    /y\.json and x\.json are both shard 0\/4/,
  );
  assert.match(
    refusal(mergeResults([four[0], shardResults(p, 2)[1]], ["a", "b"])),
    /b is shard 1\/2 but a is one of 4/,
  );
  assert.match(
    refusal(mergeResults([recordShard(p)], ["whole.json"])),
    /whole\.json is not a shard's result/,
  );
  const other = shardResults(p, 2);
  other[1].plan = { ...other[1].plan, name: "another" };
  assert.match(refusal(mergeResults(other, ["a", "b"])), /b ran a different plan from a/);
});

Deno.test("mergeResults() refuses shards that drew from different seeds, saying how to share one", () => {
  const two = shardResults(shardPlan(), 2);
  two[1].plan = { ...two[1].plan, load: { ...two[1].plan.load, seed: two[0].plan.load.seed + 1 } };
  const why = refusal(mergeResults(two, ["a", "b"]));
  assert.match(why, /b drew its values from seed \d+, a from seed \d+/);
  assert.match(why, /the same --start-at/);
});

Deno.test("mergeResults() keeps every shard's tool-health reasons and marks the whole run invalid", () => {
  const p = shardPlan();
  const two = shardResults(p, 2);
  two[1].health.toolLimited = true;
  two[1].health.reasons = ["tailgate sent requests late"];
  two[0].run.complete = false;
  two[0].run.stopReason = "interrupted";
  const { result } = valueOf(mergeResults(two, ["a", "b"]));
  assert.equal(result.health.toolLimited, true);
  assert.deepEqual(result.health.reasons, ["shard 1/2: tailgate sent requests late"]);
  assert.equal(result.run.complete, false);
  assert.equal(result.run.stopReason, "interrupted");
  assert.equal(result.health.connections.peak, 4);
});

Deno.test("mergeResults() adds the shards' draws of each data source: the fleet wrapped, no shard did", () => {
  const parts = shardResults(shardPlan(), 4).map((r) => ({
    ...r,
    traffic: {
      sources: [{
        name: "users",
        file: "users.csv",
        format: "csv" as const,
        columns: ["id"],
        rows: 300,
        order: "sequence" as const,
        exhausted: "wrap" as const,
        draws: 100,
        rowsUsed: 100,
        wrapped: false,
      }],
      vars: [{ name: "n", spec: "counter" }],
      lateRenders: 1,
    },
  }));
  const { result } = valueOf(mergeResults(parts, ["s0", "s1", "s2", "s3"]));
  assert.deepEqual(result.traffic!.sources[0], {
    ...parts[0].traffic.sources[0],
    draws: 400,
    rowsUsed: 300,
    wrapped: true,
  });
  assert.equal(result.traffic!.lateRenders, 4);
  assert.deepEqual(result.traffic!.vars, [{ name: "n", spec: "counter" }]);
});

Deno.test("mergeResults() keeps the first shard's fail-fast stop, before another shard's stop", () => {
  const p = shardPlan();
  const three = shardResults(p, 3);
  const stop = (i: number, atMs: number) => {
    three[i].run.complete = false;
    three[i].run.stopReason = "fail_fast";
    three[i].run.stoppedBy = { slo: "p99 < 10ms", line: 9, reason: `shard ${i}'s reason`, atMs };
  };
  stop(1, 2500);
  stop(2, 1800);
  three[0].run.complete = false;
  three[0].run.stopReason = "error";
  const { result } = valueOf(mergeResults(three, ["a", "b", "c"]));
  assert.equal(result.run.complete, false);
  assert.equal(result.run.stopReason, "fail_fast");
  assert.deepEqual(result.run.stoppedBy, {
    slo: "p99 < 10ms",
    line: 9,
    reason: "shard 2's reason",
    atMs: 1800,
    shard: { index: 2, count: 3 },
  });
  // A shard that ran to its end without stopping carries nothing to keep.
  assert.equal(
    valueOf(mergeResults(shardResults(p, 2), ["a", "b"])).result.run.stoppedBy,
    undefined,
  );
});

Deno.test("mergeResults() keeps the shards' protocol and refuses shards that spoke different ones", () => {
  const p = shardPlan();
  const h2c = shardResults(p, 2).map((r) => ({
    ...r,
    run: { ...r.run, protocol: "h2c" as const },
  }));
  const merged = valueOf(mergeResults(h2c, ["a", "b"])).result;
  assert.equal(merged.run.protocol, "h2c");
  assert.equal(merged.run.maxStreams, undefined);
  const streams = h2c.map((r) => ({ ...r, run: { ...r.run, maxStreams: 8 } }));
  assert.equal(valueOf(mergeResults(streams, ["a", "b"])).result.run.maxStreams, 8);
  // One shard over TLS (another --target), one in cleartext: two protocols, not one run.
  const mixed = [h2c[0], { ...h2c[1], run: { ...h2c[1].run, protocol: "h2" as const } }];
  assert.equal(
    refusal(mergeResults(mixed, ["a.json", "b.json"])),
    "b.json ran over HTTP/2 over TLS (h2), streams per connection as the server's SETTINGS " +
      "allow, at most 100, a.json over HTTP/2 cleartext (h2c), streams per connection as the " +
      "server's SETTINGS allow, at most 100: latencies over different protocols are not one " +
      "run's, and a merged result records one protocol; merge the shards of one run (the same " +
      "plan and --target on every machine)",
  );
  assert.match(
    refusal(mergeResults([shardResults(p, 2)[0], streams[1]], ["a.json", "b.json"])),
    /^b\.json ran over HTTP\/2 cleartext \(h2c\), up to 8 streams per connection, a\.json over HTTP\/1\.1: /,
  );
});

/** `r` as measured beside `waitMs(i)` of service wait in its interval `i`. */
function contended(
  r: RunResult,
  waitMs: (i: number) => number,
  source: "service" | "pressure" | "none" = "service",
  pids = [7],
): RunResult {
  const intervals = r.intervals.map((interval, i) => ({
    ...interval,
    contention: { pressureMs: 2 * waitMs(i), stealMs: 0, serviceWaitMs: waitMs(i) },
  }));
  const service = { found: "started" as const, pids, name: "nginx" };
  return {
    ...r,
    intervals,
    health: {
      ...r.health,
      contention: { source, ...(source === "service" ? { service } : {}), share: 0 },
    },
  };
}

Deno.test("mergeResults() takes each interval's worst shard's contention and sums it again", () => {
  const p = shardPlan();
  const [a, b] = shardResults(p, 2);
  const waitA = (i: number) => (i === 1 ? 40 : 1);
  const waitB = (i: number) => (i === 2 ? 25 : 3);
  const { result } = valueOf(mergeResults([contended(a, waitA), contended(b, waitB)], ["a", "b"]));
  // Where only one shard had an interval (its last), its figure stands alone.
  const expected = result.intervals.map((_, i) =>
    Math.max(i < a.intervals.length ? waitA(i) : 0, i < b.intervals.length ? waitB(i) : 0)
  );
  assert.deepEqual(result.intervals.map((i) => i.contention?.serviceWaitMs), expected);
  const c = result.health.contention;
  assert.ok(c);
  assert.equal(c.source, "service");
  assert.deepEqual(c.service, { found: "started", pids: [7], name: "nginx" }, "the same on both");
  assert.equal(c.worst?.waitMs, 40);
  assert.ok(c.share > 0);
});

Deno.test("mergeResults() says the weakest shard's source, and names no service of two", () => {
  const p = shardPlan();
  const [a, b] = shardResults(p, 2);
  const waits = () => 5;
  const merge = (x: RunResult, y: RunResult) =>
    valueOf(mergeResults([x, y], ["a", "b"])).result.health.contention;
  const twoServices = merge(contended(a, waits), contended(b, waits, "service", [8]));
  assert.equal(twoServices?.source, "service");
  assert.equal(twoServices?.service, undefined, "pids of two machines name no one service");
  assert.equal(merge(contended(a, waits), contended(b, waits, "pressure"))?.source, "pressure");
  // A shard that measured nothing (another system) leaves the merged run without a measure.
  assert.equal(merge(contended(a, waits), b)?.source, "none");
  assert.equal(merge(a, b), undefined);
});

Deno.test("mergeResults() keeps each shard's first unexpected bodies, the first of each on the merged clock", () => {
  const p = shardPlan();
  const label = p.requests[0].label;
  const parts = shardResults(p, 2, (i) => new Date(Date.UTC(2026, 0, 1) + i * 3_000).toISOString());
  const body = (atMs: number, text: string, status = 500) => ({
    label,
    status,
    atMs,
    body: text,
    bodyBytes: text.length,
  });
  parts[0].unexpectedBodies = [body(4_000, "shard 0")];
  // Shard 1 started 3 s later: its 500 at 2 s came at 5 s on the merged clock, after shard 0's.
  parts[1].unexpectedBodies = [body(2_000, "shard 1"), body(10, "only shard 1", 503)];
  const { result } = valueOf(mergeResults(parts, ["s0", "s1"]));
  assert.deepEqual(result.unexpectedBodies, [
    body(4_000, "shard 0"),
    body(3_010, "only shard 1", 503),
  ]);
  delete parts[0].unexpectedBodies;
  delete parts[1].unexpectedBodies;
  assert.equal(valueOf(mergeResults(parts, ["s0", "s1"])).result.unexpectedBodies, undefined);
});

Deno.test("mergeResults() adds each label's checks across shards; old shards without them stay readable", () => {
  const p = shardPlan();
  const shards = shardResults(p, 2);
  const check = (evaluated: number, failed: number) => [
    { text: "/state == open", line: 8, evaluated, failed },
  ];
  shards[0].stages[1].labels[0].checks = check(100, 3);
  shards[1].stages[1].labels[0].checks = check(120, 9);
  const { result } = valueOf(mergeResults(shards, ["s0", "s1"]));
  assert.deepEqual(result.stages[1].labels[0].checks, check(220, 12));
  assert.equal(result.stages[0].labels[0].checks, undefined);
});

Deno.test("mergeResults() merges the shards' ttfb histograms and Retry-After counts exactly", () => {
  const p = shardPlan();
  const whole = recordShard(p, undefined, undefined, undefined, true);
  const shards = [0, 1, 2].map((index) =>
    recordShard(p, { index, count: 3 }, undefined, undefined, true)
  );
  const { result } = valueOf(mergeResults(shards, ["a", "b", "c"]));
  assert.ok((whole.totals.counts.errors.rate_limited ?? 0) > 0);
  assert.deepEqual(result.totals.counts, whole.totals.counts);
  sameHistogram(result.totals.ttfb!, whole.totals.ttfb!, "totals ttfb");
  for (const [i, stage] of result.stages.entries()) {
    sameHistogram(stage.ttfb!, whole.stages[i].ttfb!, `stage ${i} ttfb`);
    assert.deepEqual(stage.counts.retryAfterS, whole.stages[i].counts.retryAfterS);
    for (const [j, label] of stage.labels.entries()) {
      sameHistogram(label.ttfb!, whole.stages[i].labels[j].ttfb!, `stage ${i} label ${j} ttfb`);
    }
  }
  for (const [i, interval] of result.intervals.entries()) {
    if (whole.intervals[i].ttfb) sameHistogram(interval.ttfb!, whole.intervals[i].ttfb!, `${i}`);
  }
});

Deno.test("mergeResults() of a shard written before ttfb and one with it keeps the one's", () => {
  const p = shardPlan();
  const old = recordShard(p, { index: 0, count: 2 });
  const now = recordShard(p, { index: 1, count: 2 }, undefined, undefined, true);
  assert.equal(old.totals.ttfb, undefined);
  const { result } = valueOf(mergeResults([old, now], ["old", "new"]));
  sameHistogram(result.totals.ttfb!, now.totals.ttfb!, "totals ttfb");
  const { result: olds } = valueOf(mergeResults([old, recordShard(p, { index: 1, count: 2 })], [
    "a",
    "b",
  ]));
  assert.equal(olds.totals.ttfb, undefined);
  assert.equal(olds.stages[0].ttfb, undefined);
});

Deno.test("mergeResults() adds gRPC statuses by name and messages exactly, and keeps run.grpc", () => {
  const shards = [0, 1].map((index) => {
    const r = grpcResult();
    r.run.shard = { index, count: 2 };
    return r;
  });
  const one = grpcResult();
  const merged = valueOf(mergeResults(shards, ["a.json", "b.json"])).result;
  assert.equal(merged.run.grpc, true);
  assert.equal(merged.run.protocol, "h2c");
  assert.deepEqual(merged.totals.counts.statusCodes, { OK: 76, UNAVAILABLE: 24 });
  assert.equal(merged.totals.counts.messages, 2 * one.totals.counts.messages!);
  for (const [s, stage] of merged.stages.entries()) {
    for (const [l, label] of stage.labels.entries()) {
      const single = one.stages[s].labels[l].counts;
      assert.equal(label.counts.messages, 2 * single.messages!, `${stage.name} ${label.label}`);
    }
  }
  // An HTTP/2 shard beside a gRPC one: not one run.
  const http = { ...shards[1], run: { ...shards[1].run, grpc: undefined } };
  assert.match(
    refusal(mergeResults([shards[0], http], ["a.json", "b.json"])),
    /^b\.json ran over HTTP\/2 cleartext \(h2c\), up to 8 streams per connection, a\.json over gRPC over h2c, /,
  );
});

Deno.test("mergeResults() takes each percentile's exemplar from the shards' within its bucket", () => {
  const p = shardPlan();
  const whole = recordShard(p);
  const { result } = valueOf(mergeResults(shardResults(p, 2), ["s0", "s1"]));
  const [label] = result.stages[2].labels;
  assert.equal(label.slowest!.length, 10);
  const response = whole.stages[2].labels[0].response;
  assert.ok(label.exemplars!.length >= 1);
  for (const e of label.exemplars!) {
    const valueUs = response.percentilesUs[e.percentile];
    assert.ok(Math.abs(e.responseUs - valueUs) <= valueUs * 0.07, `p${e.percentile}`);
  }
});

Deno.test("mergeResults() of shards written before the slowest requests has none", () => {
  const p = shardPlan();
  const shards = shardResults(p, 2);
  for (const s of shards) {
    for (const stage of s.stages) {
      for (const l of stage.labels) {
        delete l.slowest;
        delete l.exemplars;
      }
    }
  }
  const { result } = valueOf(mergeResults(shards, ["s0", "s1"]));
  assert.equal(result.stages[1].labels[0].slowest, undefined);
});
