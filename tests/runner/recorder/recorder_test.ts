import assert from "node:assert/strict";
import type { PlanStage, StatusExpectation } from "../../../runner/plan/types.ts";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import { decodeHistogram } from "../../../runner/hdr/hdr_codec.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import { type Completion, Recorder } from "../../../runner/recorder/recorder.ts";
import type { EncodedHistogram } from "../../../runner/model/run_result.ts";
import { Schedule } from "../../../runner/schedule/build_schedule.ts";
import { traceIdHex } from "../../../runner/schedule/mod.ts";
import { assertSameHistogram } from "../../_helpers/histogram_assertions.ts";

const LABELS = ["GET /a", "GET /b"];
const EXPECTS: StatusExpectation[] = [{ codes: [], classes: [2] }, { codes: [404], classes: [2] }];

/** A 1 s warmup stage then a 2 s measured stage, both at 10/s. */
function windows(stages: PlanStage[] = [
  constant(0, "warm", 1000, true),
  constant(1, "main", 2000, false),
]) {
  return new Schedule({ arrival: "constant", seed: 1, weights: [1, 1], stages }).stages;
}

function constant(index: number, name: string, durationMs: number, warmup: boolean): PlanStage {
  return { kind: "constant", index, name, ratePerSec: 10, durationMs, warmup, line: index + 1 };
}

function newRecorder(stages = windows()): Recorder {
  return new Recorder(stages, LABELS, EXPECTS);
}

/** A request answered 200, written `writeAfterMs` after its fire time. */
function done(over: Partial<Completion> & Pick<Completion, "fireMs" | "completedMs">): Completion {
  return {
    stageIndex: 0,
    labelIndex: 0,
    writtenMs: over.fireMs,
    status: 200,
    bytesSent: 10,
    bytesReceived: 100,
    ...over,
  };
}

/** Schedules and completes a request in one go. */
function record(rec: Recorder, c: Completion): void {
  rec.scheduled(c.fireMs, c.stageIndex, c.labelIndex);
  rec.complete(c);
}

function buckets(h: EncodedHistogram): Array<[number, number]> {
  return [...decodeHistogram(h.hdr).recordedValues()].map((v) => [v.valueUs, v.count]);
}

Deno.test("requests are counted per stage, per label and per interval of intended send time", () => {
  const rec = newRecorder();
  record(rec, done({ fireMs: 100, completedMs: 101, stageIndex: 0, labelIndex: 0 }));
  record(rec, done({ fireMs: 1100, completedMs: 1101, stageIndex: 1, labelIndex: 0 }));
  record(rec, done({ fireMs: 1200, completedMs: 1201, stageIndex: 1, labelIndex: 1 }));
  // Fired in second 2, completed in second 3: filed under second 2.
  record(rec, done({ fireMs: 2900, completedMs: 3100, stageIndex: 1, labelIndex: 1 }));
  const run = rec.finish(3000);
  const [warm, main] = run.stages;
  assert.deepEqual(warm.labels.map((l) => l.counts.completed), [1, 0]);
  assert.deepEqual(main.labels.map((l) => l.counts.completed), [1, 2]);
  assert.equal(main.counts.scheduled, 3);
  assert.equal(main.counts.ok, 3);
  assert.equal(main.counts.bytesReceived, 300);
  assert.deepEqual(main.counts.statusCodes, { "200": 3 });
  assert.deepEqual(run.intervals.map((i) => [i.startMs, i.counts.scheduled, i.counts.completed]), [
    [0, 1, 1],
    [1000, 2, 2],
    [2000, 1, 1],
    [3000, 0, 0],
  ]);
  assert.deepEqual(run.intervals.map((i) => i.stageIndex), [0, 1, 1, 1]);
  assert.equal(rec.completed, 4);
  assert.equal(rec.errors, 0);
});

Deno.test("response time runs from the fire time and service time from the write", () => {
  const rec = newRecorder();
  // Intended at 100 ms, written at 100.5 ms, complete at 101.5 ms: 1500 us and 1000 us.
  record(rec, done({ fireMs: 100, writtenMs: 100.5, completedMs: 101.5 }));
  const [warm] = rec.finish(3000).stages;
  assert.deepEqual(buckets(warm.response), [[1500, 1]]);
  assert.deepEqual(buckets(warm.service), [[1000, 1]]);
  assert.equal(warm.response.percentilesUs["50"], 1500);
  assert.equal(warm.service.maxUs, 1000);
});

