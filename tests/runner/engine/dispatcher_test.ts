import assert from "node:assert/strict";
import { Dispatcher, TICK_WAIT_MAX_MS } from "../../../runner/engine/dispatcher.ts";
import { FakeClock } from "../../_helpers/fake_clock.ts";
import { ManualWaker } from "../../_helpers/manual_waker.ts";
import type { Connection, PreparedRequest, ResponseOutcome } from "../../../runner/engine/types.ts";
import type { ErrorKind } from "../../../runner/model/run_result.ts";
import { decodeHistogram } from "../../../runner/hdr/hdr_codec.ts";
import { Recorder } from "../../../runner/recorder/recorder.ts";
import { Schedule } from "../../../runner/schedule/build_schedule.ts";

/** A fake server: when a request written at `writtenMs` completes (Infinity: never). */
type ServerModel = (writtenMs: number) => number;

class FakeConnection implements Connection {
  busy = false;
  #pending?: { resolve: (o: ResponseOutcome) => void; writtenAtMs: number; doneMs: number };
  constructor(
    private clock: FakeClock,
    private server: ServerModel,
    private log: number[],
    private refuses = false,
    /** How long each send waits for its connection to open (a server that closes every one). */
    private connectMs = 0,
    /** When an answer's first byte arrives after its write (none when undefined). */
    private firstByteAfterMs?: number,
  ) {
    clock.onChange((now) => {
      if (this.#pending && now >= this.#pending.doneMs) {
        this.#finish(200, undefined, this.#pending.doneMs);
      }
    });
  }
  send(_: PreparedRequest): Promise<ResponseOutcome> {
    if (this.refuses) { // the connect fails at once: nothing written
      const now = this.clock.nowMs();
      return Promise.resolve({
        status: 0,
        error: "refused",
        bytesSent: 0,
        bytesReceived: 0,
        writtenAtMs: now,
        completedAtMs: now,
      });
    }
    this.busy = true;
    const writtenAtMs = this.clock.nowMs() + this.connectMs;
    this.log.push(writtenAtMs);
    return new Promise((resolve) => {
      this.#pending = { resolve, writtenAtMs, doneMs: this.server(writtenAtMs) };
    });
  }
  nextDoneMs(): number {
    return this.#pending?.doneMs ?? Infinity;
  }
  abort(kind: ErrorKind): void {
    this.#finish(0, kind, this.clock.nowMs());
  }
  close(): void {
    if (this.#pending) this.#finish(0, "other", this.clock.nowMs());
  }
  #finish(status: number, error: ErrorKind | undefined, at: number) {
    const p = this.#pending!;
    this.#pending = undefined;
    this.busy = false;
    p.resolve({
      status,
      error,
      bytesSent: 10,
      bytesReceived: status ? 20 : 0,
      writtenAtMs: p.writtenAtMs,
      completedAtMs: at,
      connectMs: this.connectMs,
      ...(status && this.firstByteAfterMs !== undefined
        ? { firstByteAtMs: p.writtenAtMs + this.firstByteAfterMs }
        : {}),
    });
  }
}

/** Equal within the histogram's 3 significant digits. */
function sameBucket(us: number, expectedUs: number): boolean {
  return Math.abs(us - expectedUs) <= expectedUs / 1000;
}

const REQUEST: PreparedRequest = {
  labelIndex: 0,
  bytes: new Uint8Array(10),
  isHead: false,
  timeoutMs: 1000,
  expect: { codes: [], classes: [2] },
};

