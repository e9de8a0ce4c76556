/**
 * HTTP/2 runs against servers that misbehave on purpose (tests/_helpers/h2_hostile_server.ts):
 * floods of CONTINUATION, PING and SETTINGS, RST_STREAM and GOAWAY storms, HPACK table size
 * updates, a window overflow, frames on the wrong stream, a header block split across reads, an
 * endless body. Each runs on both I/O paths where the native one opens, over h2c and TLS. Every
 * run must end within its duration plus its drain, give every scheduled request an outcome of
 * the kind its pattern calls for (the same on both paths), and grow the process's RSS by less than
 * {@linkcode RSS_GROWTH_LIMIT_BYTES} while the server floods it. `HOSTILE_DEBUG=1` prints each run's
 * RSS before and at its peak (MiB), its time (ms) and its outcomes, the figures docs/engine.md
 * ("Hostile servers") quotes.
 */
import assert from "node:assert/strict";
import { type EngineRun, runEngine } from "../../../runner/run/run_engine.ts";
import { runWorkers } from "../../../runner/run/run_workers.ts";
import { openLibcNet } from "../../../runner/engine/native/libc_net.ts";
import { openLibSsl } from "../../../runner/engine/native/libssl_tls.ts";
import {
  FLAG,
  FRAME,
  frame,
  goawayFrame,
  H2_CODE,
  rstStreamFrame,
  windowUpdateFrame,
} from "../../../runner/engine/http2/h2_frame.ts";
import type { ErrorKind, RequestCounts } from "../../../runner/model/run_result.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { H2_CERT } from "../../_helpers/http2_servers.ts";
import {
  answer,
  type HostilePattern,
  hostileServer,
  repeated,
  SERVER_SETTINGS,
  STATUS_200,
} from "../../_helpers/h2_hostile_server.ts";

/**
 * The most the test process's RSS may grow during one run while a server floods it (the process
 * holds about 300 MiB before: the test runner, earlier runs' heap, the native path's worker).
 */
const RSS_GROWTH_LIMIT_BYTES = 150 * 1024 * 1024;
/** Each run: 1 s of load at 20/s, each request's timeout 1 s. */
const DURATION_MS = 1_000;
const TIMEOUT_MS = 1_000;
/**
 * Ending later than its duration, its drain and this is a hang. Generous: a flood on a machine
 * whose other cores are busy (the suite runs in parallel) took 8.7 s where a quiet one takes 1.6.
 */
const SLACK_MS = 15_000;

const NATIVE = openLibcNet() !== undefined;
const NATIVE_TLS = NATIVE && openLibSsl() !== undefined;

/** GOAWAY with `code` naming `lastStreamId`. */
function goaway(lastStreamId: number, code: number): Uint8Array {
  const bytes = goawayFrame(code);
  new DataView(bytes.buffer, bytes.byteOffset + 9).setUint32(0, lastStreamId);
  return bytes;
}

/** Answers every request at once with `:status: 200`. */
async function answerAll(link: Parameters<HostilePattern>[0], extra?: (id: number) => Uint8Array) {
  for (let id = await link.nextRequest(); id !== undefined; id = await link.nextRequest()) {
    if (!await link.write(extra ? extra(id) : answer(id))) return;
  }
}

/** Writes `bytes` again and again while the connection lives (each write bounded in size). */
async function flood(link: Parameters<HostilePattern>[0], bytes: Uint8Array): Promise<void> {
  for (let i = 0; i < 100_000 && await link.write(bytes); i++) { /* until gone or the deadline */ }
}

/** `:status: 200` and a literal `x-big` (without indexing) `valueBytes` long. */
function bigBlock(valueBytes: number): Uint8Array {
  const name = new TextEncoder().encode("x-big");
  const length = [127];
  for (let rest = valueBytes - 127;; rest = Math.floor(rest / 128)) {
    if (rest < 128) {
      length.push(rest);
      break;
    }
    length.push((rest % 128) + 128);
  }
  const out = new Uint8Array(3 + name.length + length.length + valueBytes).fill(0x61);
  out.set([0x88, 0x00, name.length, ...name, ...length]);
  return out;
}