Deno.test("a failed request is counted, never recorded as a latency", () => {
  const rec = newRecorder();
  record(rec, done({ fireMs: 10, completedMs: 12 }));
  record(rec, {
    ...done({ fireMs: 20, completedMs: 21.5 }),
    writtenMs: NaN,
    status: 0,
    error: "refused",
    bytesSent: 0,
    bytesReceived: 0,
  });
  const [warm] = rec.finish(3000).stages;
  // Its 1.5 ms to the refusal is no latency of the server's: gates count it beyond every bound.
  assert.equal(warm.response.count, 1);
  assert.equal(warm.service.count, 1);
  assert.deepEqual(buckets(warm.response), [[2000, 1]]);
  assert.equal(warm.counts.sent, 1);
  assert.equal(warm.counts.completed, 2);
  assert.deepEqual(warm.counts.errors, { refused: 1 });
  assert.deepEqual(warm.counts.statusCodes, { "200": 1 });
  assert.equal(rec.errors, 1);
});

Deno.test("a status outside `expect` is an unexpected_status error and its code is still counted", () => {
  const rec = newRecorder();
  record(rec, done({ fireMs: 1, completedMs: 2, labelIndex: 0, status: 404 }));
  record(rec, done({ fireMs: 2, completedMs: 3, labelIndex: 1, status: 404 }));
  record(rec, done({ fireMs: 3, completedMs: 4, labelIndex: 1, status: 503 }));
  const [warm] = rec.finish(1000).stages;
  const [a, b] = warm.labels;
  assert.deepEqual(a.counts.errors, { unexpected_status: 1 });
  assert.equal(a.counts.ok, 0);
  assert.deepEqual(a.counts.statusCodes, { "404": 1 });
  // Label b expects 404 explicitly.
  assert.deepEqual(b.counts.errors, { unexpected_status: 1 });
  assert.equal(b.counts.ok, 1);
  assert.deepEqual(b.counts.statusCodes, { "404": 1, "503": 1 });
  // Only the expected answer is a latency: the unexpected 404 and 503 are failures.
  assert.equal(a.response.count, 0);
  assert.equal(b.response.count, 1);
  assert.deepEqual(warm.counts.errors, { unexpected_status: 2 });
  assert.equal(rec.errors, 2);
});

Deno.test("an interval closes only once scheduled past and every request in it completed", () => {
  const rec = newRecorder();
  rec.scheduled(500, 0, 0);
  rec.scheduled(1500, 1, 0);
  rec.complete(done({ fireMs: 1500, completedMs: 1502, stageIndex: 1 })); // 2000 us
  rec.closeIntervals(1999);
  assert.equal(rec.latestP99Us(), undefined, "second 1 is not yet fully scheduled");
  rec.closeIntervals(2000);
  assert.equal(rec.latestP99Us(), 2000, "second 1 closed; second 0 still has a request out");
  rec.complete(done({ fireMs: 500, completedMs: 501.75 })); // 1750 us
  rec.closeIntervals(2000);
  assert.equal(rec.latestP99Us(), 1750, "second 0 closed once its request completed");
  const run = rec.finish(4500);
  assert.deepEqual(run.intervals.map((i) => i.startMs), [0, 1000, 2000, 3000, 4000]);
  assert.deepEqual(run.intervals.map((i) => i.response.count), [1, 1, 0, 0, 0]);
});

Deno.test("finish() gives the drain seconds after the schedule an interval with their rates", () => {
  const rec = newRecorder();
  record(rec, done({ fireMs: 2900, writtenMs: 2901, completedMs: 4200, stageIndex: 1 }));
  const run = rec.finish(4300);
  assert.deepEqual(run.intervals.map((i) => i.startMs), [0, 1000, 2000, 3000, 4000]);
  assert.deepEqual(run.intervals.map((i) => i.durationMs), [1000, 1000, 1000, 1000, 1000]);
  assert.deepEqual(run.intervals.map((i) => i.completedPerSec), [0, 0, 0, 0, 1]);
  assert.deepEqual(run.intervals.map((i) => i.sentPerSec), [0, 0, 1, 0, 0]);
  assert.deepEqual(run.intervals.map((i) => i.intendedPerSec), [0, 0, 1, 0, 0]);
});