async function run(opts: {
  ratePerSec: number;
  durationMs: number;
  connections: number;
  maxConnections?: number;
  server: ServerModel;
  timeoutMs?: number;
  stopAtMs?: number;
  /** Indexes (in creation order) of connections whose connect always fails. */
  refusing?: number[];
  /** How long every send waits for its connection to open. */
  connectMs?: number;
  /** When each answer's first byte arrives after its write. */
  firstByteAfterMs?: number;
  /** Collects the offsets at which the once-a-second tick ran. */
  ticks?: number[];
  /** Sees the waker before the run (to watch what the dispatcher tells it). */
  onWaker?: (waker: ManualWaker & { pace?: (ms: number) => void }) => void;
  /** Stages after the first (which is `ratePerSec` for `durationMs`). */
  then?: { ratePerSec: number; durationMs: number }[];
}) {
  const clock = new FakeClock(1_000);
  const waker = new ManualWaker(clock);
  opts.onWaker?.(waker);
  const schedule = new Schedule({
    arrival: "constant",
    seed: 1,
    weights: [1],
    stages: [{ ratePerSec: opts.ratePerSec, durationMs: opts.durationMs }, ...opts.then ?? []].map((
      stage,
      index,
    ) => ({
      ...stage,
      kind: "constant" as const,
      index,
      name: `s${index}`,
      warmup: false,
      line: 1,
    })),
  });
  const recorder = new Recorder(schedule.stages, ["GET /"], [REQUEST.expect]);
  // Every outcome's age (completion − intended), failures included, as the engine reports it.
  const ages: number[] = [];
  const complete = recorder.complete.bind(recorder);
  recorder.complete = (c) => {
    ages.push(c.completedMs - c.fireMs);
    complete(c);
  };
  const conns: FakeConnection[] = [];
  const writes: number[] = [];
  const abort = new AbortController();
  const d = new Dispatcher({
    cursor: schedule.cursor(),
    requests: [{ ...REQUEST, timeoutMs: opts.timeoutMs ?? 1000 }],
    connect: () => {
      const refuses = opts.refusing?.includes(conns.length) ?? false;
      const c = new FakeConnection(
        clock,
        opts.server,
        writes,
        refuses,
        opts.connectMs,
        opts.firstByteAfterMs,
      );
      conns.push(c);
      return c;
    },
    connections: opts.connections,
    maxConnections: opts.maxConnections ?? opts.connections,
    clock,
    waker,
    recorder,
    signal: abort.signal,
    sweepMs: 1,
    onTick: (offsetMs) => opts.ticks?.push(offsetMs),
  });
  let finished = false;
  const outcome = d.run(1_000).finally(() => finished = true);
  for (let steps = 0; !finished && steps < 1_000_000; steps++) {
    await new Promise((r) => setTimeout(r, 0));
    if (finished) break;
    if (
      opts.stopAtMs !== undefined && clock.nowMs() - 1_000 >= opts.stopAtMs && !abort.signal.aborted
    ) {
      abort.abort();
      continue;
    }
    const next = Math.min(waker.pendingDeadlineMs ?? Infinity, ...conns.map((c) => c.nextDoneMs()));
    if (next !== Infinity) clock.set(Math.max(next, clock.nowMs()));
  }
  return {
    outcome: await outcome,
    recorded: recorder.finish(opts.durationMs),
    d,
    writes,
    ages,
    waker,
  };
}

Deno.test("dispatcher writes each request at its intended time when a connection is free", async () => {
  const { recorded, writes, outcome } = await run({
    ratePerSec: 1000,
    durationMs: 50,
    connections: 4,
    server: (t) => t + 0.1,
  });
  assert.equal(outcome.complete, true);
  assert.deepEqual(writes.map((t) => t - 1_000), [...Array(50).keys()]);
  assert.equal(recorded.stages[0].counts.completed, 50);
  assert.equal(recorded.stages[0].response.maxUs, 100);
  assert.equal(recorded.sendLag.maxUs, 0);
  assert.equal(recorded.queueWait.count, 0);
});

Deno.test("dispatcher records a connect's wait as connect time, not as the generator's lateness", async () => {
  // Every send reconnects and waits 100 ms for it: the request is late, the generator is not.
  // Two connections, a request every 10 ms: request 9 takes a connection at 410.4 ms, 320.4 ms
  // after it was due, and is written 100 ms later, once connected.
  const { recorded } = await run({
    ratePerSec: 100,
    durationMs: 100,
    connections: 2,
    connectMs: 100,
    server: (t) => t + 0.1,
  });
  assert.equal(recorded.stages[0].counts.ok, 10);
  assert.equal(recorded.connectTime.count, 10);
  assert.ok(sameBucket(recorded.connectTime.maxUs, 100_000), `${recorded.connectTime.maxUs}`);
  assert.equal(recorded.sendLag.maxUs, 0);
  assert.equal(recorded.queueWait.count, 8);
  assert.ok(sameBucket(recorded.queueWait.maxUs, 320_400), `${recorded.queueWait.maxUs}`);
  assert.ok(sameBucket(recorded.stages[0].response.maxUs, 420_500), "the connect is in it");
});

