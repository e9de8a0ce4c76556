import assert from "node:assert/strict";
import type { Slo, SloMetric } from "../../../runner/plan/types.ts";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import type { EncodedHistogram } from "../../../runner/model/run_result.ts";
import { cpuShare } from "../../../runner/result/read/mod.ts";
import {
  connectionChurn,
  healthCheckpoints,
  type HealthFigures,
  judgeToolHealth,
  sendLagLimitUs,
} from "../../../runner/result/tool_health.ts";

function slo(metric: SloMetric, bound: number): Slo {
  return { text: `${metric.kind} < ${bound}`, metric, operator: "<", bound, line: 1 };
}

const P99 = { kind: "percentile", percentile: 99 } as const;

/**
 * A send-lag histogram of 1000 values: 989 at 100 us and 11 at `p99Us`, so its p99 is `p99Us`
 * (the top of its bucket above 2048 us: 6000 reads 6003).
 */
function lag(p99Us: number): EncodedHistogram {
  const h = createHistogram();
  h.recordValueWithCount(100, 989);
  h.recordValueWithCount(p99Us, 11);
  return toEncodedHistogram(h);
}

function figures(over: Partial<HealthFigures>): HealthFigures {
  return {
    sendLag: lag(200),
    cpu: { userMs: 300, systemMs: 100 },
    durationMs: 10_000,
    slos: [],
    ...over,
  };
}

Deno.test("the send lag limit is 10 ms without latency SLOs", () => {
  assert.equal(sendLagLimitUs([]), 10_000);
  // Error rate and throughput bounds are not latencies.
  assert.equal(
    sendLagLimitUs([slo({ kind: "error_rate" }, 0.001), slo({ kind: "throughput" }, 50_000)]),
    10_000,
  );
});

Deno.test("the send lag limit is 10% of the tightest latency SLO, never below 10 ms", () => {
  assert.equal(sendLagLimitUs([slo(P99, 500_000)]), 50_000);
  assert.equal(sendLagLimitUs([slo({ kind: "max" }, 2_000_000), slo(P99, 200_000)]), 20_000);
  assert.equal(
    sendLagLimitUs([slo({ kind: "mean" }, 120_000), slo({ kind: "throughput" }, 10)]),
    12_000,
  );
  assert.equal(sendLagLimitUs([slo(P99, 5000)]), 10_000);
});

Deno.test("a send lag p99 above the limit flags the run, with the figures in the reason", () => {
  const health = judgeToolHealth(figures({ sendLag: lag(15_000) }));
  assert.equal(health.toolLimited, true);
  assert.equal(health.reasons.length, 1);
  assert.match(
    health.reasons[0],
    /^tailgate sent requests late: its send lag p99 was 15\.0\d*ms, above the 10ms a sound run allows/,
  );
  assert.match(health.reasons[0], /the generator, not the server, limited this run/);
});

Deno.test("a send lag p99 at or below the limit does not flag the run", () => {
  assert.deepEqual(judgeToolHealth(figures({ sendLag: lag(9_990) })), {
    toolLimited: false,
    reasons: [],
  });
  // A few milliseconds of jitter on a shared runner is not falling behind.
  assert.deepEqual(judgeToolHealth(figures({ sendLag: lag(3_000) })), {
    toolLimited: false,
    reasons: [],
  });
});

Deno.test("the send lag is judged against the plan's latency SLOs", () => {
  const slos = [slo(P99, 500_000)];
  assert.equal(judgeToolHealth(figures({ sendLag: lag(40_000), slos })).toolLimited, false);
  const late = judgeToolHealth(figures({ sendLag: lag(60_000), slos }));
  assert.equal(late.toolLimited, true);
  assert.match(late.reasons[0], /p99 was 60\.0\d*ms, above the 50ms/);
});

Deno.test("an empty send lag histogram never flags the run", () => {
  const empty = toEncodedHistogram(createHistogram());
  assert.equal(judgeToolHealth(figures({ sendLag: empty })).toolLimited, false);
});