interface Case {
  name: string;
  pattern: HostilePattern;
  /** The outcomes every request may have; `ok` for a response. */
  outcomes: readonly (ErrorKind | "ok")[];
  /** Outcomes at least one request must have (default: the first of `outcomes`). */
  needs?: readonly (ErrorKind | "ok")[];
  /** Run over TLS too: the pattern tries the transport's reads or writes, not only the protocol. */
  tls?: boolean;
}

const CASES: readonly Case[] = [{
  name: "a CONTINUATION flood",
  tls: true,
  pattern: async (link) => {
    await link.write(SERVER_SETTINGS);
    const id = await link.nextRequest();
    if (id === undefined || !await link.write(frame(FRAME.headers, 0, id, STATUS_200))) return;
    await flood(link, repeated(frame(FRAME.continuation, 0, id, new Uint8Array(16)), 1_000));
  },
  outcomes: ["protocol"],
}, {
  name: "a PING flood while reading nothing",
  tls: true,
  pattern: async (link) => {
    link.stopReading();
    await link.write(SERVER_SETTINGS);
    await flood(link, repeated(frame(FRAME.ping, 0, 0, new Uint8Array(8)), 4_000));
  },
  outcomes: ["protocol", "timeout"],
}, {
  name: "a SETTINGS flood while reading nothing",
  tls: true,
  pattern: async (link) => {
    link.stopReading();
    await flood(link, repeated(SERVER_SETTINGS, 8_000));
  },
  outcomes: ["protocol", "timeout"],
}, {
  name: "an RST_STREAM storm, on open and idle streams",
  pattern: async (link) => {
    await link.write(SERVER_SETTINGS);
    await answerAll(link, (id) =>
      new Uint8Array([
        ...rstStreamFrame(id, H2_CODE.internalError),
        ...repeated(rstStreamFrame(id + 1_000, H2_CODE.cancel), 50),
      ]));
  },
  outcomes: ["rst_stream"],
}, {
  name: "a GOAWAY storm after each answer",
  pattern: async (link) => {
    await link.write(SERVER_SETTINGS);
    await answerAll(
      link,
      (id) => new Uint8Array([...answer(id), ...repeated(goaway(id + 2, H2_CODE.noError), 100)]),
    );
  },
  outcomes: ["ok", "goaway"],
  needs: ["ok"],
}, {
  name: "HPACK table size updates and evictions in every block",
  pattern: async (link) => {
    await link.write(SERVER_SETTINGS);
    // Size 0, then 4096 again; :status 200; a 4,000-octet literal the table keeps (evicting).
    const value = new Uint8Array(4_000).fill(0x62);
    const block = new Uint8Array([
      0x20,
      ...[0x3f, 0xe1, 0x1f],
      0x88,
      ...[0x40, 0x01, 0x78, 0x7f, 0xa1, 0x1e],
      ...value,
    ]);
    await answerAll(
      link,
      (id) => frame(FRAME.headers, FLAG.endHeaders | FLAG.endStream, id, block),
    );
  },
  outcomes: ["ok"],
}, {
  name: "an HPACK table size update above the client's SETTINGS",
  pattern: async (link) => {
    await link.write(SERVER_SETTINGS);
    const block = Uint8Array.of(0x3f, 0xe1, 0x3f, 0x88); // 8192 > 4096
    await answerAll(
      link,
      (id) => frame(FRAME.headers, FLAG.endHeaders | FLAG.endStream, id, block),
    );
  },
  outcomes: ["protocol"],
}, {
  name: "a connection window raised past 2^31 - 1",
  pattern: async (link) => {
    const overflow = windowUpdateFrame(0, 0x7fff_ffff);
    await link.write(new Uint8Array([...SERVER_SETTINGS, ...overflow, ...overflow]));
    await answerAll(link);
  },
  outcomes: ["protocol"],
}, {
  name: "DATA on stream 0",
  pattern: async (link) => {
    await link.write(SERVER_SETTINGS);
    await answerAll(link, () => frame(FRAME.data, 0, 0, new Uint8Array(4)));
  },
  outcomes: ["protocol"],
}, {
  name: "DATA on stream 0 right after SETTINGS",
  pattern: async (link) => {
    await link.write(
      new Uint8Array([...SERVER_SETTINGS, ...frame(FRAME.data, 0, 0, new Uint8Array(4))]),
    );
  },
  outcomes: ["protocol"],
}, {
  name: "SETTINGS on a stream",
  pattern: async (link) => {
    await link.write(SERVER_SETTINGS);
    await answerAll(link, (id) => frame(FRAME.settings, 0, id, new Uint8Array(0)));
  },
  outcomes: ["protocol"],
}, {
  name: "GOAWAY right after SETTINGS",
  pattern: async (link) => {
    await link.write(new Uint8Array([...SERVER_SETTINGS, ...goaway(0, H2_CODE.noError)]));
  },
  outcomes: ["goaway"],
}, {
  name: "a 40 KB header block in HEADERS and CONTINUATION 50 ms apart",
  tls: true,
  pattern: async (link) => {
    await link.write(SERVER_SETTINGS);
    const block = bigBlock(40_000);
    for (let id = await link.nextRequest(); id !== undefined; id = await link.nextRequest()) {
      if (!await link.write(frame(FRAME.headers, FLAG.endStream, id, block.subarray(0, 16_000)))) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const rest = block.subarray(16_000);
      const last = frame(FRAME.continuation, FLAG.endHeaders, id, rest.subarray(8_000));
      const middle = frame(FRAME.continuation, 0, id, rest.subarray(0, 8_000));
      if (!await link.write(new Uint8Array([...middle, ...last]))) return;
    }
  },
  outcomes: ["ok"],
}, {
  name: "an endless body",
  tls: true,
  pattern: async (link) => {
    await link.write(SERVER_SETTINGS);
    const id = await link.nextRequest();
    if (id === undefined) return;
    await link.write(frame(FRAME.headers, FLAG.endHeaders, id, STATUS_200));
    await flood(link, repeated(frame(FRAME.data, 0, id, new Uint8Array(16_384)), 16));
  },
  outcomes: ["timeout", "protocol"],
  needs: ["timeout"],
}];