Deno.test("dispatcher queues due requests FIFO when every connection is busy, and the wait counts", async () => {
  // One connection, 5 ms per response, a request due every 1 ms: request k is written at 5k.
  const { recorded, writes } = await run({
    ratePerSec: 1000,
    durationMs: 10,
    connections: 1,
    server: (t) => t + 5,
  });
  assert.deepEqual(writes.map((t) => t - 1_000), [0, 5, 10, 15, 20, 25, 30, 35, 40, 45]);
  const response = decodeHistogram(recorded.stages[0].response.hdr);
  // Response time of request k = (5k + 5) − k = 4k + 5 ms; service time is always 5 ms.
  assert.ok(Math.abs(response.maxValue - 41_000) <= 41, `max ${response.maxValue}`); // 3 digits
  assert.ok(sameBucket(recorded.stages[0].service.maxUs, 5_000));
  assert.ok(sameBucket(recorded.stages[0].service.minUs, 5_000));
  assert.equal(recorded.queueWait.count, 9);
});

Deno.test("dispatcher sleeps eager only while requests wait for a connection", async () => {
  // Queued requests need the next response at once (the epoll loop then skips its wake gap);
  // with a connection always free the loop may batch its wakes.
  const queued = await run({
    ratePerSec: 1000,
    durationMs: 10,
    connections: 1,
    server: (t) => t + 5,
  });
  assert.ok(queued.waker.eagerSleeps > 0, "no eager sleep while 9 requests queued");
  const free = await run({
    ratePerSec: 1000,
    durationMs: 10,
    connections: 4,
    server: (t) => t + 0.1,
  });
  assert.equal(free.recorded.queueWait.count, 0);
  assert.equal(free.waker.eagerSleeps, 0);
  assert.ok(free.waker.sleeps > 0);
});

Deno.test("dispatcher takes each due request on time even while every connection is busy", async () => {
  // One connection busy 5 ms per request: requests queue, yet each leaves the schedule at its
  // fire time, so the dispatch lag (the generator's own lateness) stays 0 on the fake clock.
  const { recorded } = await run({
    ratePerSec: 1000,
    durationMs: 20,
    connections: 1,
    server: (t) => t + 5,
  });
  assert.equal(recorded.dispatchLag.count, 20);
  assert.equal(recorded.dispatchLag.maxUs, 0);
  assert.equal(recorded.queueWait.count, 19);
});

Deno.test("dispatcher grows to max_connections while requests queue, and no further", async () => {
  const { d, writes } = await run({
    ratePerSec: 1000,
    durationMs: 20,
    connections: 1,
    maxConnections: 3,
    server: (t) => t + 10,
  });
  assert.equal(d.peakConnections, 3);
  assert.equal(writes.length, 20);
});

Deno.test("dispatcher never drops a request: a dead server yields timeouts at their true age", async () => {
  const { recorded, outcome, ages } = await run({
    ratePerSec: 1000,
    durationMs: 20,
    connections: 2,
    timeoutMs: 100,
    server: () => Infinity,
  });
  assert.equal(outcome.complete, true);
  const s = recorded.stages[0];
  assert.equal(s.counts.scheduled, 20);
  assert.equal(s.counts.completed, 20);
  assert.deepEqual(s.counts.errors, { timeout: 20 });
  // Each times out from its due time, whether it was written or waited in the queue till its end.
  assert.equal(ages.length, 20);
  assert.ok(ages.every((a) => a >= 100 && a <= 101.1), ages.join(", "));
  // A failure is no latency: the histogram holds none of them (gates count them beyond every bound).
  assert.equal(s.response.count, 0);
});

// The server is frozen during [100, 300) ms: anything written then completes at 300 ms.
const frozen: ServerModel = (t) => {
  const offset = t - 1_000;
  return offset >= 100 && offset < 300 ? 1_300 : t + 0.1;
};

