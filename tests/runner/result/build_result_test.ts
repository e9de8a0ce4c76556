import assert from "node:assert/strict";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import { decodeHistogram } from "../../../runner/hdr/hdr_codec.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import { addCounts, emptyCounts } from "../../../runner/model/request_counts.ts";
import { buildResult } from "../../../runner/result/build_result.ts";
import { HTTP2_REPLY_NOTE } from "../../../runner/engine/http1/mod.ts";
import { readRunResult } from "../../../runner/result/read_run_result.ts";
import { RESULT_SCHEMA, RESULT_VERSION } from "../../../runner/model/run_result.ts";
import {
  ENVIRONMENT,
  recordPlan,
  RESULT_PLAN,
  resultPlan,
  sampleResult,
  SECRET_TOKEN,
} from "../../_helpers/result_fixtures.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { assertSameHistogram } from "../../_helpers/histogram_assertions.ts";

Deno.test("buildResult() writes a document the result reader accepts, round trip intact", () => {
  const result = sampleResult();
  const read = readRunResult(JSON.stringify(result));
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
  assert.deepEqual(read.value, result);
  assert.equal(result.schema, RESULT_SCHEMA);
  assert.equal(result.version, RESULT_VERSION);
  assert.deepEqual(result.verdicts, []);
  assert.equal(result.environment, ENVIRONMENT);
  assert.deepEqual(result.stages.map((s) => [s.name, s.warmup]), [["warm", true], ["main", false]]);
});

Deno.test("buildResult() totals are the exact merge of the stages", () => {
  const result = sampleResult();
  const counts = emptyCounts();
  for (const s of result.stages) addCounts(counts, s.counts);
  assert.deepEqual(result.totals.counts, counts);
  assert.equal(result.totals.counts.scheduled, 50);
  assert.equal(result.totals.counts.completed, 50);
  assert.equal(result.totals.counts.errors.refused, 5);
  for (const kind of ["response", "service"] as const) {
    const merged = createHistogram();
    for (const s of result.stages) merged.add(decodeHistogram(s[kind].hdr));
    assertSameHistogram(decodeHistogram(result.totals[kind].hdr), merged);
    assert.equal(result.totals[kind].count, merged.totalCount);
  }
  // 5 refused and 5 answered 500: failures are counted, not recorded as latencies.
  assert.equal(result.totals.response.count, 40);
  assert.equal(result.totals.service.count, 40);
  assert.equal(result.totals.counts.ok, 40);
});

Deno.test("buildResult() reports intended and achieved send rates over the schedule", () => {
  const result = sampleResult();
  // 50 scheduled over the 3 s schedule; 45 written (every 10th was refused).
  assert.equal(result.health.intendedPerSec, 16.667);
  assert.equal(result.health.achievedPerSec, 15);
  assert.equal(result.health.cpu.perRequestUs, 8000); // 400 ms CPU over 50 requests
  assert.equal(result.health.toolLimited, false);
  assert.deepEqual(result.health.connections, { opened: 2, peak: 3 });
});

Deno.test("buildResult() takes a complete run's rates over its schedule, however early it ended", () => {
  // The last request answered long before the schedule's end: the run is 40 ms, the schedule 3 s.
  const early = sampleResult({ durationMs: 40 });
  assert.equal(early.health.intendedPerSec, 16.667);
  assert.equal(early.health.achievedPerSec, 15);
  // A stopped run covers only the part it ran.
  const stopped = sampleResult({ durationMs: 1500, complete: false });
  assert.ok(stopped.health.intendedPerSec > 16.667, String(stopped.health.intendedPerSec));
});

Deno.test("buildResult() never stores the plan's secret header value", () => {
  const result = sampleResult();
  const text = JSON.stringify(result);
  assert.ok(!text.includes(SECRET_TOKEN), "the secret leaked into the result");
  assert.deepEqual(result.plan.requests[0].headers, [
    { name: "Authorization", value: "Bearer ${env.TOKEN}", secret: true },
  ]);
});

Deno.test("buildResult() records the run's times and why it stopped", () => {
  const plan = resultPlan();
  const stopped = buildResult(
    plan,
    recordPlan(plan, { complete: false, durationMs: 1500 }),
    ENVIRONMENT,
  );
  assert.equal(stopped.run.startedAt, "2025-01-02T03:04:05.000Z");
  assert.equal(stopped.run.endedAt, "2025-01-02T03:04:06.500Z");
  assert.equal(stopped.run.complete, false);
  assert.equal(stopped.run.stopReason, "interrupted");
  const crashed = buildResult(plan, recordPlan(plan, { complete: false }), ENVIRONMENT, "error");
  assert.equal(crashed.run.stopReason, "error");
  assert.equal(sampleResult().run.stopReason, "completed");
});

Deno.test("buildResult() flags a run whose CPU was saturated as tool-limited", () => {
  const result = sampleResult({ cpu: { userMs: 2780, systemMs: 200 }, durationMs: 3000 });
  assert.equal(result.health.toolLimited, true);
  assert.equal(result.health.reasons.length, 1);
  assert.match(result.health.reasons[0], /99% of a CPU core/);
});

