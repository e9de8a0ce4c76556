import assert from "node:assert/strict";
import {
  contentionOfRun,
  contentionSource,
  valueAt,
  weakestSource,
  withIntervalContention,
  worstContention,
} from "../../../runner/result/interval_contention.ts";
import type { ContentionSample } from "../../../runner/engine/contention/mod.ts";
import type { ContentionRecord } from "../../../runner/run/contention_probe.ts";
import type { IntervalResult } from "../../../runner/model/run_result.ts";

const T0 = 1_700_000_000_000;
const second = (startMs: number) => ({ startMs, durationMs: 1000 });

/** A record whose samples are at `T0 + atMs`, each counter as given. */
function record(samples: (Omit<ContentionSample, "atEpochMs"> & { atMs: number })[]) {
  return {
    samples: samples.map(({ atMs, ...s }) => ({ atEpochMs: T0 + atMs, ...s })),
    clockTicksPerSec: 100,
    startAtEpochMs: T0,
    local: true,
  } satisfies ContentionRecord;
}

Deno.test("valueAt() interpolates between the readings around a time, and none outside them", () => {
  const series = { atMs: [0, 100, 100, 300], values: [0, 10, 10, 50] };
  assert.equal(valueAt(series, 0), 0);
  assert.equal(valueAt(series, 50), 5);
  assert.equal(valueAt(series, 100), 10);
  assert.equal(valueAt(series, 200), 30);
  assert.equal(valueAt(series, -1), undefined);
  assert.equal(valueAt(series, 301), undefined);
  assert.equal(valueAt({ atMs: [], values: [] }, 0), undefined);
});

Deno.test("an interval's figures are the counters' growth over its wall time, in ms", () => {
  const rec = record([
    { atMs: 0, pressureUs: 1_000, stealTicks: [5, 9], serviceWaitNs: 0 },
    { atMs: 1000, pressureUs: 51_000, stealTicks: [7, 10], serviceWaitNs: 4_250_000 },
  ]);
  const [iv] = withIntervalContention([second(0)], rec);
  // Pressure 50 ms; steal: the busiest CPU's 2 ticks of 10 ms; the service's 4.25 ms.
  assert.deepEqual(iv.contention, { pressureMs: 50, stealMs: 20, serviceWaitMs: 4.3 });
});

Deno.test("an edge between samples is read off the line through them (a sample taken late)", () => {
  // Samples at 0, 1030 (30 ms late) and 1500: 100 ms of pressure per 500 ms around the edge.
  const rec = record([
    { atMs: 0, pressureUs: 0 },
    { atMs: 1030, pressureUs: 103_000 },
    { atMs: 1500, pressureUs: 150_000 },
  ]);
  const [a, b] = withIntervalContention([second(0), { startMs: 1000, durationMs: 500 }], rec);
  assert.equal(a.contention?.pressureMs, 100);
  assert.equal(b.contention?.pressureMs, 50);
});

Deno.test("a counter that was not read, or an interval the samples do not cover, has no figure", () => {
  const rec = record([
    { atMs: 0, stealTicks: [0] },
    { atMs: 500, pressureUs: 10_000, stealTicks: [0] },
    { atMs: 1000, pressureUs: 20_000, stealTicks: [1] },
  ]);
  const [first, past] = withIntervalContention([second(0), second(1000)], rec);
  // Pressure was read from 500 ms on only: not over the first second.
  assert.deepEqual(first.contention, { stealMs: 10 });
  assert.equal("contention" in past, false);
});

Deno.test("without the schedule's time zero no interval gets a figure, nor the run a summary", () => {
  const rec = { ...record([{ atMs: 0, pressureUs: 0 }, { atMs: 1000, pressureUs: 1 }]) };
  delete (rec as Partial<ContentionRecord>).startAtEpochMs;
  const intervals = [second(0)] as IntervalResult[];
  assert.deepEqual(withIntervalContention(intervals, rec), intervals);
  assert.deepEqual(contentionOfRun(intervals, [], rec), { intervals });
});

Deno.test("a counter that went down (a service that restarted) counts no negative growth", () => {
  const rec = record([{ atMs: 0, serviceWaitNs: 9e6 }, { atMs: 1000, serviceWaitNs: 1e6 }]);
  assert.deepEqual(withIntervalContention([second(0)], rec)[0].contention, { serviceWaitMs: 0 });
});

Deno.test("contentionSource() says what could stand for the service's wait", () => {
  const local = (samples: ContentionSample[], isLocal = true) => ({ samples, local: isLocal });
  assert.equal(contentionSource(local([{ atEpochMs: 0, serviceWaitNs: 0 }], false)), "service");
  assert.equal(contentionSource(local([{ atEpochMs: 0, pressureUs: 0 }])), "pressure");
  assert.equal(contentionSource(local([{ atEpochMs: 0, pressureUs: 0 }], false)), "none");
  assert.equal(contentionSource(local([{ atEpochMs: 0, stealTicks: [0] }])), "none");
  assert.equal(contentionSource(local([])), "none");
});

Deno.test("contentionOfRun() summarizes the measured stages and keeps the service it measured", () => {
  const rec = {
    ...record([
      { atMs: 0, pressureUs: 0, serviceWaitNs: 0 },
      { atMs: 1000, pressureUs: 500_000, serviceWaitNs: 100e6 }, // the warmup's second
      { atMs: 2000, pressureUs: 520_000, serviceWaitNs: 110e6 },
      { atMs: 3000, pressureUs: 600_000, serviceWaitNs: 150e6 },
    ]),
    service: { found: "started" as const, pids: [7, 8], name: "nginx" },
  };
  const interval = (startMs: number, stageIndex: number) =>
    ({ ...second(startMs), stageIndex, counts: { scheduled: 10 } }) as IntervalResult;
  const stages = [{ index: 0, warmup: true }, { index: 1, warmup: false }];
  const { intervals, contention } = contentionOfRun(
    [interval(0, 0), interval(1000, 1), interval(2000, 1)],
    stages,
    rec,
  );
  assert.deepEqual(intervals.map((i) => i.contention?.serviceWaitMs), [100, 10, 40]);
  assert.deepEqual(contention, {
    source: "service",
    service: { found: "started", pids: [7, 8], name: "nginx" },
    pressureMs: 100,
    serviceWaitMs: 50,
    // 2 × 40 ms over 1 s at most, for both measured seconds' requests (the first takes its next's).
    share: 0.08,
    worst: { startMs: 2000, waitMs: 40 },
  });
});

Deno.test("worstContention() takes each figure's largest across shards", () => {
  assert.deepEqual(
    worstContention([{ pressureMs: 1, serviceWaitMs: 5 }, { pressureMs: 4, stealMs: 0 }]),
    { pressureMs: 4, stealMs: 0, serviceWaitMs: 5 },
  );
  assert.equal(worstContention([]), undefined);
  assert.equal(worstContention([undefined, {}]), undefined);
});

Deno.test("weakestSource() is the least precise of the shards' sources", () => {
  assert.equal(weakestSource(["service", "service"]), "service");
  assert.equal(weakestSource(["service", "pressure"]), "pressure");
  assert.equal(weakestSource(["pressure", "none", "service"]), "none");
  assert.equal(weakestSource(["service", undefined]), "none"); // a shard that measured nothing
  assert.equal(weakestSource([]), undefined);
});