Deno.test("a partial last interval reports its rate per second of its own length", () => {
  const rec = newRecorder(windows([constant(0, "only", 1500, false)]));
  record(rec, done({ fireMs: 1100, completedMs: 1101 }));
  record(rec, done({ fireMs: 1200, completedMs: 1201 }));
  const run = rec.finish(1500);
  assert.deepEqual(run.intervals.map((i) => [i.startMs, i.durationMs]), [[0, 1000], [1000, 500]]);
  assert.equal(run.intervals[1].intendedPerSec, 4);
  assert.equal(run.intervals[1].completedPerSec, 4);
});

Deno.test("send lag and connection waits of warmup stages are left out", () => {
  const rec = newRecorder();
  rec.sendLag(9, 0);
  rec.sendLag(0.25, 1);
  rec.queueWait(7, 0);
  rec.queueWait(0.5, 1);
  rec.queueWait(0.75, 1);
  const run = rec.finish(3000);
  assert.deepEqual(buckets(run.sendLag), [[250, 1]]);
  assert.deepEqual(buckets(run.queueWait), [[500, 1], [750, 1]]);
});

Deno.test("an engine stall longer than the probe period is back-filled once per period", () => {
  const rec = newRecorder();
  rec.engineStall(0.04);
  rec.engineStall(3.5);
  const run = rec.finish(3000);
  // 3.5 ms stands for the work due 3.5, 2.5, 1.5 and 0.5 ms before the loop ran again (above
  // 2048 us a bucket is 2 us wide, so 2500 and 3500 read as their buckets' tops).
  assert.deepEqual(buckets(run.engineStall), [[40, 1], [500, 1], [1500, 1], [2501, 1], [3501, 1]]);
  assert.equal(run.platformHiccup.count, 0, "no probe ran: an empty histogram, not a made-up one");
});

Deno.test("the platform-hiccup histogram the engine hands in is kept as given", () => {
  const rec = newRecorder();
  const h = createHistogram();
  h.recordValue(2_000);
  const run = rec.finish(3000, toEncodedHistogram(h));
  assert.deepEqual(buckets(run.platformHiccup), [[2000, 1]]);
});

Deno.test("a stage's totals are the exact merge of its labels, and intervals merge into stages", () => {
  const rec = newRecorder();
  for (let i = 0; i < 300; i++) {
    const fireMs = 1000 + i * 6.5;
    const labelIndex = i % 3 === 0 ? 1 : 0;
    const writtenMs = fireMs + (i % 7) * 0.9;
    record(
      rec,
      done({
        fireMs,
        writtenMs,
        completedMs: writtenMs + 1 + i * i * 0.01,
        labelIndex,
        stageIndex: 1,
      }),
    );
  }
  const run = rec.finish(3000);
  const main = run.stages[1];
  for (const kind of ["response", "service"] as const) {
    const labels = createHistogram();
    for (const l of main.labels) labels.add(decodeHistogram(l[kind].hdr));
    const stage = decodeHistogram(main[kind].hdr);
    assert.equal(stage.totalCount, 300);
    assertSameHistogram(stage, labels);
    const intervals = createHistogram();
    for (const i of run.intervals.filter((i) => i.stageIndex === 1)) {
      intervals.add(decodeHistogram(i[kind].hdr));
    }
    assertSameHistogram(stage, intervals);
  }
  assert.deepEqual(main.labels.map((l) => l.counts.completed), [200, 100]);
  assert.equal(main.counts.bytesSent, 3000);
});

Deno.test("histograms reused after an interval closes start empty", () => {
  const rec = newRecorder();
  record(rec, done({ fireMs: 100, completedMs: 101.25 }));
  rec.closeIntervals(1000);
  record(rec, done({ fireMs: 1100, completedMs: 1101, stageIndex: 1 }));
  const run = rec.finish(2000);
  assert.deepEqual(buckets(run.intervals[1].response), [[1000, 1]]);
  assert.deepEqual(buckets(run.stages[0].response), [[1250, 1]]);
});