/** A run of `load` against `url` on the `io` path. */
async function hostileRun(url: string, io: "native" | "deno"): Promise<EngineRun> {
  const { plan, issues } = parseText(`name: hostile
target: ${url}
requests: [{ path: /, timeout: ${TIMEOUT_MS}ms }]
load:
  connections: 1
  stages:
    - { rate: 20/s, duration: ${DURATION_MS}ms }
`);
  assert.ok(plan, JSON.stringify(issues));
  plan.load.http = "2";
  const options = { plan, caCerts: [H2_CERT], onNotice: () => {} };
  return io === "native"
    ? await runWorkers({ ...options, io: "native" })
    : await runEngine({ ...options, io: "deno" });
}

/** The outcome kinds the run's requests had, with their counts. */
function outcomesOf(c: RequestCounts): Map<string, number> {
  const kinds = new Map<string, number>();
  if (c.ok > 0) kinds.set("ok", c.ok);
  for (const [kind, n] of Object.entries(c.errors)) if (n) kinds.set(kind, n);
  return kinds;
}

const WAYS = [false, true].flatMap((tls) =>
  (NATIVE ? ["native", "deno"] as const : ["deno"] as const)
    .filter((io) => !tls || io === "deno" || NATIVE_TLS)
    .map((io) => ({ tls, io }))
);