Deno.test("dispatcher measures a server freeze from the intended time: the truth, exactly", async () => {
  // 200 of 1000 requests were due in the freeze and wait 300 − t: p90 = 100 ms, p99 = 190 ms.
  // Connections may grow, so nothing queues and no drain blurs the figures.
  const { recorded } = await run({
    ratePerSec: 1000,
    durationMs: 1000,
    connections: 8,
    maxConnections: 256,
    server: frozen,
  });
  const s = recorded.stages[0];
  const near = (us: number, ms: number) => Math.abs(us / 1000 - ms) <= 0.1 + ms * 0.001;
  assert.ok(near(s.response.percentilesUs["90"], 100.1), `p90 ${s.response.percentilesUs["90"]}`);
  assert.ok(near(s.response.percentilesUs["99"], 190.1), `p99 ${s.response.percentilesUs["99"]}`);
  assert.ok(near(s.response.maxUs, 200), `max ${s.response.maxUs}`);
  assert.equal(s.counts.completed, 1000);
});

Deno.test("dispatcher keeps a freeze out of service time when requests queue in the client", async () => {
  // With 8 connections only 8 requests are on the wire when it freezes; the other 192 queue,
  // their wait counted from the intended time, and drain in 192 / 8 × 0.1 = 2.4 ms after it.
  const { recorded } = await run({
    ratePerSec: 1000,
    durationMs: 1000,
    connections: 8,
    server: frozen,
  });
  const s = recorded.stages[0];
  const near = (us: number, ms: number) => Math.abs(us / 1000 - ms) <= 2.5;
  assert.ok(near(s.response.percentilesUs["90"], 100), `p90 ${s.response.percentilesUs["90"]}`);
  assert.ok(near(s.response.percentilesUs["99"], 190), `p99 ${s.response.percentilesUs["99"]}`);
  assert.ok(s.service.percentilesUs["99"] <= 100, `service p99 ${s.service.percentilesUs["99"]}`);
  assert.equal(s.service.maxUs >= 190_000, true, "the 8 on the wire did see the freeze");
});

Deno.test("dispatcher stops on abort and keeps what was measured", async () => {
  const { outcome, recorded } = await run({
    ratePerSec: 1000,
    durationMs: 1000,
    connections: 4,
    server: (t) => t + 0.5,
    stopAtMs: 100,
  });
  assert.equal(outcome.complete, false);
  const s = recorded.stages[0];
  assert.ok(s.counts.completed >= 100 && s.counts.completed <= 102, `${s.counts.completed}`);
  assert.equal(s.counts.scheduled, s.counts.completed);
});

Deno.test("a response that takes the due requests moves the sleeping loop's wake to the next deadline", async () => {
  const clock = new FakeClock(1_000);
  const deadlines: number[] = [];
  let wake: () => void = () => {};
  const waker = {
    sleepUntil(deadlineMs: number) {
      deadlines.push(deadlineMs);
      return new Promise<void>((resolve) => wake = resolve);
    },
    interrupt: () => wake(),
    close: () => wake(),
  };
  const outcomes: ((o: ResponseOutcome) => void)[] = [];
  const connection: Connection = {
    busy: false,
    send: () => new Promise((resolve) => outcomes.push(resolve)),
    abort: () => {},
    close: () => {},
  };
  const schedule = new Schedule({
    arrival: "constant",
    seed: 1,
    weights: [1],
    stages: [{
      kind: "constant",
      index: 0,
      name: "s",
      ratePerSec: 1000,
      durationMs: 5,
      warmup: false,
      line: 1,
    }],
  });
  const d = new Dispatcher({
    cursor: schedule.cursor(),
    requests: [REQUEST],
    connect: () => connection,
    connections: 1,
    maxConnections: 1,
    clock,
    waker,
    recorder: new Recorder(schedule.stages, ["GET /"], [REQUEST.expect]),
    sweepMs: 10,
  });
  void d.run(1_000);
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(deadlines, [1_001], "asleep until request 1 is due");
  // The wake is late (as a coalescing waker's is); meanwhile request 0's response arrives at
  // 1002.5 and takes requests 1 and 2, which fell due: the wake at 1001 would find nothing.
  clock.set(1_002.5);
  outcomes[0]({
    status: 200,
    bytesSent: 10,
    bytesReceived: 20,
    writtenAtMs: 1_000,
    completedAtMs: 1_002.5,
  });
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(d.dispatched, 3);
  assert.deepEqual(deadlines, [1_001, 1_003], "re-armed for request 3, not woken for nothing");
});