Deno.test("histograms are kept only for the labels and seconds that had requests", () => {
  const labels = Array.from({ length: 1000 }, (_, i) => `GET /items/${i}`);
  const expects = labels.map(() => EXPECTS[0]);
  const before = Deno.memoryUsage().external;
  const rec = new Recorder(windows(), labels, expects);
  record(rec, done({ fireMs: 100, completedMs: 102, labelIndex: 3 }));
  record(rec, done({ fireMs: 1500, completedMs: 1501, labelIndex: 700, stageIndex: 1 }));
  // Two labels, each in one stage and one second: 8 histograms of 188 KB (a pair for every
  // label in every stage and second would be 8000, 1.5 GB).
  const grownMb = (Deno.memoryUsage().external - before) / 1e6;
  assert.ok(grownMb < 20, `${grownMb.toFixed(0)} MB of histograms for two labels`);
  const run = rec.finish(3000);
  for (const [stage, busy, us] of [[0, 3, 2000], [1, 700, 1000]]) {
    const got = run.stages[stage].labels;
    assert.deepEqual(got.map((l) => l.label), labels, "every label is still reported");
    assert.deepEqual(buckets(got[busy].response), [[us, 1]]);
    assert.deepEqual(buckets(run.stages[stage].response), [[us, 1]]);
    const idle = got[busy + 1];
    assert.deepEqual([idle.counts.scheduled, idle.response.count, buckets(idle.service)], [
      0,
      0,
      [],
    ]);
  }
  assert.deepEqual(run.intervals.map((i) => i.labels.length), [1000, 1000, 1000]);
  assert.deepEqual(run.intervals.map((i) => i.counts.completed), [1, 1, 0]);
});

Deno.test("a stage's histograms are freed for the next once its requests have all completed", () => {
  const labels = Array.from({ length: 50 }, (_, i) => `GET /items/${i}`);
  const expects = labels.map(() => EXPECTS[0]);
  const stages = windows(Array.from({ length: 6 }, (_, i) => constant(i, `s${i}`, 1000, false)));
  const before = Deno.memoryUsage().external;
  const rec = new Recorder(stages, labels, expects);
  for (let stage = 0; stage < 6; stage++) {
    labels.forEach((_, label) => {
      const fireMs = stage * 1000 + label * 10;
      record(
        rec,
        done({
          fireMs,
          completedMs: fireMs + 0.5 + stage / 4,
          labelIndex: label,
          stageIndex: stage,
        }),
      );
    });
    rec.closeIntervals((stage + 1) * 1000);
  }
  // Every label in six stages: 100 histograms a second, reused; a set per stage would be 600
  // (113 MB) besides the seconds'. (No first byte here: no ttfb histogram is taken.)
  const grownMb = (Deno.memoryUsage().external - before) / 1e6;
  assert.ok(grownMb < 60, `${grownMb.toFixed(0)} MB of histograms for one stage at a time`);
  const run = rec.finish(6000);
  run.stages.forEach((stage, i) => {
    assert.deepEqual(stage.labels.map((l) => l.counts.completed), labels.map(() => 1));
    assert.deepEqual(buckets(stage.labels[7].response), [[500 + 250 * i, 1]]);
    assert.deepEqual(buckets(stage.response), [[500 + 250 * i, 50]]);
    assert.equal(stage.counts.completed, 50);
  });
});

Deno.test("time to first byte is recorded from the intended send time, for answered requests only", () => {
  const rec = newRecorder();
  // Written 1 ms late, first byte 2 ms after the fire time, complete 205 ms after it.
  record(
    rec,
    done({ fireMs: 1100, writtenMs: 1101, firstByteMs: 1102, completedMs: 1305, stageIndex: 1 }),
  );
  // A failed request's first byte is not a latency: counted, never recorded.
  record(
    rec,
    done({ fireMs: 1200, firstByteMs: 1201, completedMs: 1202, status: 500, stageIndex: 1 }),
  );
  // No first byte (NaN): nothing recorded in ttfb, the response time still is.
  record(rec, done({ fireMs: 1300, firstByteMs: NaN, completedMs: 1310, stageIndex: 1 }));
  const run = rec.finish(3000);
  const main = run.stages[1];
  assert.deepEqual(buckets(main.labels[0].ttfb!), [[2000, 1]]);
  assert.equal(main.labels[0].response.count, 2);
  assert.ok(Math.abs(main.labels[0].response.maxUs - 205_000) < 205);
  assert.deepEqual(buckets(main.ttfb!), [[2000, 1]]);
  assert.deepEqual(buckets(run.intervals[1].labels[0].ttfb!), [[2000, 1]]);
  // A stage with no first byte has none, as a result written before ttfb.
  assert.equal(run.stages[0].ttfb, undefined);
  assert.equal(run.stages[0].labels[0].ttfb, undefined);
});

