/**
 * One run of a plan (or of one shard of it) on this thread: schedule, prepared requests,
 * connections, the precise waker, the dispatcher and the recorder, wired together. The I/O edge
 * of the engine: it reads body files, opens sockets and starts the timing worker. (Over 400 lines:
 * the one place the engine's parts meet, each I/O path and protocol a branch of it; the HTTP/2
 * pool's own wiring is wiring/http2_protocol.ts.)
 *
 * @module
 */
import process from "node:process";
import type { ResolvedPlan } from "../plan/types.ts";
import { type RecordedRun, Recorder } from "../recorder/recorder.ts";
import type { IntervalStore } from "../recorder/interval_store.ts";
import type { LiveTally } from "../recorder/live_tally.ts";
import { Schedule, type ShardSpec } from "../schedule/build_schedule.ts";
import { rateAtMs } from "../schedule/fire_times.ts";
import { createAtomicsWaker, setShortSlice } from "../engine/timing/mod.ts";
import {
  EpollLoop,
  ioChoice,
  NativeConnection,
  type NativeTarget,
  nativeTarget,
  nativeTls,
} from "../engine/native/mod.ts";
import { http2Pool, http2Record } from "./wiring/http2_protocol.ts";
import type { HiccupMeter } from "../engine/timing/mod.ts";
import { attachSideWorkers, type SideLinks, startSideWorkers } from "./start_side_workers.ts";
import type { ContentionRecord } from "./contention_probe.ts";
import { collectGarbage, youngGenerationMb } from "../engine/v8_flags.ts";
import { CONNECT_TIMEOUT_MS, Dispatcher } from "../engine/dispatcher.ts";
import { Http1Connection } from "../engine/socket/mod.ts";
import type { H2Pool } from "../engine/http2/mod.ts";
import { HTTP2_REPLY_NOTE, OUT_OF_DESCRIPTORS_NOTE, prepareRequest } from "../engine/http1/mod.ts";
import { RenderAhead, RequestRenderer } from "../engine/render/mod.ts";
import { LabelChecks } from "../engine/response/mod.ts";
import { JourneyRunner } from "../engine/journeys/mod.ts";
import { mixLabels } from "../plan/requests/mod.ts";
import { keepBodyBytesOf } from "./journey_bodies.ts";
import { type Clock, type Connection, PERFORMANCE_CLOCK, type Waker } from "../engine/types.ts";
import type { ErrorKind } from "../model/run_result.ts";
import { readRegularFile } from "../model/regular_file.ts";
import { BodySampler, type RawBodySample } from "../engine/body_sample.ts";
import { MAX_BODY_FILE_BYTES } from "../plan/requests/mod.ts";

/** A progress snapshot, about once a second. */
export interface Progress {
  /** Time since the schedule's start, in milliseconds. */
  offsetMs: number;
  /** Length of the whole schedule, in milliseconds. */
  durationMs: number;
  /** Index of the stage running at `offsetMs`. */
  stageIndex: number;
  /** Name of that stage. */
  stageName: string;
  /** The schedule's intended rate at `offsetMs`, per second (a sharded run: this shard's share). */
  intendedPerSec: number;
  /** Requests sent in the last second. */
  sentPerSec: number;
  /**
   * 99th percentile response time of the latest finished interval, in microseconds; undefined
   * before the first.
   */
  p99Us: number | undefined;
  /** Requests completed so far, failures included. */
  completed: number;
  /** Completed requests that failed so far. */
  errors: number;
  /** Requests waiting for a free connection now. */
  queued: number;
  /** Requests handed to a connection and not yet complete, now. */
  inflight: number;
  /** Per stage, label and open second: requests taken, answered and failed (fail-fast reads it). */
  tally: LiveTally;
}