Deno.test("a stop lets requests in flight finish within the grace period, recorded as answered", async () => {
  // Every answer takes 50 ms: at the stop about 50 requests are in flight.
  const { outcome, recorded } = await run({
    ratePerSec: 1000,
    durationMs: 1000,
    connections: 100,
    server: (t) => t + 50,
    stopAtMs: 100,
  });
  assert.equal(outcome.complete, false);
  const s = recorded.stages[0];
  assert.deepEqual(s.counts.errors, {}, "none was cut off by closing its socket");
  assert.ok(s.counts.ok >= 95, `${s.counts.ok} answered`);
});

Deno.test("a connection that cannot connect goes to the back of the idle ones, not first again", async () => {
  // Two connections, the second (taken first) refusing: without the back-off every request would
  // take it again and fail; with it, one fails and the rest go to the working connection.
  const { recorded } = await run({
    ratePerSec: 100,
    durationMs: 100,
    connections: 2,
    refusing: [1],
    server: (writtenMs) => writtenMs + 1,
  });
  const counts = recorded.stages[0].counts;
  assert.equal(counts.completed, 10);
  assert.equal(counts.errors.refused, 1);
  assert.equal(counts.ok, 9);
});

Deno.test("the once-a-second tick waits for a gap between sends, and never past its limit", async () => {
  // 10/s up to 990 ms, then sends around the tick's second: every 0.5 ms (a gap the tick fits in:
  // it runs on its second), or every 0.33 ms (too short: it runs once it has waited its limit).
  for (const [ratePerSec, tickMs] of [[2000, 1000], [3000, 1000 + TICK_WAIT_MAX_MS]]) {
    const ticks: number[] = [];
    const { writes } = await run({
      ratePerSec: 10,
      durationMs: 990,
      then: [{ ratePerSec, durationMs: 160 }],
      connections: 4,
      server: (t) => t + 0.1,
      ticks,
    });
    assert.deepEqual(ticks, [tickMs], `${ratePerSec}/s`);
    // Either way, every request was written at its intended time.
    const intended = [
      ...Array.from({ length: 10 }, (_, k) => k * 100),
      ...Array.from({ length: (ratePerSec * 160) / 1000 }, (_, k) => 990 + (k * 1000) / ratePerSec),
    ];
    assert.equal(writes.length, intended.length);
    writes.forEach((t, k) => assert.ok(Math.abs(t - 1_000 - intended[k]) < 1e-6, `${k}`));
  }
});

Deno.test("the dispatcher tells its waker the interval between the sends it takes", async () => {
  const paces: number[] = [];
  const { waker } = await run({
    ratePerSec: 10,
    durationMs: 990,
    then: [{ ratePerSec: 2000, durationMs: 160 }],
    connections: 4,
    server: (t) => t + 0.1,
    onWaker: (w) => w.pace = (ms: number) => paces.push(ms),
  });
  assert.ok(waker);
  // 10/s: 100 ms apart, counted from the second send on (0 until then); then 2k/s: 0.5 ms
  // apart, 320 sends, counted over windows of 10 ms.
  assert.equal(paces[0], 0);
  assert.ok(Math.abs(paces[9] - 100) < 1, `after ten sends at 10/s: ${paces[9]}`);
  assert.ok(Math.abs(paces.at(-1)! - 0.5) < 0.05, `after 320 at 2k/s: ${paces.at(-1)}`);
});

Deno.test("dispatcher carries each first byte to the recorder, timed from the intended send", async () => {
  // One connection, a request every 10 ms, each answered in 15 ms (its first byte 2 ms after its
  // write): requests queue, and the wait is in the time to first byte as in the response time.
  const { recorded } = await run({
    ratePerSec: 100,
    durationMs: 200,
    connections: 1,
    server: (w) => w + 15,
    firstByteAfterMs: 2,
  });
  const [stage] = recorded.stages;
  const ttfb = [...decodeHistogram(stage.ttfb!.hdr).recordedValues()];
  const response = [...decodeHistogram(stage.response.hdr).recordedValues()];
  assert.equal(stage.ttfb!.count, 20);
  assert.equal(ttfb.length, response.length);
  ttfb.forEach((t, i) => {
    assert.ok(
      sameBucket(t.valueUs + 13_000, response[i].valueUs),
      `${t.valueUs} ${response[i].valueUs}`,
    );
    assert.equal(t.count, response[i].count);
  });
  assert.ok(stage.ttfb!.maxUs > 50_000, "the queue wait is in it");
});
