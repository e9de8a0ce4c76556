/**
 * One run of a plan (or of one shard of it) on this thread: schedule, prepared requests
 * (engine_requests.ts), the recorder, the transport × protocol the run takes (wiring/: the I/O
 * path's waker and sockets, HTTP/1.1's connections or HTTP/2's stream slots, chosen once), the
 * dispatcher that drives them, and the record of what it measured. The I/O edge of the engine: it
 * reads body files, opens sockets and starts the timing worker.
 *
 * @module
 */
import process from "node:process";
import type { ResolvedPlan } from "../plan/mod.ts";
import type { RecordedRun, Recorder } from "../recorder/mod.ts";
import { planRecorder } from "../recorder/mod.ts";
import type { IntervalStore } from "../recorder/mod.ts";
import type { LiveTally } from "../recorder/mod.ts";
import type { Schedule, ShardSpec } from "../schedule/mod.ts";
import { planSchedule } from "../schedule/mod.ts";
import { rateAtMs } from "../schedule/mod.ts";
import { type HiccupMeter, setShortSlice } from "../engine/mod.ts";
import { attachSideWorkers, type SideLinks, startSideWorkers } from "./start_side_workers.ts";
import type { ContentionRecord } from "./contention_probe.ts";
import { collectGarbage, youngGenerationMb } from "../engine/mod.ts";
import { CONNECT_TIMEOUT_MS, Dispatcher, TraceStamp } from "../engine/mod.ts";
import { JourneyRunner } from "../engine/mod.ts";
import type { MixLabels } from "../plan/mod.ts";
import { mixLabels } from "../plan/runtime/mod.ts";
// Through a side door (tests/layers_test.ts): plan/mod.ts would load the plan's YAML reader.
import { loadGrpcCodec } from "../plan/grpc/grpc_support.ts";
import { type Clock, type Connection, PERFORMANCE_CLOCK, type Waker } from "../engine/mod.ts";
import type { RawBodySample } from "../engine/mod.ts";
import { type EngineRequests, engineRequests } from "./engine_requests.ts";
import { ConnectionWatch } from "./connection_watch.ts";
import { chooseTransport, protocolOf } from "./wiring/mod.ts";

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
 * Runs `plan` (or its `shard`) to the end and returns the record: the plan's labels, schedule,
 * requests and recorder, then the transport × protocol the run takes (wiring/), the dispatcher
 * that drives them, and the record of what it measured.
 */
export async function runEngine(options: EngineOptions): Promise<EngineRun> {
  const { plan } = options;
  const clock = options.clock ?? PERFORMANCE_CLOCK;
  // Labels: the single requests, then each journey's steps (plan/requests/mix_labels.ts).
  const mix = mixLabels(plan);
  const schedule = planSchedule(plan, mix);
  const shard = options.shard ?? { index: 0, count: 1 };
  // A gRPC plan's codec (protobufjs loaded only for one: ~50 ms of start-up CPU).
  const codec = plan.grpc ? await loadGrpcCodec(plan.grpc) : undefined;
  const prepared = await engineRequests(plan, mix, () => schedule.cursor(shard), codec);
  const { requests, source, checks } = prepared;
  const origin = new URL(mix.requests[0].url);
  // A real run keeps its engine thread for timing, writing, reading and recording: intervals are
  // encoded by a low-priority worker, and a probe thread measures the platform's hiccups.
  // Runs with an injected waker (tests on a fake clock) do both inline or not at all.
  const real = options.waker === undefined;
  const ioPath = await chooseTransport({
    origin,
    io: options.io,
    alpn: plan.load.http === "2" ? "h2" : "http/1.1",
    caCerts: options.caCerts,
    deferReads: !plan.journeys?.length,
    waker: options.waker,
    connect: options.connect,
  });
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
  const recorder = planRecorder(plan, mix, schedule.stages, store);
  const journeys = journeyRunner(plan, mix, prepared, recorder);
  const share = (n: number) => Math.max(1, Math.round(n / shard.count));
  // The engine-stall probe counts from the end of the leading warmup stages, as send lag does.
  const warmupEndMs = schedule.stages.find((s) => !s.warmup)?.startMs ?? schedule.durationMs;
  let measuredFromMs = Infinity; // clock time; set once the schedule's start is known
  const onResume = (stallMs: number) => {
    if (clock.nowMs() >= measuredFromMs) recorder.engineStall(stallMs);
  };
  const watch = new ConnectionWatch(options.onNotice);
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const transport = await ioPath.open({ clock, onResume, hooks: watch });
  const { waker } = transport;
  const protocol = await protocolOf(plan, options.connect !== undefined)({
    transport,
    origin,
    clock,
    plan,
    connections: share(plan.load.connections),
    requests,
    caCerts: options.caCerts,
    bodySampler: watch.bodySampler,
    connectTimeoutMs,
    onNotice: options.onNotice,
  });
  // HTTP/2: each dispatcher "connection" is a stream slot; `streams` of them share a connection.
  const { streams } = protocol;
  const timerSlackSet = "timerSlackSet" in waker ? Boolean(waker.timerSlackSet) : false;
  const dispatcher = new Dispatcher({
    cursor: schedule.cursor(shard),
    requests,
    source,
    journeys,
    connect: protocol.connect,
    connections: share(plan.load.connections) * streams,
    maxConnections: share(plan.load.maxConnections) * streams,
    clock,
    waker,
    recorder,
    ...(checks ? { checks } : {}),
    ...(plan.trace ? { trace: new TraceStamp(plan.load.seed) } : {}),
    signal: options.signal,
    onTick: progressTicker(recorder, schedule, shard.count, options.onProgress),
  });
  const unopened = Math.ceil(await dispatcher.openConnections(connectTimeoutMs) / streams);
  if (unopened > 0 && !options.signal?.aborted) {
    const failures = dispatcher.openFailures;
    const connections = share(plan.load.connections);
    watch.unopened(unopened, connections, origin.origin, failures, streams, connectTimeoutMs);
  }
  source?.fill();
  // Loading left the young generation full of garbage that the run's first scavenge would copy.
  if (real) collectGarbage();
  const cpuBefore = process.cpuUsage();
  const startMs = await scheduleStartMs(options, clock);
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
    const bodySamples = watch.bodySampler.samples(startMs);
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
        peak: protocol.peakConnections() ?? dispatcher.peakConnections,
      },
      ...(unopened > 0 ? { unopenedConnections: unopened } : {}),
      ...(watch.outOfDescriptors ? { outOfDescriptors: true } : {}),
      ...(watch.http2Reply ? { http2Reply: true } : {}),
      ...protocol.record(),
      timerSlackSet,
      io: ioPath.io,
      youngGenerationMb: youngGenerationMb(),
      ...(source ? { rendered: { late: source.late, draws: [...source.draws] } } : {}),
      ...(error === undefined ? {} : { error }),
      ...(bodySamples.length ? { bodySamples } : {}),
    };
  } finally {
    transport.close();
    void hiccups?.stop();
    store?.close();
    await ownSide?.close();
  }
}