/** Options of {@linkcode runEngine}. */
export interface EngineOptions {
  plan: ResolvedPlan;
  shard?: ShardSpec;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** One-line notices about the run's setup (connections slow to open). */
  onNotice?: (text: string) => void;
  /** How long the initial connections may take to open (ms; default 5000). */
  connectTimeoutMs?: number;
  /** Extra PEM certificates to trust for https targets. */
  caCerts?: string[];
  /** How long after setup the schedule starts, so connections and timers settle (ms). */
  leadMs?: number;
  /**
   * Wall-clock time (epoch ms, fractional) of schedule offset 0, so that workers or machines
   * start together; overrides `leadMs`. Needs the performance clock.
   */
  startAtEpochMs?: number;
  clock?: Clock;
  /**
   * The I/O path: `deno` (Deno's sockets and the timing worker), `native` (libc sockets on an
   * epoll loop; Linux with FFI, OpenSSL 3 for https, else an error) or `auto` (native where it can run);
   * default: `TAILGATE_IO`, else `auto`, as runWorkers. The native loop blocks this thread between events, yielding to its event loop
   * only every 50 ms: give it a thread of its own (runWorkers runs it in a worker) unless nothing
   * else on the thread needs to run meanwhile, such as a server in the same thread.
   */
  io?: "auto" | "native" | "deno";
  /**
   * Called once the connections are open; resolves with the wall-clock time (epoch ms) of
   * schedule offset 0. Lets workers start together once every one of them is ready; overrides
   * `startAtEpochMs` and `leadMs`.
   */
  startAt?: () => Promise<number>;
  /**
   * The side Workers (interval encoder, hiccup probe) another thread started for this run
   * (runWorkers starts them from the main thread); without it a real run starts its own.
   */
  side?: SideLinks;
  /** Overrides for tests. */
  connect?: (url: URL, clock: Clock) => Connection;
  waker?: Waker;
}

/** What one engine run measured, with the raw figures tool health is judged from. */
export interface EngineRun {
  recorded: RecordedRun;
  complete: boolean;
  /** Wall-clock time of schedule offset 0. */
  startedAt: Date;
  /** From schedule offset 0 to the last outcome. */
  durationMs: number;
  scheduleDurationMs: number;
  scheduled: number;
  cpu: { userMs: number; systemMs: number };
  connections: { opened: number; peak: number };
  /** Initial connections that did not open within the connect timeout (they opened on use). */
  unopenedConnections?: number;
  /** Set when connects failed because the process ran out of file descriptors. */
  outOfDescriptors?: boolean;
  /** Set when the target answered requests with HTTP/2 frames (it speaks only HTTP/2). */
  http2Reply?: boolean;
  /**
   * An HTTP/2 run (`load.http: 2`): the streams each connection carried at most, the server's
   * SETTINGS_MAX_CONCURRENT_STREAMS as first seen (absent when it set none), and the flow-control
   * window offered (octets).
   */
  http2?: { streamsPerConnection: number; serverMaxStreams?: number; windowBytes: number };
  timerSlackSet: boolean;
  /** Which I/O path ran: `native` (libc sockets on epoll) or `deno` (Deno's sockets). */
  io?: "native" | "deno";
  /**
   * The engine thread's young-generation capacity (MB) during the run (see v8_flags.ts);
   * undefined where not measured (records built by hand in tests).
   */
  youngGenerationMb?: number;
  /**
   * A templated plan's rendering: requests rendered when due instead of ahead (generator
   * lateness), and per data source how many requests drew a row from it.
   */
  rendered?: { late: number; draws: number[] };
  /** Set when the run failed part-way; the record holds what was measured until then. */
  error?: string;
  /**
   * What the contention probe sampled during the run (runWorkers runs it, on Linux): the
   * machine's CPU pressure and steal, the service's wait for a CPU.
   */
  contention?: ContentionRecord;
  /**
   * The first body of each status a label did not expect, per label and code (at most 100, each
   * its first 512 bytes as received; times from the run's start); absent when there was none.
   */
  bodySamples?: RawBodySample[];
}

/**
 * Runs `plan` (or its `shard`) to the end and returns the record.
 */
