import assert from "node:assert/strict";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import { InlineIntervalStore } from "../../../runner/recorder/interval_store.ts";
import { encodeRawInterval, type RawInterval } from "../../../runner/recorder/raw_interval.ts";
import { emptyCounts } from "../../../runner/model/request_counts.ts";
import {
  startIntervalEncoder,
  WorkerIntervalStore,
} from "../../../runner/recorder/worker_interval_store.ts";

function raw(index: number): RawInterval {
  const labels = ["a", "b"].map((label, i) => {
    const response = createHistogram();
    const service = createHistogram();
    for (let k = 0; k < 50; k++) {
      response.recordValue(100 + 37 * k * (i + 1) + index);
      service.recordValue(50 + 11 * k + index);
    }
    return {
      label,
      counts: { ...emptyCounts(), scheduled: 50, sent: 50, completed: 50, ok: 50 },
      response: response.toSparse(),
      service: service.toSparse(),
    };
  });
  return {
    startMs: index * 1000,
    durationMs: 1000,
    stageIndex: 0,
    sentPerSec: 100,
    completedPerSec: 100,
    labels,
  };
}

Deno.test("the worker store encodes intervals exactly as the inline store does", async () => {
  const inline = new InlineIntervalStore();
  const encoder = startIntervalEncoder();
  const worker = new WorkerIntervalStore(encoder.port);
  try {
    assert.equal(typeof await encoder.ready, "boolean");
    for (let i = 0; i < 5; i++) {
      inline.add(raw(i));
      worker.add(raw(i));
    }
    await worker.flush();
    assert.equal(worker.all().length, 5);
    assert.deepEqual(worker.all(), inline.all());
    assert.equal(worker.latestP99Us(), inline.latestP99Us());
    // The merged interval holds both labels' 100 values.
    assert.equal(worker.all()[0].response.count, 100);
    // After the flush, intervals are encoded inline (the run is over: no hot path to spare).
    worker.add(raw(5));
    assert.equal(worker.all().length, 6);
  } finally {
    worker.close();
    await encoder.close();
  }
});

Deno.test("intervals posted before the encoder runs are encoded once it does", async () => {
  const encoder = startIntervalEncoder();
  const worker = new WorkerIntervalStore(encoder.port);
  worker.add(raw(0)); // the encoder's modules are still loading
  await encoder.ready;
  await worker.flush();
  assert.deepEqual(worker.all().map((i) => i.startMs), [0]);
  await encoder.close();
});

Deno.test("a store that stops using its encoder still returns every interval it was given", async () => {
  const encoder = startIntervalEncoder();
  await encoder.ready;
  const worker = new WorkerIntervalStore(encoder.port);
  worker.add(raw(0));
  worker.add(raw(1));
  worker.close(); // before the encoder answers: the two are still raw here
  worker.add(raw(2));
  await worker.flush();
  assert.deepEqual(worker.all().map((i) => i.startMs), [0, 1000, 2000]);
  assert.equal(worker.all()[1].counts.completed, 100);
  await encoder.close();
});

Deno.test("a flush whose encoder was ended gives up after its wait and loses nothing", async () => {
  const encoder = startIntervalEncoder();
  await encoder.ready;
  const worker = new WorkerIntervalStore(encoder.port, 100);
  await encoder.close(); // its owner ended it: nothing will answer on the port
  worker.add(raw(0));
  worker.add(raw(1));
  const startMs = performance.now();
  await worker.flush();
  assert.ok(performance.now() - startMs >= 90, "waited for the encoder");
  assert.deepEqual(worker.all().map((i) => i.startMs), [0, 1000]);
});

Deno.test("a flush waits for a slow but steady encoder a bounded time in all, and loses nothing", async () => {
  // An encoder that answers each interval 60 ms after the last: within a 100 ms wait each time,
  // so a wait re-armed at every answer would hold the flush for the whole backlog (300 ms).
  const channel = new MessageChannel();
  let answered = 0;
  let answering = false;
  const queue: RawInterval[] = [];
  const answerNext = () => {
    const next = queue.shift();
    if (next === undefined) return;
    setTimeout(() => {
      answered++;
      channel.port2.postMessage({ type: "encoded", interval: encodeRawInterval(next) });
      answerNext();
    }, 60);
  };
  channel.port2.onmessage = (e) => {
    queue.push(e.data.raw);
    if (!answering) answerNext();
    answering = true;
  };
  const worker = new WorkerIntervalStore(channel.port1, 100);
  for (let i = 0; i < 5; i++) worker.add(raw(i));
  const startMs = performance.now();
  await worker.flush();
  const tookMs = performance.now() - startMs;
  assert.ok(tookMs >= 90 && tookMs < 250, `flushed after ${tookMs.toFixed(0)} ms`);
  assert.ok(answered < 5, "the encoder had not answered them all");
  assert.deepEqual(worker.all().map((i) => i.startMs), [0, 1000, 2000, 3000, 4000]);
  channel.port2.close();
});

Deno.test("the encoder lowers its own thread to SCHED_BATCH at nice 10, never the process", async () => {
  const encoder = startIntervalEncoder();
  try {
    if (!await encoder.ready) return; // no FFI or not Linux: nothing was lowered
    const threads = [...Deno.readDirSync("/proc/self/task")].map((t) => {
      const stat = Deno.readTextFileSync(`/proc/self/task/${t.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd on
      return { tid: Number(t.name), nice: Number(fields[16]), policy: Number(fields[38]) };
    });
    const lowered = threads.filter((t) => t.nice === 10 && t.policy === 3);
    assert.equal(lowered.length, 1, JSON.stringify(threads));
    const main = threads.find((t) => t.tid === Deno.pid)!;
    assert.deepEqual([main.nice, main.policy], [0, 0], "this thread keeps its priority");
    // Closed, the thread is gone when close() resolves: the process's last thread to exit frees
    // its memory, which must not be this low-priority one.
    await encoder.close();
    const left = [...Deno.readDirSync("/proc/self/task")].map((t) => Number(t.name));
    assert.ok(!left.includes(lowered[0].tid), "the encoder's thread is gone");
  } finally {
    await encoder.close();
  }
});

Deno.test("sparse counts round-trip a histogram exactly", () => {
  const h = createHistogram();
  for (const v of [0, 1, 7, 2048, 2049, 99_999, 3_600_000_000]) h.recordValueWithCount(v, 3);
  const copy = createHistogram();
  copy.addSparse(h.toSparse());
  assert.deepEqual([...copy.recordedValues()], [...h.recordedValues()]);
  assert.equal(copy.totalCount, 21);
  assert.throws(
    () => copy.addSparse({ indexes: new Uint32Array([1e9]), counts: new Float64Array([1]) }),
    /outside the layout/,
  );
});