Deno.test("a 429, or a 503 with a Retry-After, is rate_limited, its Retry-After counted", () => {
  const rec = newRecorder();
  const at = (fireMs: number, status: number, retryAfterS?: number, labelIndex = 0) =>
    record(
      rec,
      done({ fireMs, completedMs: fireMs + 1, status, retryAfterS, labelIndex, stageIndex: 1 }),
    );
  at(1100, 429, 30);
  at(1200, 429, 30);
  at(1300, 429); // no Retry-After: still rate limited
  at(1400, 503, 0);
  at(1500, 503); // no Retry-After: an unexpected status, as before
  at(2100, 429, NaN); // an unreadable one
  at(2200, 200, 5); // expected: a Retry-After on a success is not counted
  const run = rec.finish(3000);
  const counts = run.stages[1].labels[0].counts;
  assert.deepEqual(counts.errors, { rate_limited: 5, unexpected_status: 1 });
  assert.deepEqual(counts.retryAfterS, { "0": 1, "30": 2 });
  assert.deepEqual(counts.statusCodes, { "200": 1, "429": 4, "503": 2 });
  assert.equal(counts.ok, 1);
  assert.deepEqual(run.intervals[1].counts.errors, { rate_limited: 4, unexpected_status: 1 });
  assert.deepEqual(run.intervals[2].counts.errors, { rate_limited: 1 });
  assert.deepEqual(run.intervals[2].counts.retryAfterS, undefined);
});

Deno.test("a 429 a label expects is ok, not rate_limited", () => {
  const rec = new Recorder(windows(), LABELS, [{ codes: [429], classes: [2] }, EXPECTS[1]]);
  record(
    rec,
    done({ fireMs: 1100, completedMs: 1101, status: 429, retryAfterS: 3, stageIndex: 1 }),
  );
  const counts = rec.finish(3000).stages[1].labels[0].counts;
  assert.deepEqual([counts.ok, counts.errors, counts.retryAfterS], [1, {}, undefined]);
});

Deno.test("checks are counted per stage, label and check; a check_failed request is no latency", () => {
  const rec = newRecorder();
  rec.countChecks([
    [{ text: "/id exists", line: 4 }, { text: "body contains ok", line: 5 }],
    undefined,
  ]);
  const fails = Uint8Array.of(0, 1);
  const passes = Uint8Array.of(0, 0);
  record(rec, done({ fireMs: 1100, completedMs: 1102, stageIndex: 1, checkFailed: passes }));
  record(
    rec,
    done({
      fireMs: 1200,
      completedMs: 1250,
      stageIndex: 1,
      error: "check_failed",
      checkFailed: fails,
    }),
  );
  // Not answered (a timeout): its checks were not evaluated, so not counted.
  record(
    rec,
    done({ fireMs: 1300, completedMs: 1400, stageIndex: 1, status: 0, error: "timeout" }),
  );
  record(rec, done({ fireMs: 1400, completedMs: 1401, stageIndex: 1, labelIndex: 1 }));
  const run = rec.finish(3000);
  const [a, b] = run.stages[1].labels;
  assert.deepEqual(a.checks, [
    { text: "/id exists", line: 4, evaluated: 2, failed: 0 },
    { text: "body contains ok", line: 5, evaluated: 2, failed: 1 },
  ]);
  assert.equal(b.checks, undefined);
  assert.equal(run.stages[0].labels[0].checks?.[0].evaluated, 0);
  assert.deepEqual(a.counts.errors, { check_failed: 1, timeout: 1 });
  assert.equal(a.counts.ok, 1);
  assert.deepEqual(buckets(a.response).map(([us]) => Math.round(us / 1000)), [2]);
  // Intervals carry counts (check_failed among the errors), not the per-check rows.
  const second = run.intervals.find((i) => i.startMs === 1000)!;
  assert.deepEqual(second.labels[0].counts.errors, { check_failed: 1, timeout: 1 });
  assert.equal(second.labels[0].checks, undefined);
});