Deno.test("a CPU share over 95% of a core flags the run; 95% does not", () => {
  const busy = judgeToolHealth(
    figures({ cpu: { userMs: 9000, systemMs: 700 }, durationMs: 10_000 }),
  );
  assert.equal(busy.toolLimited, true);
  assert.deepEqual(busy.reasons, [
    "tailgate's process used 97% of a CPU core, so it could not keep up by itself",
  ]);
  const atLimit = judgeToolHealth(
    figures({ cpu: { userMs: 9000, systemMs: 500 }, durationMs: 10_000 }),
  );
  assert.equal(atLimit.toolLimited, false);
});

Deno.test("a run of a few milliseconds is not CPU-bound by its setup's CPU time", () => {
  // A stage that planned one request ran 2 ms; the process's 170 ms of CPU (workers starting,
  // connections opening) read as 8500% of a core, and the run as tool-limited.
  const short = { userMs: 150, systemMs: 20 };
  assert.equal(cpuShare(short, 2), 0.17);
  assert.equal(cpuShare(short, 0), 0.17);
  assert.equal(cpuShare(short, -15_900), 0.17, "a negative duration is no shorter than none");
  assert.deepEqual(judgeToolHealth(figures({ cpu: short, durationMs: 2 })), {
    toolLimited: false,
    reasons: [],
  });
  // From a second on, the share is over the run's own duration.
  assert.equal(cpuShare({ userMs: 1500, systemMs: 0 }, 2000), 0.75);
  assert.equal(judgeToolHealth(figures({ cpu: short, durationMs: 170 })).toolLimited, false);
});

Deno.test("a late and CPU-bound run gives both reasons", () => {
  const health = judgeToolHealth(
    figures({ sendLag: lag(30_000), cpu: { userMs: 1000, systemMs: 0 }, durationMs: 1000 }),
  );
  assert.equal(health.toolLimited, true);
  assert.equal(health.reasons.length, 2);
  assert.match(health.reasons[0], /send lag p99 was 30\.0\d*ms/);
  assert.match(health.reasons[1], /used 100% of a CPU core/);
});

Deno.test("judgeToolHealth() flags a saturated dispatcher even when its sends were queued", () => {
  const quiet = createHistogram();
  quiet.recordValue(100);
  const late = createHistogram();
  for (let i = 0; i < 100; i++) late.recordValue(i < 90 ? 100 : 80_000);
  const verdict = judgeToolHealth({
    sendLag: toEncodedHistogram(quiet),
    dispatchLag: toEncodedHistogram(late),
    cpu: { userMs: 100, systemMs: 0 },
    durationMs: 1000,
    slos: [],
  });
  assert.equal(verdict.toolLimited, true);
  assert.match(verdict.reasons[0], /dispatch lag p99 80\.\d+ms, above the 10ms/);
});

/** 10,000 values: the rest at 100 us, `tail` of them at `tailUs` (p99 clean, p99.9 not). */
function tailOnly(tailUs: number, tail = 20): EncodedHistogram {
  const h = createHistogram();
  h.recordValueWithCount(100, 10_000 - tail);
  h.recordValueWithCount(tailUs, tail);
  return toEncodedHistogram(h);
}

const P999 = { kind: "percentile", percentile: 99.9 } as const;

Deno.test("the run's health reads p99 only: pauses at p99.9 are weighed by each gate instead", () => {
  // The engine issue's rounds 1-2: send lag p99 263 us, the generator's own pauses in the tail.
  // The run is not voided for them: each gate at p99.9 counts them (gates/decision_rule.ts).
  const slos = [slo(P999, 10_000)];
  assert.equal(judgeToolHealth(figures({ dispatchLag: tailOnly(6_000), slos })).toolLimited, false);
  assert.equal(judgeToolHealth(figures({ engineStall: tailOnly(8_000), slos })).toolLimited, false);
});

