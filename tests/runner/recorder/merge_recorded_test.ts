import assert from "node:assert/strict";
import { decodeHistogram } from "../../../runner/hdr/hdr_codec.ts";
import { mergeJourneys, mergeRecordedRuns } from "../../../runner/recorder/merge_recorded.ts";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import { type Completion, type RecordedRun, Recorder } from "../../../runner/recorder/recorder.ts";
import { Schedule } from "../../../runner/schedule/build_schedule.ts";
import { assertSameHistogram } from "../../_helpers/histogram_assertions.ts";

const STAGES = new Schedule({
  arrival: "constant",
  seed: 1,
  weights: [1, 1],
  stages: [
    {
      kind: "constant",
      index: 0,
      name: "warm",
      ratePerSec: 50,
      durationMs: 1000,
      warmup: true,
      line: 1,
    },
    {
      kind: "ramp",
      index: 1,
      name: "up",
      fromPerSec: 50,
      toPerSec: 150,
      durationMs: 2000,
      warmup: false,
      line: 2,
    },
  ],
}).stages;

function newRecorder(): Recorder {
  return new Recorder(STAGES, ["GET /a", "GET /b"], [{ codes: [], classes: [2] }, {
    codes: [],
    classes: [2],
  }]);
}

/** A deterministic mix of requests over the 3 s schedule, some failing, some never written. */
function requests(): Completion[] {
  const out: Completion[] = [];
  for (let i = 0; i < 240; i++) {
    const fireMs = i * 12.4;
    const neverWritten = i % 37 === 0;
    const writtenMs = neverWritten ? NaN : fireMs + (i % 5) * 0.3;
    out.push({
      stageIndex: fireMs < 1000 ? 0 : 1,
      labelIndex: i % 4 === 0 ? 1 : 0,
      fireMs,
      n: i,
      step: 0,
      writtenMs,
      completedMs: fireMs + 0.5 + ((i * 7919) % 400) * (i % 11 === 0 ? 3.1 : 0.07),
      status: neverWritten ? 0 : i % 13 === 0 ? 500 : i % 17 === 0 ? 429 : 200,
      error: neverWritten ? "refused" : undefined,
      bytesSent: neverWritten ? 0 : 40,
      bytesReceived: neverWritten ? 0 : 100 + i,
      firstByteMs: neverWritten ? NaN : fireMs + 0.2 + (i % 7) * 0.05,
      retryAfterS: i % 17 === 0 ? i % 3 : NaN,
    });
  }
  return out;
}

function recordAll(rec: Recorder, cs: Completion[], runMs: number): RecordedRun {
  for (const c of cs) rec.scheduled(c.fireMs, c.stageIndex, c.labelIndex);
  for (const c of cs) {
    rec.complete(c);
    if (c.fireMs < 1000) rec.sendLag(5, c.stageIndex); // warmup: left out everywhere
    else rec.sendLag((c.fireMs % 3) * 0.1, c.stageIndex);
    rec.engineStall((c.fireMs % 2) * 0.2);
  }
  return rec.finish(runMs);
}

Deno.test("merging two records equals recording every request in one recorder", () => {
  const all = requests();
  const single = recordAll(newRecorder().traced(8), all, 4000);
  const even = recordAll(newRecorder().traced(8), all.filter((_, i) => i % 2 === 0), 4000);
  const odd = recordAll(newRecorder().traced(8), all.filter((_, i) => i % 2 === 1), 4000);
  const merged = mergeRecordedRuns([even, odd]);
  // Same counts, same encoded histograms and summaries, same slowest and exemplars, everywhere.
  assert.deepEqual(merged, single);
  assert.equal(merged.stages[1].labels[0].slowest!.length, 10);
  assert.ok(merged.stages[1].labels[0].slowest!.every((r) => /^[0-9a-f]{32}$/.test(r.traceId!)));
  assert.deepEqual(merged.stages[1].labels[0].exemplars!.map((e) => e.percentile), ["90", "99"]);
  for (const [m, s] of merged.stages.map((st, i) => [st, single.stages[i]] as const)) {
    assertSameHistogram(decodeHistogram(m.response.hdr), decodeHistogram(s.response.hdr));
    assertSameHistogram(decodeHistogram(m.service.hdr), decodeHistogram(s.service.hdr));
  }
  assert.equal(merged.stages[1].counts.completed + merged.stages[0].counts.completed, 240);
  assert.ok((merged.stages[1].counts.errors.unexpected_status ?? 0) > 0);
  assert.ok((merged.stages[1].counts.errors.refused ?? 0) > 0);
  assert.ok((merged.stages[1].counts.errors.rate_limited ?? 0) > 0);
  assert.ok(Object.keys(merged.stages[1].counts.retryAfterS ?? {}).length > 1);
  assert.ok(merged.stages[1].ttfb!.count > 100);
  assertSameHistogram(
    decodeHistogram(merged.stages[1].labels[0].ttfb!.hdr),
    decodeHistogram(single.stages[1].labels[0].ttfb!.hdr),
  );
});

Deno.test("a record without time to first byte (written before it) merges with one that has it", () => {
  const all = requests();
  const withTtfb = recordAll(newRecorder(), all.filter((_, i) => i % 2 === 0), 4000);
  const without = recordAll(
    newRecorder(),
    all.filter((_, i) => i % 2 === 1).map((c) => ({ ...c, firstByteMs: NaN })),
    4000,
  );
  const merged = mergeRecordedRuns([without, withTtfb]);
  assert.deepEqual(merged.stages[1].ttfb, withTtfb.stages[1].ttfb);
  assert.equal(
    mergeRecordedRuns([without, without]).stages[1].ttfb,
    undefined,
    "none where no part has one",
  );
});