Deno.test("a recorder told of no checks reports none, as before checks existed", () => {
  const rec = newRecorder();
  rec.countChecks([undefined, []]);
  record(
    rec,
    done({ fireMs: 1100, completedMs: 1102, stageIndex: 1, checkFailed: Uint8Array.of() }),
  );
  const run = rec.finish(3000);
  assert.ok(run.stages.every((s) => s.labels.every((l) => !("checks" in l))));
});

Deno.test("a journey's step scheduled at its due time keeps its interval and stage open until it completes", () => {
  // One 2 s stage; step 1 fired at 900 ms, completed at 1,400 ms; step 2 made then, due at
  // 1,950 ms (think 550 ms): interval 1 and the stage must wait for it.
  const stages = windows([constant(0, "main", 2000, false)]);
  const rec = newRecorder(stages);
  rec.scheduled(900, 0, 0);
  rec.complete(done({ fireMs: 900, completedMs: 1400, labelIndex: 0 }));
  rec.scheduled(1950, 0, 1);
  // The tick at 2,500 ms: the schedule has passed the stage, interval 1 ends before it.
  rec.closeIntervals(2499);
  rec.complete(done({ fireMs: 1950, completedMs: 2600, labelIndex: 1 }));
  rec.closeIntervals(2999);
  const run = rec.finish(3000);
  const second = run.intervals.find((i) => i.startMs === 1000)!;
  assert.equal(second.labels[1].counts.completed, 1, "the step is in its due time's interval");
  assert.equal(run.stages[0].labels[1].counts.completed, 1, "and in its stage");
  assert.equal(run.intervals.filter((i) => i.startMs === 1000).length, 1);
});

Deno.test("a withdrawn step (a stop before it fell due) is neither scheduled nor outstanding", () => {
  const stages = windows([constant(0, "main", 2000, false)]);
  const rec = newRecorder(stages);
  rec.scheduled(1500, 0, 1);
  rec.withdrawn(1500, 0, 1);
  rec.closeIntervals(2999);
  const run = rec.finish(2000);
  assert.equal(run.stages[0].counts.scheduled, 0);
  assert.equal(run.intervals.find((i) => i.startMs === 1000)!.counts.scheduled, 0);
});

Deno.test("journeys' later steps' lag is recorded apart, and only for a plan with journeys", () => {
  const plain = newRecorder();
  plain.stepLag(5, 1);
  assert.equal(plain.finish(1_000).stepLag, undefined, "no journeys: no step lag figure");
  const withJourneys = newRecorder().withJourneys([{ name: "j", stepLabels: [0, 1] }]);
  withJourneys.stepLag(5, 1);
  withJourneys.stepLag(7, 0); // a warmup stage: left out, as send lag's
  const recorded = withJourneys.finish(1_000);
  assert.equal(recorded.stepLag?.count, 1);
  assert.equal(recorded.sendLag.count, 0, "never in the schedule's send lag");
});

Deno.test("a gRPC call's status is counted by its name, an HTTP status by its number", () => {
  // A gRPC label expects OK (1000 + 0), as the plan stores it.
  const rec = new Recorder(windows(), LABELS, [{ codes: [1000], classes: [] }, EXPECTS[1]]);
  const at = (fireMs: number, status: number, labelIndex = 0, messages?: number) =>
    record(rec, done({ fireMs, completedMs: fireMs + 1, status, labelIndex, messages }));
  at(1, 1000, 0, 1);
  at(2, 1000, 0, 1);
  at(3, 1014, 0, 0); // UNAVAILABLE, trailers only
  at(4, 1004, 0); // DEADLINE_EXCEEDED
  at(5, 1017, 0); // a code past the named ones
  at(6, 200, 1);
  const [warm] = rec.finish(1000).stages;
  const [grpc, http] = warm.labels;
  assert.deepEqual(grpc.counts.statusCodes, {
    OK: 2,
    UNAVAILABLE: 1,
    DEADLINE_EXCEEDED: 1,
    GRPC_17: 1,
  });
  assert.deepEqual([grpc.counts.ok, grpc.counts.errors], [2, { unexpected_status: 3 }]);
  assert.deepEqual(http.counts.statusCodes, { "200": 1 });
  assert.equal("messages" in http.counts, false, "an HTTP label's counts have no messages");
  assert.equal(grpc.counts.messages, 2);
});