for (const c of CASES) {
  for (const { tls, io } of WAYS.filter((way) => !way.tls || c.tls)) {
    Deno.test(`${c.name}: bounded, on time, every request accounted (${tls ? "TLS" : "h2c"}, ${io} I/O)`, async () => {
      await using server = await hostileServer(c.pattern, { tls, deadlineMs: 6_000 });
      let peakRss = Deno.memoryUsage().rss;
      const startRss = peakRss;
      const sampler = setInterval(() => peakRss = Math.max(peakRss, Deno.memoryUsage().rss), 25);
      const startMs = performance.now();
      let run: EngineRun;
      try {
        run = await hostileRun(server.url, io);
      } finally {
        clearInterval(sampler);
      }
      const tookMs = performance.now() - startMs;
      if (Deno.env.get("HOSTILE_DEBUG")) {
        console.error(
          c.name,
          tls,
          io,
          Math.round(startRss / 2 ** 20),
          Math.round(Math.max(peakRss, Deno.memoryUsage().rss) / 2 ** 20),
          Math.round(tookMs),
          JSON.stringify(Object.fromEntries(outcomesOf(run!.recorded.stages.at(-1)!.counts))),
        );
      }
      peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
      assert.ok(
        tookMs < DURATION_MS + TIMEOUT_MS + SLACK_MS,
        `the run took ${Math.round(tookMs)} ms`,
      );
      const grownBytes = peakRss - startRss;
      assert.ok(
        grownBytes < RSS_GROWTH_LIMIT_BYTES,
        `RSS grew ${Math.round(grownBytes / 2 ** 20)} MiB`,
      );
      const counts = run.recorded.stages.at(-1)!.counts;
      assert.equal(counts.completed, counts.scheduled, "every scheduled request has an outcome");
      assert.equal(counts.scheduled, 20);
      const kinds = outcomesOf(counts);
      const seen = JSON.stringify(Object.fromEntries(kinds));
      for (const kind of kinds.keys()) {
        assert.ok((c.outcomes as readonly string[]).includes(kind), `${kind} in ${seen}`);
      }
      for (const kind of c.needs ?? c.outcomes.slice(0, 1)) {
        assert.ok(kinds.has(kind), `no ${kind} in ${seen}`);
      }
      assert.ok(server.connections() >= 1);
    });
  }
}

Deno.test("a server that never sends SETTINGS is waited for at most the connect timeout, and named", async () => {
  await using server = await hostileServer((link) => answerAll(link), { deadlineMs: 6_000 });
  const { plan, issues } = parseText(`name: silent
target: ${server.url}
requests: [{ path: / }]
load: { connections: 1, stages: [{ rate: 20/s, duration: 500ms }] }
`);
  assert.ok(plan, JSON.stringify(issues));
  plan.load.http = "2";
  const notices: string[] = [];
  const run = await runEngine({
    plan,
    io: "deno",
    connectTimeoutMs: 300,
    onNotice: (n) => notices.push(n),
  });
  assert.equal(run.recorded.stages[0].counts.ok, 10, "a server that answers is still measured");
  const said = notices.filter((n) => /sent no SETTINGS/.test(n));
  assert.equal(said.length, 1, notices.join("\n"));
  assert.match(said[0], /within 300 ms of the HTTP\/2 connection preface \(RFC 9113 §3\.4/);
  assert.match(said[0], /with 100 streams per connection/);
});

for (const io of NATIVE ? ["native", "deno"] as const : ["deno"] as const) {
  Deno.test(`a request that waits for its HTTP/2 connection to reopen counts it as connect time (${io} I/O)`, async () => {
    // GOAWAY after every answer: each next request opens a new connection, and waits for it.
    await using server = await hostileServer(async (link) => {
      await link.write(SERVER_SETTINGS);
      const id = await link.nextRequest();
      if (id !== undefined) await link.write(new Uint8Array([...answer(id), ...goaway(id, 0)]));
    }, { deadlineMs: 6_000 });
    const run = await hostileRun(server.url, io);
    const counts = run.recorded.stages.at(-1)!.counts;
    // A request fired while the one before it was still in flight (a slow machine stretches a
    // round trip past the 50 ms between sends) shares its connection, and that connection's
    // GOAWAY ends it as `goaway`: never retried, as h2_stream_slot.ts says. The rest are answered.
    const goaways = counts.errors.goaway ?? 0;
    assert.equal(counts.ok + goaways, 20, JSON.stringify(counts));
    assert.ok(counts.ok >= 15, JSON.stringify(counts));
    assert.ok(server.connections() >= 15, `${server.connections()} connections`);
    // Every reopen's wait is the server's connect, never the generator's send lag.
    assert.ok(run.recorded.connectTime.count >= 10, `${run.recorded.connectTime.count} connects`);
  });
}