export async function runEngine(options: EngineOptions): Promise<EngineRun> {
  const { plan } = options;
  const clock = options.clock ?? PERFORMANCE_CLOCK;
  // Labels: the single requests, then each journey's steps (plan/requests/mix_labels.ts).
  const mix = mixLabels(plan);
  const schedule = new Schedule({
    arrival: plan.load.arrival,
    seed: plan.load.seed,
    stages: plan.load.stages,
    weights: mix.entryWeights,
    entryLabels: mix.entryLabels,
  });
  const fileBodies = await Promise.all(
    mix.requests.map((r) => r.body?.kind === "file" ? readBodyFile(r.body.path) : undefined),
  );
  const renderer = mix.requests.some((r) => r.template !== undefined)
    ? new RequestRenderer(plan, fileBodies)
    : undefined;
  const requests = mix.requests.map((r, i) => {
    const prepared = prepareRequest({ ...r, weight: 1 }, i, fileBodies[i]);
    const keep = keepBodyBytesOf(mix.labels[i]);
    if (keep > 0) prepared.keepBodyBytes = keep;
    return renderer ? renderer.fixedRequest(i, prepared) : prepared;
  });
  const shard = options.shard ?? { index: 0, count: 1 };
  // Requests that draw values are rendered ahead of the schedule, into pooled buffers.
  const source = renderer?.drawsValues
    ? new RenderAhead(renderer, requests, schedule.cursor(shard), plan.data?.length ?? 0)
    : undefined;
  const origin = new URL(mix.requests[0].url);
  // A real run keeps its engine thread for timing, writing, reading and recording: intervals are
  // encoded by a low-priority worker, and a probe thread measures the platform's hiccups.
  // Runs with an injected waker (tests on a fake clock) do both inline or not at all.
  const real = options.waker === undefined;
  const io = ioChoice(options.io);
  const http2 = plan.load.http === "2";
  const native: NativeTarget | undefined = real && options.connect === undefined && io !== "deno"
    ? await nativeTarget(origin, io)
    : undefined;
  // https on the native path: OpenSSL's context for the run, freed at its end.
  const tls = native && nativeTls(native, http2, options.caCerts);
  // This thread keeps time: it wakes ahead of the process's other threads on its core, on
  // either I/O path (short_slice.ts).
  if (real) setShortSlice();
  // Side Workers this thread starts (when no other thread did) are this run's to end.
  const ownSide = real && options.side === undefined ? startSideWorkers() : undefined;
  await ownSide?.ready;
  const links = options.side ?? ownSide?.links;
  const { store, hiccups }: { store?: IntervalStore; hiccups?: HiccupMeter } = real && links
    ? attachSideWorkers(links)
    : {};
  const recorder = new Recorder(
    schedule.stages,
    mix.requests.map((r) => r.label),
    mix.requests.map((r) => r.expect),
    1000,
    store,
  ).withJourneys(
    (plan.journeys ?? []).map((j, i) => ({
      name: j.name,
      stepLabels: j.steps.map((_, k) => mix.firstStepLabel[i] + k),
    })),
  );
  // Labels with checks (requests and journey steps): evaluated on this thread at completion,
  // counted per check.
  const checks = mix.requests.map((r) =>
    r.checks?.length ? new LabelChecks(r.checks, r.expect) : undefined
  );
  recorder.countChecks(mix.requests.map((r) => r.checks));
  const journeys = plan.journeys?.length
    ? new JourneyRunner({
      journeys: plan.journeys,
      firstStepLabel: mix.firstStepLabel,
      requests,
      seed: plan.load.seed,
      sink: recorder,
      renderer,
      source,
    })
    : undefined;
  const share = (n: number) => Math.max(1, Math.round(n / shard.count));
  // The engine-stall probe counts from the end of the leading warmup stages, as send lag does.
  const warmupEndMs = schedule.stages.find((s) => !s.warmup)?.startMs ?? schedule.durationMs;
  let measuredFromMs = Infinity; // clock time; set once the schedule's start is known
  const onResume = (stallMs: number) => {
    if (clock.nowMs() >= measuredFromMs) recorder.engineStall(stallMs);
  };
  // Running out of descriptors fails requests as `other`: name the cause, once, as it happens.
  let outOfDescriptors = false;
  const onOutOfDescriptors = () => {
    if (outOfDescriptors) return;
    outOfDescriptors = true;
    options.onNotice?.(OUT_OF_DESCRIPTORS_NOTE);
  };
  // So does a target that speaks only HTTP/2: its frames fail requests as `protocol`.
  let http2Reply = false;
  const onHttp2Reply = () => {
    if (http2Reply) return;
    http2Reply = true;
    options.onNotice?.(HTTP2_REPLY_NOTE);
  };
  // The first body of each unexpected status: every connection of this engine shares one.
  const bodySampler = new BodySampler();
  let waker: Waker;
  let connect: (url: URL, c: Clock) => Connection;
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  // HTTP/2: each dispatcher "connection" is a stream slot; `streams` of them share a connection.
  let pool: H2Pool | undefined;
  let streams = 1;
  const loop = native === undefined
    ? undefined
    : new EpollLoop({ libc: native.libc, clock, onResume });
  if (http2 && options.connect === undefined) {
    waker = loop ?? options.waker ?? await createAtomicsWaker({ onResume });
    pool = http2Pool({
      origin,
      clock,
      plan,
      connections: share(plan.load.connections),
      requests,
      caCerts: options.caCerts,
      ...(loop ? { native: { loop, socketAddress: native!.address, tls } } : {}),
      onOutOfDescriptors,
      bodySampler,
    });
    streams = await pool.settle(connectTimeoutMs, waker);
    const notice = pool.settingsNotice();
    if (notice) options.onNotice?.(notice);
    const h2 = pool;
    connect = () => h2.slot();
  } else if (loop !== undefined) {
    waker = loop;
    connect = (_url, c) =>
      new NativeConnection({
        loop,
        clock: c,
        socketAddress: native!.address,
        onOutOfDescriptors,
        onHttp2Reply,
        tls,
        bodySampler,
      });
  } else {
    waker = options.waker ?? await createAtomicsWaker({ onResume });
    connect = options.connect ??
      ((url: URL, c: Clock) =>
        new Http1Connection({
          url,
          clock: c,
          tls: { caCerts: options.caCerts },
          onOutOfDescriptors,
          onHttp2Reply,
          bodySampler,
        }));
  }
  const timerSlackSet = "timerSlackSet" in waker ? Boolean(waker.timerSlackSet) : false;
  let lastSent = 0;
  const dispatcher = new Dispatcher({
    cursor: schedule.cursor(shard),
    requests,
    source,
    journeys,
    connect: () => connect(origin, clock),
    connections: share(plan.load.connections) * streams,
    maxConnections: share(plan.load.maxConnections) * streams,
    clock,
    waker,
    recorder,
    ...(checks.some((c) => c !== undefined) ? { checks } : {}),
    signal: options.signal,
    onTick: (offsetMs, d) => {
      // Taken before the intervals close: the tally that closes an interval holds its last counts.
      const tally = recorder.tally(offsetMs);
      recorder.closeIntervals(Math.min(offsetMs, schedule.durationMs) - 1);
      const stage = schedule.stageAt(offsetMs);
      const sent = d.dispatched - d.queued;
      options.onProgress?.({
        offsetMs,
        durationMs: schedule.durationMs,
        stageIndex: stage.index,
        stageName: stage.name,
        intendedPerSec: rateAtMs(stage.profile, offsetMs - stage.startMs) / shard.count,
        sentPerSec: sent - lastSent,
        p99Us: recorder.latestP99Us(),
        completed: recorder.completed,
        errors: recorder.errors,
        queued: d.queued,
        inflight: d.inflight,
        tally,
      });
      lastSent = sent;
    },
  });
  const unopened = Math.ceil(await dispatcher.openConnections(connectTimeoutMs) / streams);
  if (unopened > 0 && !options.signal?.aborted) {
    options.onNotice?.(
      unopenedNotice(
        unopened,
        share(plan.load.connections),
        origin.origin,
        // Per connection, not per stream slot (HTTP/2: `streams` slots share one).
        new Map([...dispatcher.openFailures].map(([kind, n]) => [kind, Math.ceil(n / streams)])),
        connectTimeoutMs,
      ),
    );
  }
  source?.fill();
  // Loading left the young generation full of garbage that the run's first scavenge would copy.
  if (real) collectGarbage();
  const cpuBefore = process.cpuUsage();
  // The schedule starts once the connections are open.
  const startAtEpochMs = options.startAt ? await options.startAt() : options.startAtEpochMs;
  const startMs = startAtEpochMs !== undefined
    ? startAtEpochMs - performance.timeOrigin
    : clock.nowMs() + (options.leadMs ?? 20);
  const startedAt = new Date(Date.now() + (startMs - clock.nowMs()));
  measuredFromMs = startMs + warmupEndMs;
  hiccups?.recordFrom(performance.timeOrigin + measuredFromMs);
  try {
    let error: string | undefined;
    const outcome = await dispatcher.run(startMs).catch((e: unknown) => {
      // A crash mid-run still leaves what was measured: the record is closed and returned.
      error = e instanceof Error ? e.message : String(e);
      // Journeys still under way end as a stop ends them (their later steps counted skipped).
      journeys?.stop();
      return { complete: false, endMs: clock.nowMs() };
    });
    // Never negative: a run stopped before its start instant (`--start-at`) ran for no time.
    const durationMs = Math.max(0, outcome.endMs - startMs);
    const cpu = process.cpuUsage(cpuBefore);
    const platformHiccup = await hiccups?.stop();
    await store?.flush();
    const bodySamples = bodySampler.samples(startMs);
    return {
      recorded: recorder.finish(Math.max(durationMs, schedule.durationMs), platformHiccup),
      complete: outcome.complete,
      startedAt,
      durationMs,
      scheduleDurationMs: schedule.durationMs,
      // A journey's later steps are requests too, made as the journey runs.
      scheduled: schedule.shardCount(shard) + (journeys?.made ?? 0),
      cpu: { userMs: cpu.user / 1000, systemMs: cpu.system / 1000 },
      connections: {
        opened: dispatcher.socketsOpened,
        peak: pool ? pool.connectionsMade : dispatcher.peakConnections,
      },
      ...(unopened > 0 ? { unopenedConnections: unopened } : {}),
      ...(outOfDescriptors ? { outOfDescriptors } : {}),
      ...(http2Reply ? { http2Reply } : {}),
      ...(pool ? { http2: http2Record(pool) } : {}),
      timerSlackSet,
      io: native !== undefined ? "native" : "deno",
      youngGenerationMb: youngGenerationMb(),
      ...(source ? { rendered: { late: source.late, draws: [...source.draws] } } : {}),
      ...(error === undefined ? {} : { error }),
      ...(bodySamples.length ? { bodySamples } : {}),
    };
  } finally {
    if (!options.waker) waker.close();
    tls?.context.free(); // its connections hold references of their own until they close
    void hiccups?.stop();
    store?.close();
    await ownSide?.close();
  }
}