Deno.test("engine stalls at p99 above the limit flag the run", () => {
  const stalls = (us: number) => {
    const h = createHistogram();
    h.recordValueWithCount(100, 9_800);
    h.recordValueWithCount(us, 200);
    return toEncodedHistogram(h);
  };
  assert.equal(judgeToolHealth(figures({ engineStall: stalls(9_000) })).toolLimited, false);
  const stalled = judgeToolHealth(figures({ engineStall: stalls(30_000) }));
  assert.equal(stalled.toolLimited, true);
  assert.match(stalled.reasons[0], /engine thread stalled: its stalls reach 30\.0\d*ms at p99/);
});

Deno.test("health checkpoints: p99 alone, at the tightest latency SLO's 10% (at least 10 ms)", () => {
  assert.deepEqual(healthCheckpoints([]), [{ percentile: 99, limitUs: 10_000 }]);
  assert.deepEqual(
    healthCheckpoints([slo(P999, 500_000), slo(P999, 200_000), slo(P99, 300_000)]),
    [{ percentile: 99, limitUs: 20_000 }],
  );
});

Deno.test("late sends with little CPU and a long machine pause are the runner's, not a saturated generator's", () => {
  const late = toEncodedHistogram(pointsAt(35_000, 1000));
  const paused = toEncodedHistogram(pointsAt(181_000, 3));
  const busy = judgeToolHealth(
    figures({ cpu: { userMs: 9_600, systemMs: 0 }, durationMs: 10_000, dispatchLag: late }),
  );
  assert.match(busy.reasons.join(), /the generator was saturated/);
  const contended = judgeToolHealth(
    figures({
      cpu: { userMs: 600, systemMs: 0 },
      durationMs: 10_000,
      dispatchLag: late,
      sendLag: late,
      platformHiccup: paused,
    }),
  );
  assert.equal(contended.toolLimited, true);
  for (const reason of contended.reasons) {
    assert.doesNotMatch(reason, /the generator was saturated|more workers/, reason);
    assert.match(
      reason,
      /tailgate used 6% of a core while its probe saw the machine pause up to 181\.1ms: the runner was contended/,
    );
  }
});

function pointsAt(valueUs: number, count: number) {
  const h = createHistogram();
  h.recordValueWithCount(valueUs, count);
  return h;
}

/** Connect times: `n` connects, 2% of them (at least one) at `slowUs`, the rest at 150 us. */
function connects(n: number, slowUs: number): EncodedHistogram {
  const h = createHistogram();
  const slow = Math.max(1, Math.round(n / 50));
  h.recordValueWithCount(150, n - slow);
  h.recordValueWithCount(slowUs, slow);
  return toEncodedHistogram(h);
}

Deno.test("a server that closed every connection, with SYN retries, is named with its figures", () => {
  const churn = connectionChurn({
    opened: 1_000,
    requests: 1_000,
    measuredRequests: 1_000,
    connectTime: connects(1_000, 1_030_000),
    slos: [],
  });
  assert.equal(
    churn,
    "the server closed every connection (1,000 opened for 1,000 requests); connect p99 1.03s " +
      "(SYN retries: the server's listen backlog is full)",
  );
  const some = connectionChurn({
    opened: 450,
    requests: 1_000,
    measuredRequests: 1_000,
    connectTime: connects(400, 40_000),
    slos: [],
  });
  assert.equal(
    some,
    "the server closed connections (450 opened for 1,000 requests); connect p99 40.03ms",
  );
});

Deno.test("connects too fast or too few to matter are not named", () => {
  const base = { opened: 1_000, requests: 1_000, measuredRequests: 1_000, slos: [] };
  assert.equal(connectionChurn({ ...base, connectTime: connects(1_000, 2_000) }), undefined);
  // Four slow connects among 1,000 requests on kept-alive connections.
  assert.equal(
    connectionChurn({ ...base, opened: 54, connectTime: connects(4, 1_030_000) }),
    undefined,
  );
  assert.equal(connectionChurn({ ...base, connectTime: undefined }), undefined, "an older result");
  // Connects within 10% of the tightest latency bound are what the plan allows of lateness.
  assert.equal(
    connectionChurn({ ...base, connectTime: connects(1_000, 40_000), slos: [slo(P99, 500_000)] }),
    undefined,
  );
});