Deno.test("intervals are aligned by start even where only one record has them", () => {
  const all = requests();
  const early = all.filter((c) => c.fireMs < 1000);
  const late = all.filter((c) => c.fireMs >= 1000);
  const a = recordAll(newRecorder(), early, 1000);
  const b = recordAll(newRecorder(), late, 4000);
  assert.ok(a.intervals.length < b.intervals.length);
  const merged = mergeRecordedRuns([b, a]);
  assert.deepEqual(merged.intervals.map((i) => i.startMs), [0, 1000, 2000, 3000]);
  const single = recordAll(newRecorder(), all, 4000);
  assert.deepEqual(merged.intervals, single.intervals);
});

Deno.test("merged intervals sum the per-second rates of their parts", () => {
  const all = requests();
  const a = recordAll(newRecorder(), all.filter((_, i) => i % 3 === 0), 4000);
  const b = recordAll(newRecorder(), all.filter((_, i) => i % 3 !== 0), 4000);
  const merged = mergeRecordedRuns([a, b]);
  merged.intervals.forEach((m, k) => {
    const [x, y] = [a.intervals[k], b.intervals[k]];
    assert.equal(m.intendedPerSec, x.intendedPerSec + y.intendedPerSec);
    assert.equal(m.sentPerSec, x.sentPerSec + y.sentPerSec);
    assert.equal(m.completedPerSec, x.completedPerSec + y.completedPerSec);
    assert.equal(m.counts.scheduled, x.counts.scheduled + y.counts.scheduled);
  });
  assert.ok(merged.intervals[1].intendedPerSec > 0);
});

Deno.test("mergeRecordedRuns() refuses nothing and returns a single record unchanged", () => {
  assert.throws(() => mergeRecordedRuns([]), RangeError);
  const one = recordAll(newRecorder(), requests(), 4000);
  assert.equal(mergeRecordedRuns([one]), one);
});

Deno.test("merging records adds each label's checks by position; a label without checks has none", () => {
  const names = [[{ text: "/id exists", line: 3 }], undefined];
  const runs = [[1, 0, 1], [0, 0]].map((fails) => {
    const rec = newRecorder();
    rec.countChecks(names);
    const cs = fails.map((f, i): Completion => ({
      stageIndex: 1,
      labelIndex: 0,
      fireMs: 1100 + i * 10,
      writtenMs: 1100 + i * 10,
      completedMs: 1105 + i * 10,
      status: 200,
      bytesSent: 1,
      bytesReceived: 1,
      checkFailed: Uint8Array.of(f),
    }));
    return recordAll(rec, cs, 3000);
  });
  const merged = mergeRecordedRuns(runs);
  assert.deepEqual(merged.stages[1].labels[0].checks, [
    { text: "/id exists", line: 3, evaluated: 5, failed: 2 },
  ]);
  assert.equal(merged.stages[1].labels[1].checks, undefined);
});

Deno.test("workers' journeys merge: counts added, journey times merged exactly, skips per step", () => {
  const tally = (ms: number[], skipped: number) => {
    const h = createHistogram();
    for (const v of ms) h.recordValue(v * 1000);
    return {
      name: "order",
      journey: toEncodedHistogram(h),
      thinkMs: 50 * ms.length,
      started: ms.length + skipped,
      completed: ms.length,
      failed: skipped,
      steps: [{ label: "order / a", skipped: 0 }, { label: "order / b", skipped }],
    };
  };
  const [merged] = mergeJourneys([[tally([10, 20], 1)], [tally([30], 2)]]);
  assert.deepEqual(
    [merged.started, merged.completed, merged.failed, merged.thinkMs],
    [6, 3, 3, 150],
  );
  assert.equal(merged.journey.count, 3);
  assert.ok(Math.abs(merged.journey.maxUs - 30_000) <= 30);
  assert.deepEqual(merged.steps.map((s) => s.skipped), [0, 3]);
});

Deno.test("merging two workers' gRPC records equals one recorder: statuses by name, messages", () => {
  const grpcRecorder = () =>
    new Recorder(STAGES, ["Greeter/SayHello", "RouteGuide/ListFeatures"], [
      { codes: [1000], classes: [] },
      { codes: [1000], classes: [] },
    ]);
  // The HTTP mix as gRPC calls: 500 as UNAVAILABLE (1014), 429 as RESOURCE_EXHAUSTED (1008),
  // every OK stream of label 1 with i % 9 messages.
  const all = requests().map((c, i) => {
    const status = c.status === 0 ? 0 : c.status === 500 ? 1014 : c.status === 429 ? 1008 : 1000;
    return { ...c, status, messages: status === 1000 ? (c.labelIndex === 1 ? i % 9 : 1) : 0 };
  });
  const single = recordAll(grpcRecorder(), all, 4000);
  const even = recordAll(grpcRecorder(), all.filter((_, i) => i % 2 === 0), 4000);
  const odd = recordAll(grpcRecorder(), all.filter((_, i) => i % 2 === 1), 4000);
  const merged = mergeRecordedRuns([even, odd]);
  assert.deepEqual(merged, single);
  const counts = merged.stages[1].counts;
  assert.deepEqual(Object.keys(counts.statusCodes).sort(), [
    "OK",
    "RESOURCE_EXHAUSTED",
    "UNAVAILABLE",
  ]);
  assert.equal(counts.errors.rate_limited, undefined);
  const okStreams = all.filter((c) => c.stageIndex === 1 && c.status === 1000);
  assert.equal(counts.messages, okStreams.reduce((n, c) => n + c.messages, 0));
});