/**
 * The notice for initial connections that did not open: those that failed, by kind (a `tls`
 * failure most often an untrusted certificate), apart from those still pending at the timeout.
 */
function unopenedNotice(
  unopened: number,
  connections: number,
  origin: string,
  failures: ReadonlyMap<ErrorKind, number>,
  timeoutMs: number,
): string {
  const failed = [...failures.values()].reduce((a, b) => a + b, 0);
  const parts: string[] = [];
  if (failed > 0) {
    const kinds = [...failures].map(([kind, n]) => `${kind}: ${n}`).join(", ");
    parts.push(
      `${failed} of ${connections} connections to ${origin} failed to open (${kinds})` +
        (failures.has("tls") ? ": an untrusted certificate? pass --ca-cert FILE" : ""),
    );
  }
  if (unopened > failed) {
    parts.push(
      `${unopened - failed} of ${connections} connections to ${origin} did not open within ` +
        `${timeoutMs / 1000} s`,
    );
  }
  return `${parts.join("; ")}; starting anyway (each connects on first use, within its ` +
    "request's timeout)";
}

/**
 * A body file's bytes, read as the plan was checked: a regular file of at most
 * {@linkcode MAX_BODY_FILE_BYTES}, and never more than that read (it may have grown, or been
 * swapped for a device, since the plan was read).
 */
async function readBodyFile(path: string): Promise<Uint8Array> {
  const read = await readRegularFile(path, MAX_BODY_FILE_BYTES);
  if (!read.ok) throw new Error(`body file ${read.problems[0].message}`);
  return read.value;
}
