import assert from "node:assert/strict";
import { type EngineRun, runEngine } from "../../../../runner/run/run_engine.ts";
import type {
  Connection,
  PreparedRequest,
  ResponseOutcome,
} from "../../../../runner/engine/types.ts";
import type { ErrorKind, JourneyResult } from "../../../../runner/model/run_result.ts";
import { FakeClock } from "../../../_helpers/fake_clock.ts";
import { ManualWaker } from "../../../_helpers/manual_waker.ts";
import { parseText } from "../../../_helpers/plan_fixtures.ts";

/** What the fake server answers a request with, and how long after its write. */
interface Answer {
  afterMs: number;
  /** How late the request's write is reported, after the send (a slow write on the engine). */
  writeLateMs?: number;
  status?: number;
  body?: string;
}

/** One request as the fake server saw it: its request line, body and write time (run offset). */
interface Seen {
  line: string;
  body: string;
  writtenMs: number;
}

const START_MS = 1_000;
/** runEngine starts the schedule this long after it is called (its default lead). */
const LEAD_MS = 20;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A connection to a fake server: answers `serve(request)` after its delay (Infinity: never). */
class FakeConnection implements Connection {
  busy = false;
  #pending?: { resolve: (o: ResponseOutcome) => void; writtenAtMs: number; doneMs: number };
  #answer: Answer = { afterMs: 0 };
  constructor(
    private clock: FakeClock,
    private serve: (seen: Seen) => Answer,
    private log: Seen[],
  ) {
    clock.onChange((now) => {
      if (this.#pending && now >= this.#pending.doneMs) this.#finish(undefined);
    });
  }
  send(request: PreparedRequest): Promise<ResponseOutcome> {
    this.busy = true;
    const text = decoder.decode(request.bytes);
    const writtenAtMs = this.clock.nowMs();
    const seen = {
      line: text.split("\r\n")[0],
      body: text.slice(text.indexOf("\r\n\r\n") + 4),
      writtenMs: writtenAtMs - START_MS - LEAD_MS,
    };
    this.log.push(seen);
    this.#answer = this.serve(seen);
    const keep = request.keepBodyBytes ?? 0;
    return new Promise((resolve) => {
      this.#pending = {
        resolve: (o) => resolve(keep > 0 ? o : { ...o, body: undefined }),
        writtenAtMs: writtenAtMs + (this.#answer.writeLateMs ?? 0),
        doneMs: writtenAtMs + this.#answer.afterMs,
      };
    });
  }
  nextDoneMs(): number {
    return this.#pending?.doneMs ?? Infinity;
  }
  abort(kind: ErrorKind): void {
    this.#finish(kind);
  }
  close(): void {
    if (this.#pending) this.#finish("other");
  }
  #finish(error: ErrorKind | undefined) {
    const p = this.#pending!;
    this.#pending = undefined;
    this.busy = false;
    const status = error ? 0 : this.#answer.status ?? 200;
    const body = error ? undefined : encoder.encode(this.#answer.body ?? "");
    p.resolve({
      status,
      ...(error ? { error } : {}),
      bytesSent: 10,
      bytesReceived: 20,
      writtenAtMs: p.writtenAtMs,
      completedAtMs: error ? this.clock.nowMs() : p.doneMs,
      ...(body ? { body } : {}),
    });
  }
}

/** A plan of one journey `order` (create, then read what it created) and the given load. */
function plan(opts: { load: string; think?: string; readTimeout?: string; extra?: string }) {
  const text = `name: j
target: http://127.0.0.1:8080
vars: { n: counter }
requests:
${opts.extra ?? ""}  - journey: order
    weight: 1
    steps:
      - name: create
        method: POST
        path: /items
        body: { json: { id: "{{n}}" } }
        capture: { created: { json: /id } }
      - name: read
        path: /items/{{created}}
${opts.think ? `        think: ${opts.think}\n` : ""}${
    opts.readTimeout ? `        timeout: ${opts.readTimeout}\n` : ""
  }load: ${opts.load}
`;
  const parsed = parseText(text);
  assert.ok(parsed.plan, parsed.issues.map((i) => `${i.line}:${i.col} ${i.message}`).join("\n"));
  return parsed.plan;
}

/** Runs `p` on a fake clock against `serve`; `stopAtMs`: aborts at that run offset. */
async function run(
  p: ReturnType<typeof plan>,
  serve: (seen: Seen) => Answer,
  stopAtMs?: number,
  makeWaker: (clock: FakeClock) => ManualWaker = (clock) => new ManualWaker(clock),
): Promise<{ run: EngineRun; seen: Seen[] }> {
  const clock = new FakeClock(START_MS);
  const waker = makeWaker(clock);
  const conns: FakeConnection[] = [];
  const seen: Seen[] = [];
  const abort = new AbortController();
  let finished = false;
  const running = runEngine({
    plan: p,
    clock,
    waker,
    signal: abort.signal,
    connect: () => {
      const c = new FakeConnection(clock, serve, seen);
      conns.push(c);
      return c;
    },
  }).finally(() => finished = true);
  for (let steps = 0; !finished && steps < 200_000; steps++) {
    await new Promise((r) => setTimeout(r, 0));
    if (finished) break;
    const offsetMs = clock.nowMs() - START_MS - LEAD_MS;
    if (stopAtMs !== undefined && offsetMs >= stopAtMs && !abort.signal.aborted) {
      abort.abort();
      continue;
    }
    let next = Math.min(waker.pendingDeadlineMs ?? Infinity, ...conns.map((c) => c.nextDoneMs()));
    if (stopAtMs !== undefined && !abort.signal.aborted) {
      next = Math.min(next, START_MS + LEAD_MS + stopAtMs);
    }
    if (next !== Infinity) clock.set(Math.max(next, clock.nowMs()));
  }
  return { run: await running, seen };
}

/** Creates answer 201 with the id sent; reads answer 200; each after `afterMs`. */
function itemServer(afterMs = 10) {
  return (s: Seen): Answer =>
    s.line.startsWith("POST")
      ? { afterMs, status: 201, body: JSON.stringify({ id: JSON.parse(s.body).id }) }
      : { afterMs, status: 200, body: "{}" };
}

/** Equal within the histogram's 3 significant digits. */
function near(us: number, expectedUs: number): boolean {
  return Math.abs(us - expectedUs) <= expectedUs / 1000;
}

function journeyOf(r: EngineRun): JourneyResult {
  const j = r.recorded.stages[0].journeys?.[0];
  assert.ok(j, "the stage records its journey");
  return j;
}

function labelOf(r: EngineRun, label: string) {
  const l = r.recorded.stages[0].labels.find((x) => x.label === label);
  assert.ok(l, `label ${label}`);
  return l;
}

Deno.test("a journey's next step is due at the previous step's completion plus its think time", async () => {
  // A journey every 100 ms; each step answered in 10 ms; the read thinks 50 ms.
  const { run: r, seen } = await run(
    plan({ load: "{ connections: 2, stages: [{ rate: 10/s, duration: 1s }] }", think: "50ms" }),
    itemServer(),
  );
  assert.equal(r.complete, true);
  const reads = seen.filter((s) => s.line.startsWith("GET"));
  const creates = seen.filter((s) => s.line.startsWith("POST"));
  assert.deepEqual(creates.map((s) => s.writtenMs), [
    0,
    100,
    200,
    300,
    400,
    500,
    600,
    700,
    800,
    900,
  ]);
  assert.deepEqual(reads.map((s) => s.writtenMs), creates.map((s) => s.writtenMs + 60));
  // Each read asks for the id its own journey's create returned.
  assert.deepEqual(
    reads.map((s) => s.line),
    creates.map((s) => `GET /items/${JSON.parse(s.body).id} HTTP/1.1`),
  );
  const j = journeyOf(r);
  assert.deepEqual([j.started, j.completed, j.failed], [10, 10, 0]);
  // Journey time: two 10 ms steps, the 50 ms of think left out and reported beside it.
  assert.equal(j.journey.count, 10);
  assert.ok(near(j.journey.maxUs, 20_000) && near(j.journey.minUs, 20_000), `${j.journey.maxUs}`);
  assert.equal(j.thinkMs, 500);
  assert.deepEqual(j.steps.map((s) => s.skipped), [0, 0]);
  assert.equal(labelOf(r, "order / read").counts.ok, 10);
  assert.ok(near(labelOf(r, "order / read").response.maxUs, 10_000));
});

Deno.test("a due step waits in the queue for a connection, and the wait is in its response time", async () => {
  // One connection; a journey every 50 ms; think 40 ms: journey 0's read falls due at 50 ms,
  // as journey 1's create does, which is taken first (the schedule before a step due with it).
  const { run: r, seen } = await run(
    plan({
      load: "{ connections: 1, stages: [{ rate: 20/s, duration: 200ms }] }",
      think: "40ms",
    }),
    itemServer(),
  );
  assert.equal(r.complete, true);
  assert.deepEqual(
    seen.map((s) => `${s.line.split(" ")[0]} ${s.writtenMs}`),
    ["POST 0", "POST 50", "GET 60", "POST 100", "GET 110", "POST 150", "GET 160", "GET 200"],
  );
  // Every read but the last waited 10 ms for the connection: 20 ms from its due time.
  const read = labelOf(r, "order / read");
  assert.ok(near(read.response.maxUs, 20_000) && near(read.response.minUs, 10_000));
  assert.ok(near(read.service.maxUs, 10_000));
  assert.ok(near(journeyOf(r).journey.maxUs, 30_000));
});

Deno.test("a journey holds no connection while it thinks", async () => {
  // One connection; the read thinks 300 ms; a journey every 100 ms: every create is written at
  // its fire time, though earlier journeys are still under way.
  const { run: r, seen } = await run(
    plan({
      load: "{ connections: 1, stages: [{ rate: 10/s, duration: 500ms }] }",
      think: "300ms",
    }),
    itemServer(),
  );
  assert.equal(r.complete, true);
  const creates = seen.filter((s) => s.line.startsWith("POST")).map((s) => s.writtenMs);
  assert.deepEqual(creates, [0, 100, 200, 300, 400]);
  assert.ok(near(labelOf(r, "order / create").response.maxUs, 10_000));
  assert.deepEqual(seen.filter((s) => s.line.startsWith("GET")).map((s) => s.writtenMs), [
    310,
    410,
    510,
    610,
    710,
  ]);
});

Deno.test("a failed step, a missing capture or an unexpected status skips the rest of its journey", async () => {
  // Odd journeys' creates answer without the id (the capture finds nothing), journey 4's a 500.
  const { run: r, seen } = await run(
    plan({ load: "{ connections: 2, stages: [{ rate: 10/s, duration: 1s }] }" }),
    (s) => {
      if (!s.line.startsWith("POST")) return { afterMs: 5, status: 200 };
      const id = JSON.parse(s.body).id;
      if (id === 4) return { afterMs: 5, status: 500 };
      return { afterMs: 5, status: 201, body: id % 2 ? "{}" : JSON.stringify({ id }) };
    },
  );
  assert.equal(r.complete, true);
  const create = labelOf(r, "order / create");
  assert.deepEqual(create.counts.errors, { check_failed: 5, unexpected_status: 1 });
  const read = labelOf(r, "order / read");
  assert.equal(read.counts.scheduled, 4);
  assert.equal(read.counts.completed, 4);
  assert.deepEqual(
    seen.filter((s) => s.line.startsWith("GET")).map((s) => s.line.split(" ")[1]),
    ["/items/0", "/items/2", "/items/6", "/items/8"],
  );
  const j = journeyOf(r);
  assert.deepEqual([j.started, j.completed, j.failed], [10, 4, 6]);
  assert.deepEqual(j.steps.map((s) => s.skipped), [0, 6]);
  // Per step, sent + skipped = started.
  assert.equal(read.counts.completed + j.steps[1].skipped, j.started);
  assert.equal(j.journey.count, 4);
});

Deno.test("a step's timeout counts from its due time", async () => {
  // Reads are never answered; their timeout is 300 ms. The last journey starts at 900 ms, its
  // read is due at 910 ms and times out at 1,210 ms (within the 10 ms sweep).
  const { run: r } = await run(
    plan({
      load: "{ connections: 20, stages: [{ rate: 10/s, duration: 1s }] }",
      readTimeout: "300ms",
    }),
    (s) =>
      s.line.startsWith("POST")
        ? { afterMs: 10, status: 201, body: JSON.stringify({ id: JSON.parse(s.body).id }) }
        : { afterMs: Infinity },
  );
  const read = labelOf(r, "order / read");
  assert.deepEqual(read.counts.errors, { timeout: 10 });
  assert.ok(r.durationMs >= 1_210 && r.durationMs <= 1_221, `ended at ${r.durationMs} ms`);
  const j = journeyOf(r);
  assert.deepEqual([j.started, j.completed, j.failed], [10, 0, 10]);
});

Deno.test("a stop counts the pending steps as skipped, never as scheduled", async () => {
  // A journey every 100 ms, reads think 200 ms; stopped at 530 ms: journeys 0-3 completed,
  // 4 and 5 were thinking (their reads pending), 6-9 never started.
  const { run: r } = await run(
    plan({
      load: "{ connections: 2, stages: [{ rate: 10/s, duration: 1s }] }",
      think: "200ms",
    }),
    itemServer(),
    530,
  );
  assert.equal(r.complete, false);
  const j = journeyOf(r);
  assert.deepEqual([j.started, j.completed, j.failed], [6, 4, 0]);
  assert.deepEqual(j.steps.map((s) => s.skipped), [0, 2]);
  const read = labelOf(r, "order / read");
  assert.equal(read.counts.scheduled, 4);
  assert.equal(read.counts.completed, 4);
  assert.equal(read.counts.completed + j.steps[1].skipped, j.started);
});

Deno.test("journeys and single requests share the mix by weight, each step with its own label", async () => {
  const { run: r } = await run(
    plan({
      load: "{ connections: 4, stages: [{ rate: 100/s, duration: 1s }] }",
      extra: "  - { name: health, path: /health, weight: 1 }\n",
    }),
    itemServer(1),
  );
  const labels = r.recorded.stages[0].labels.map((l) => [l.label, l.counts.completed]);
  assert.deepEqual(labels, [["health", 50], ["order / create", 50], ["order / read", 50]]);
  assert.equal(journeyOf(r).started, 50);
});

Deno.test("a step that times out waiting for a connection fails its journey, from its due time", async () => {
  // One connection. Journey 0 at 0 ms: its read falls due at 105 ms (think 95 ms), while the
  // single request fired at 100 ms holds the connection for 500 ms: the read times out in the
  // queue 100 ms after its due time, never sent. Journey 2 (at 200 ms) waits for the connection
  // too, and completes.
  const { run: r, seen } = await run(
    plan({
      load: "{ connections: 1, stages: [{ rate: 10/s, duration: 300ms }] }",
      think: "95ms",
      readTimeout: "100ms",
      extra: "  - { name: slow, path: /slow, weight: 1 }\n",
    }),
    (s) =>
      s.line.startsWith("GET /slow")
        ? { afterMs: 500, status: 200 }
        : s.line.startsWith("POST")
        ? { afterMs: 10, status: 201, body: JSON.stringify({ id: JSON.parse(s.body).id }) }
        : { afterMs: 10, status: 200 },
  );
  assert.equal(r.complete, true);
  assert.deepEqual(
    seen.map((s) => `${s.line.split(" ").slice(0, 2).join(" ")} ${s.writtenMs}`),
    ["POST /items 0", "GET /slow 100", "POST /items 600", "GET /items/2 705"],
  );
  const read = labelOf(r, "order / read");
  assert.deepEqual(read.counts.errors, { timeout: 1 });
  assert.equal(read.counts.sent, 1);
  const j = journeyOf(r);
  assert.deepEqual([j.started, j.completed, j.failed], [2, 1, 1]);
  // Journey 2's create waited 400 ms for the connection: in its response time.
  assert.ok(near(labelOf(r, "order / create").response.maxUs, 410_000));
});

/** A waker that keeps what the dispatcher tells it of the rate of sends. */
class PacedWaker extends ManualWaker {
  readonly paces: number[] = [];
  pace(sendIntervalMs: number): void {
    this.paces.push(sendIntervalMs);
  }
}

Deno.test("the waker is paced by every send, a journey's later steps too", async () => {
  // A journey every 10 ms, each step answered in 5 ms: a send every 5 ms, half of them steps.
  let waker: PacedWaker | undefined;
  await run(
    plan({ load: "{ connections: 4, stages: [{ rate: 100/s, duration: 2s }] }" }),
    itemServer(5),
    undefined,
    (clock) => waker = new PacedWaker(clock),
  );
  const last = waker!.paces.at(-1)!;
  assert.ok(Math.abs(last - 5) < 0.5, `paced at ${last} ms between sends, not 5`);
});

Deno.test("a journey's later steps' send lag is its own figure, apart from the schedule's", async () => {
  // Creates written on time, reads written 3 ms after they were sent: the reads' lateness is the
  // steps' lag, never the send lag of the schedule's requests.
  const { run: r } = await run(
    plan({ load: "{ connections: 2, stages: [{ rate: 10/s, duration: 1s }] }" }),
    (s) => ({ ...itemServer()(s), writeLateMs: s.line.startsWith("GET") ? 3 : 0 }),
  );
  const { sendLag, stepLag } = r.recorded;
  assert.ok(stepLag, "a plan with journeys records its steps' lag");
  assert.equal(sendLag.count, 10, "the ten creates, first steps of the schedule");
  assert.equal(sendLag.maxUs, 0);
  assert.equal(stepLag.count, 10, "the ten reads");
  assert.ok(near(stepLag.maxUs, 3_000), `${stepLag.maxUs}`);
});
