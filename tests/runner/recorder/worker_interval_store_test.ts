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

/** An interval in which nothing was scheduled (the drain after a schedule). */
function idle(index: number): RawInterval {
  const labels = ["a", "b"].map((label) => ({
    label,
    counts: emptyCounts(),
    response: createHistogram().toSparse(),
    service: createHistogram().toSparse(),
  }));
  return { ...raw(index), sentPerSec: 0, completedPerSec: 0, labels };
}

/** The intervals of a store's whole run, and the inline store's for the same. */
function sixIntervals(): RawInterval[] {
  return [raw(0), raw(1), idle(2), raw(3), raw(4), idle(5)];
}

Deno.test("the worker store encodes intervals exactly as the inline store does, idle ones too", async () => {
  const spillDir = await Deno.makeTempDir();
  const inline = new InlineIntervalStore();
  const encoder = startIntervalEncoder(spillDir);
  const worker = new WorkerIntervalStore(encoder.port);
  try {
    assert.equal(typeof await encoder.ready, "boolean");
    for (const interval of sixIntervals().slice(0, 5)) {
      inline.add(interval);
      worker.add(interval);
    }
    await worker.flush();
    assert.equal(worker.all().length, 5);
    assert.deepEqual(worker.all(), inline.all());
    assert.equal(worker.latestP99Us(), inline.latestP99Us());
    // The merged interval holds both labels' 100 values.
    assert.equal(worker.all()[0].response.count, 100);
    // After the flush, intervals are encoded inline (the run is over: no hot path to spare).
    worker.add(sixIntervals()[5]);
    assert.equal(worker.all().length, 6);
  } finally {
    worker.close();
    await encoder.close();
  }
  assert.deepEqual([...Deno.readDirSync(spillDir)], [], "the spill file is removed at close");
  await Deno.remove(spillDir);
});

Deno.test("while the encoder spills, the store holds no encoded interval; the unlinked file holds them", async () => {
  const spillDir = await Deno.makeTempDir();
  const encoder = startIntervalEncoder(spillDir);
  // The owner made the file before returning: open it here too, before its name goes.
  const [file] = [...Deno.readDirSync(spillDir)];
  assert.match(file.name, /^tailgate-intervals-.*\.ndjson$/);
  const peek = Deno.openSync(`${spillDir}/${file.name}`, { read: true });
  const worker = new WorkerIntervalStore(encoder.port);
  try {
    await encoder.ready;
    for (let i = 0; i < 4; i++) worker.add(raw(i));
    const spilled = () => {
      const bytes = new Uint8Array(peek.statSync().size);
      peek.seekSync(0, Deno.SeekMode.Start);
      let read = 0;
      for (let n: number | null = 0; n !== null && read < bytes.length; read += n ?? 0) {
        n = peek.readSync(bytes.subarray(read));
      }
      return new TextDecoder().decode(bytes.subarray(0, read));
    };
    for (let waitedMs = 0; waitedMs < 5000; waitedMs += 10) {
      if (worker.latestP99Us() !== undefined && spilled().split("\n").length > 4) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Both ends hold it open, so its name is gone: a process ended at once leaves no file.
    assert.deepEqual([...Deno.readDirSync(spillDir)], []);
    const lines = spilled().trimEnd().split("\n");
    assert.deepEqual(lines.map((l) => JSON.parse(l).startMs), [0, 1000, 2000, 3000]);
    assert.equal(worker.latestP99Us(), JSON.parse(lines[3]).response.percentilesUs["99"]);
    assert.deepEqual(worker.all(), [], "nothing encoded is kept in memory before the flush");
    await worker.flush();
    assert.deepEqual(worker.all().map((i) => i.startMs), [0, 1000, 2000, 3000]);
  } finally {
    peek.close();
    worker.close();
    await encoder.close();
    await Deno.remove(spillDir, { recursive: true });
  }
});

Deno.test("where no spill file can be made, the encoder sends intervals whole, none lost", async () => {
  const inline = new InlineIntervalStore();
  const encoder = startIntervalEncoder("/nonexistent/tailgate-spill");
  const worker = new WorkerIntervalStore(encoder.port);
  try {
    await encoder.ready;
    for (const interval of sixIntervals()) {
      inline.add(interval);
      worker.add(interval);
    }
    await worker.flush();
    assert.deepEqual(worker.all(), inline.all());
  } finally {
    worker.close();
    await encoder.close();
  }
});

Deno.test("the store reads back only the spilled bytes acknowledged; a torn line is encoded again", async () => {
  // An encoder that spilled two intervals and died writing the third: its line is torn and was
  // never acknowledged, so the store encodes that interval from the raw copy it kept.
  const spillDir = await Deno.makeTempDir();
  const path = `${spillDir}/spill.ndjson`;
  const lines = [raw(0), raw(1)].map((r) => JSON.stringify(encodeRawInterval(r)) + "\n");
  const torn = JSON.stringify(encodeRawInterval(raw(2))).slice(0, 300);
  await Deno.writeTextFile(path, lines.join("") + torn);
  const channel = new MessageChannel();
  const worker = new WorkerIntervalStore(channel.port1, 100);
  for (let i = 0; i < 3; i++) worker.add(raw(i));
  channel.port2.postMessage({ type: "spilling", path });
  for (const line of lines) {
    const bytes = new TextEncoder().encode(line).length;
    channel.port2.postMessage({ type: "spilled", bytes, p99Us: 1 });
  }
  await worker.flush();
  const inline = new InlineIntervalStore();
  for (let i = 0; i < 3; i++) inline.add(raw(i));
  assert.deepEqual(worker.all(), inline.all());
  channel.port2.close();
  await Deno.remove(spillDir, { recursive: true });
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
  // No spill file: with one, the store would learn the encoder was gone when it found the file
  // removed, and stop waiting at once.
  const encoder = startIntervalEncoder("/nonexistent/tailgate-spill");
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
  const threadsNow = () =>
    [...Deno.readDirSync("/proc/self/task")].flatMap((t) => {
      try {
        const stat = Deno.readTextFileSync(`/proc/self/task/${t.name}/stat`);
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd on
        return [{ tid: Number(t.name), nice: Number(fields[16]), policy: Number(fields[38]) }];
      } catch {
        return []; // a thread that exited while it was listed
      }
    });
  // An earlier test's encoder thread may still be on its way out: only this one's counts.
  const before = new Set(threadsNow().map((t) => t.tid));
  const encoder = startIntervalEncoder();
  try {
    if (!await encoder.ready) return; // no FFI or not Linux: nothing was lowered
    const threads = threadsNow();
    const lowered = threads.filter((t) => t.nice === 10 && t.policy === 3 && !before.has(t.tid));
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

Deno.test("a spill file the store cannot open: it encodes inline at once, none lost", async () => {
  const channel = new MessageChannel();
  const worker = new WorkerIntervalStore(channel.port1, 5000);
  worker.add(raw(0));
  worker.add(raw(1));
  channel.port2.postMessage({ type: "spilling", path: "/nonexistent/tailgate-spill.ndjson" });
  const startMs = performance.now();
  await worker.flush();
  assert.ok(performance.now() - startMs < 1000, "did not wait for an encoder it cannot use");
  assert.deepEqual(worker.all().map((i) => i.startMs), [0, 1000]);
  channel.port2.close();
});