/** The plan's journeys on this engine, when it has some: each step sent as it comes due. */
function journeyRunner(
  plan: ResolvedPlan,
  mix: MixLabels,
  { requests, renderer, source, decoders }: EngineRequests,
  recorder: Recorder,
): JourneyRunner | undefined {
  if (!plan.journeys?.length) return undefined;
  const { firstStepLabel } = mix;
  const seed = plan.load.seed;
  return new JourneyRunner({
    journeys: plan.journeys,
    firstStepLabel,
    requests,
    seed,
    sink: recorder,
    renderer,
    source,
    ...(decoders ? { decoders } : {}),
  });
}

/**
 * The clock time of schedule offset 0, once the connections are open: `startAt`'s instant,
 * else `startAtEpochMs`, else `leadMs` (default 20) from now.
 */
async function scheduleStartMs(options: EngineOptions, clock: Clock): Promise<number> {
  const startAtEpochMs = options.startAt ? await options.startAt() : options.startAtEpochMs;
  return startAtEpochMs !== undefined
    ? startAtEpochMs - performance.timeOrigin
    : clock.nowMs() + (options.leadMs ?? 20);
}

/**
 * The dispatcher's tick, about once a second: the recorder's intervals closed up to it, and a
 * {@linkcode Progress} snapshot told (a shard's intended rate is its share of the schedule's).
 */
function progressTicker(
  recorder: Recorder,
  schedule: Schedule,
  shards: number,
  onProgress: ((progress: Progress) => void) | undefined,
): (offsetMs: number, d: { dispatched: number; queued: number; inflight: number }) => void {
  let lastSent = 0;
  return (offsetMs, d) => {
    // Taken before the intervals close: the tally that closes an interval holds its last counts.
    const tally = recorder.tally(offsetMs);
    recorder.closeIntervals(Math.min(offsetMs, schedule.durationMs) - 1);
    const stage = schedule.stageAt(offsetMs);
    const sent = d.dispatched - d.queued;
    onProgress?.({
      offsetMs,
      durationMs: schedule.durationMs,
      stageIndex: stage.index,
      stageName: stage.name,
      intendedPerSec: rateAtMs(stage.profile, offsetMs - stage.startMs) / shards,
      sentPerSec: sent - lastSent,
      p99Us: recorder.latestP99Us(),
      completed: recorder.completed,
      errors: recorder.errors,
      queued: d.queued,
      inflight: d.inflight,
      tally,
    });
    lastSent = sent;
  };
}