Deno.test("buildResult() marks a run that failed part-way as stopped by error, naming the failure", () => {
  const result = sampleResult({ complete: false, error: "worker 1 died: out of memory" });
  assert.equal(result.run.complete, false);
  assert.equal(result.run.stopReason, "error");
  assert.ok(
    result.warnings?.includes("the run failed part-way: worker 1 died: out of memory"),
    JSON.stringify(result.warnings),
  );
  const stopped = sampleResult({ complete: false });
  assert.equal(stopped.run.stopReason, "interrupted");
  assert.ok(!stopped.warnings?.some((w) => w.includes("failed part-way")));
});

Deno.test("buildResult() warns of a server that closed every connection, not of the generator", () => {
  const plan = resultPlan();
  const record = recordPlan(plan);
  const measured = record.recorded.stages.filter((s) => !s.warmup);
  const reconnects = measured.reduce((n, s) => n + s.counts.sent, 0);
  const slow = createHistogram();
  slow.recordValueWithCount(1_030_000, reconnects); // every one waited for a SYN retry
  record.recorded.connectTime = toEncodedHistogram(slow);
  const sent = record.recorded.stages.reduce((n, s) => n + s.counts.sent, 0);
  record.connections = { opened: sent, peak: 3 };
  const result = buildResult(plan, record, ENVIRONMENT);
  assert.ok(
    result.warnings?.includes(
      `the server closed every connection (${sent} opened for ${sent} requests); connect p99 ` +
        "1.03s (SYN retries: the server's listen backlog is full)",
    ),
    JSON.stringify(result.warnings),
  );
  assert.equal(result.health.toolLimited, false);
  assert.equal(result.health.connectTime?.count, reconnects);
  assert.ok(!sampleResult().warnings?.some((w) => w.includes("closed")), "kept alive: no word");
});

Deno.test("buildResult() says once that the target answered with HTTP/2 frames, the counts kept", () => {
  const result = sampleResult({ http2Reply: true });
  assert.equal(result.warnings?.filter((w) => w === HTTP2_REPLY_NOTE).length, 1);
  assert.deepEqual(result.totals.counts, sampleResult().totals.counts);
  assert.ok(!sampleResult().warnings?.includes(HTTP2_REPLY_NOTE));
});

Deno.test("buildResult() records the protocol from load.http and the target's scheme, and the streams asked for", () => {
  const built = (text: string) => {
    const { plan, issues } = parseText(text, { env: { TOKEN: SECRET_TOKEN } });
    assert.ok(plan, JSON.stringify(issues));
    return buildResult(plan, recordPlan(plan), ENVIRONMENT).run;
  };
  const h2 = (load: string) => RESULT_PLAN.replace("load:\n", `load:\n${load}`);
  const tls = (text: string) => text.replace("target: http://", "target: https://");
  assert.equal(sampleResult().run.protocol, "http/1.1");
  assert.equal(sampleResult().run.maxStreams, undefined);
  assert.equal(built(tls(h2("  http: 1.1\n"))).protocol, "http/1.1");
  const h2c = built(h2("  http: 2\n  max_streams: 8\n"));
  assert.deepEqual([h2c.protocol, h2c.maxStreams], ["h2c", 8]);
  // No max_streams: the server's SETTINGS decide, and the result says nothing it does not know.
  const overTls = built(tls(h2("  http: 2\n")));
  assert.equal(overTls.protocol, "h2");
  assert.equal("maxStreams" in overTls, false);
  // The reader reads back what was built.
  const read = readRunResult(JSON.stringify({ ...sampleResult(), run: h2c }));
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
  assert.deepEqual([read.value.run.protocol, read.value.run.maxStreams], ["h2c", 8]);
});

Deno.test("buildResult() files the contention samples into the intervals and sums the measured", () => {
  const plan = resultPlan();
  const run = recordPlan(plan);
  const t0 = run.startedAt.getTime();
  // 3 s of schedule (warm 1 s, main 2 s): the service waited 30 ms in each second.
  const samples = [0, 500, 1000, 1500, 2000, 2500, 3000, 3010].map((ms) => ({
    atEpochMs: t0 + ms,
    pressureUs: ms * 100,
    stealTicks: [0, 0],
    serviceWaitNs: ms * 30_000,
  }));
  const result = buildResult(
    plan,
    {
      ...run,
      contention: {
        samples,
        clockTicksPerSec: 100,
        startAtEpochMs: t0,
        local: true,
        service: { found: "listening_socket", pids: [41], name: "nginx" },
      },
    },
    ENVIRONMENT,
  );
  assert.deepEqual(
    result.intervals.map((i) => i.contention),
    [0, 1, 2].map(() => ({ pressureMs: 100, stealMs: 0, serviceWaitMs: 30 })),
  );
  assert.deepEqual(result.health.contention, {
    source: "service",
    service: { found: "listening_socket", pids: [41], name: "nginx" },
    pressureMs: 200,
    stealMs: 0,
    serviceWaitMs: 60,
    share: 0.06,
    worst: { startMs: 1000, waitMs: 30 },
  });
  const read = readRunResult(JSON.stringify(result));
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
  assert.deepEqual(read.value, result);
});

Deno.test("buildResult() writes no contention where none was sampled", () => {
  const result = sampleResult();
  assert.equal(result.health.contention, undefined);
  assert.ok(result.intervals.every((i) => !("contention" in i)));
});