Deno.test("a gRPC status is never rate_limited, RESOURCE_EXHAUSTED with a Retry-After neither", () => {
  const rec = new Recorder(windows(), LABELS, [{ codes: [1000], classes: [] }, EXPECTS[1]]);
  // 1008 RESOURCE_EXHAUSTED; 1429 and 1503 would be gRPC codes 429 and 503, not HTTP's.
  for (const [i, status] of [1008, 1429, 1503].entries()) {
    record(rec, done({ fireMs: i + 1, completedMs: i + 2, status, retryAfterS: 30 }));
  }
  const counts = rec.finish(1000).stages[0].labels[0].counts;
  assert.deepEqual(counts.errors, { unexpected_status: 3 });
  assert.deepEqual(counts.statusCodes, { RESOURCE_EXHAUSTED: 1, GRPC_429: 1, GRPC_503: 1 });
  assert.equal(counts.retryAfterS, undefined);
});

Deno.test("a server stream's messages are counted for its successful calls, per stage and interval", () => {
  const rec = new Recorder(windows(), LABELS, [{ codes: [1000], classes: [] }, EXPECTS[1]]);
  const at = (fireMs: number, stageIndex: number, status: number, messages: number) =>
    record(rec, done({ fireMs, completedMs: fireMs + 1, stageIndex, status, messages }));
  at(100, 0, 1000, 64);
  at(1100, 1, 1000, 10);
  at(1200, 1, 1000, 20);
  at(2100, 1, 1014, 5); // broken off: its messages are no stream's figure
  const run = rec.finish(3000);
  assert.deepEqual(run.stages.map((s) => s.labels[0].counts.messages), [64, 30]);
  assert.deepEqual(run.stages.map((s) => s.counts.messages), [64, 30]);
  assert.deepEqual(run.intervals.map((i) => i.counts.messages), [64, 30, undefined]);
});

Deno.test("a stage's labels name their slowest requests and exemplars; intervals do not", () => {
  const rec = newRecorder().traced(5);
  for (let n = 0; n < 200; n++) {
    const fireMs = 1000 + n * 5;
    const slow = n === 150 ? 900 : n === 30 ? 400 : 1;
    record(
      rec,
      done({ fireMs, completedMs: fireMs + slow, stageIndex: 1, labelIndex: 0, n, step: 0 }),
    );
  }
  const run = rec.finish(3000);
  const [warm, main] = run.stages;
  assert.deepEqual(warm.labels[0].slowest, []);
  assert.deepEqual(warm.labels[0].exemplars, []);
  const slowest = main.labels[0].slowest!;
  assert.equal(slowest.length, 10);
  assert.deepEqual(slowest.slice(0, 2), [
    { traceId: traceIdHex(5, 150, 0), intendedMs: 1750, responseUs: 900_000, status: 200 },
    { traceId: traceIdHex(5, 30, 0), intendedMs: 1150, responseUs: 400_000, status: 200 },
  ]);
  assert.deepEqual(main.labels[0].exemplars!.map((e) => e.percentile), ["90", "99"]);
  assert.equal(run.intervals.some((i) => i.labels.some((l) => "slowest" in l)), false);
});

Deno.test("without trace, the slowest requests carry no trace id", () => {
  const rec = newRecorder();
  record(
    rec,
    done({ fireMs: 1100, completedMs: 1300, stageIndex: 1, labelIndex: 1, n: 3, step: 0 }),
  );
  const [, main] = rec.finish(3000).stages;
  assert.deepEqual(main.labels[1].slowest, [{
    intendedMs: 1100,
    responseUs: 200_000,
    status: 200,
  }]);
});
