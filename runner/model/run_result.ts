/**
 * The result document: what a run measured, as versioned JSON. It is the contract between the
 * engine and everything after it: gates and reporters read only this (docs/result-format.md).
 *
 * Units are in the field names: `Us` microseconds, `Ms` milliseconds, `PerSec` per second.
 *
 * @module
 */

/** The `schema` field of every result document. */
export const RESULT_SCHEMA = "tailgate/result";

/** The version of the result format this build writes. A reader refuses newer major versions. */
export const RESULT_VERSION = 3;

/**
 * The HTTP a run spoke: `http/1.1`, or HTTP/2 as `h2` (over TLS, agreed by ALPN) or `h2c`
 * (cleartext, prior knowledge).
 */
export type RunProtocol = "http/1.1" | "h2" | "h2c";

/**
 * The streams per connection an HTTP/2 run takes when its plan names none: what the server's
 * SETTINGS allow, at most this.
 */
export const SERVER_STREAMS_CAP = 100;

/** The most streams per connection a plan may ask for (`load.max_streams`). */
export const MAX_STREAMS_PER_CONNECTION = 1000;

/** The HTTP/2 flow-control window a run offers when its plan names none (`load.window_mib`). */
export const DEFAULT_WINDOW_MIB = 16;

/** The largest window a plan may ask for: HTTP/2 windows stop at 2^31 - 1 octets. */
export const MAX_WINDOW_MIB = 2047;

/** How every histogram in the document is encoded. */
export interface HistogramEncoding {
  /** Reference HdrHistogram V2 compressed encoding (cookie 0x1c849304), base64. */
  format: "hdr-v2-deflate-base64";
  /** Unit of the recorded values. */
  valueUnit: "us";
  /** Smallest value the histograms tell apart from zero, in `valueUnit` (1). */
  lowestDiscernibleValue: number;
  /** Largest value the histograms record, in `valueUnit` (3,600,000,000: one hour). */
  highestTrackableValue: number;
  /** Decimal digits every recorded value keeps (3: within 0.1%). */
  significantValueDigits: number;
}

/**
 * One histogram: the encoded distribution (the truth) and a summary read off it for people and
 * `jq` (never an average of other percentiles).
 */
export interface EncodedHistogram {
  /** How many values were recorded. */
  count: number;
  /** Smallest non-zero recorded value (its bucket's lowest equivalent value); 0 when none. */
  minUs: number;
  /** Largest recorded value (its bucket's highest equivalent value); 0 when empty. */
  maxUs: number;
  /** Mean of the recorded values (bucket midpoints weighted by count); 0 when empty. */
  meanUs: number;
  /** Percentile (as written: "50", "99.9") to value, read off this histogram. */
  percentilesUs: Record<string, number>;
  /** HdrHistogram V2 compressed, base64 (see {@linkcode HistogramEncoding}). */
  hdr: string;
}

/** Why a request failed. */
export type ErrorKind =
  | "refused"
  | "reset"
  | "timeout"
  | "tls"
  | "protocol"
  | "goaway"
  | "rst_stream"
  | "refused_stream"
  | "unexpected_status"
  | "rate_limited"
  /** The status was expected, but another of the label's checks (`check:`) failed. */
  | "check_failed"
  | "other";

/** Request counts. `scheduled = completed + unfinished`; nothing scheduled is ever dropped. */
export interface RequestCounts {
  /** Requests the schedule called for. */
  scheduled: number;
  /** Requests written to a connection. */
  sent: number;
  /** Requests with an outcome: a response, an error or a timeout. */
  completed: number;
  /** Completed with an expected status. */
  ok: number;
  /** Completed but failed, by kind. */
  errors: Partial<Record<ErrorKind, number>>;
  /**
   * Responses by status: an HTTP status by its number ("200": 1234), a gRPC call's by its name
   * ("OK": 1234, "UNAVAILABLE": 12; runner/model/grpc_status.ts `statusKey`).
   */
  statusCodes: Record<string, number>;
  /** Bytes written to connections for these requests. */
  bytesSent: number;
  /** Bytes read from connections in their responses. */
  bytesReceived: number;
  /**
   * The `Retry-After` values of the `rate_limited` responses that carried one, in whole seconds
   * ("30": 12); absent when none did (and in results written before it).
   */
  retryAfterS?: Record<string, number>;
  /**
   * gRPC only: the response messages of the calls that succeeded (`ok`), so a server-streaming
   * label's messages per stream are `messages / ok`; absent when none came (HTTP, and results
   * written before it).
   */
  messages?: number;
}

/** Latency of a group of requests: corrected response time and service time. */
export interface LatencyPair {
  /** completion − intended send time (corrected for coordinated omission). */
  response: EncodedHistogram;
  /** completion − actual write. */
  service: EncodedHistogram;
  /**
   * Time to first byte: the response's first byte − intended send time, for the requests that
   * succeeded (as `response`). Absent in results written before it.
   */
  ttfb?: EncodedHistogram;
}

/** Per-label results within a stage or interval. */
export interface LabelResult extends LatencyPair {
  /** The request label (`GET /orders` unless the plan names it). */
  label: string;
  /** Counts of this label's requests. */
  counts: RequestCounts;
  /**
   * The label's checks (`check:`), in the plan's order, per stage (absent in intervals, and for a
   * label without checks or a result written before checks ran).
   */
  checks?: CheckResult[];
  /**
   * The label's slowest requests in the stage by response time, slowest first: at most
   * {@linkcode SLOWEST_KEPT} (absent in intervals and totals, and in results written before them).
   */
  slowest?: SlowRequest[];
  /**
   * One request per high percentile (p90, p99, p99.9, p99.99 as far as the stage's count supports
   * it): a request whose response time lies in the same histogram bucket as that percentile, so a
   * reader goes from a percentile to a request that made it (absent where `slowest` is).
   */
  exemplars?: PercentileExemplar[];
}

/** How many of a stage × label's slowest requests a result keeps. */
export const SLOWEST_KEPT = 10;

/**
 * One measured request, named so the service's own traces can find it: with `trace`, its W3C
 * trace id (the one its `traceparent` header carried).
 */
export interface SlowRequest {
  /** 32 lowercase hex digits, the `traceparent` trace id; absent when the run sent none. */
  traceId?: string;
  /** Its intended send time, ms from the run's start. */
  intendedMs: number;
  /** Its response time (completion − intended send time), microseconds. */
  responseUs: number;
  /** The status it completed with (gRPC as 1000 + code, grpc_status.ts); 0 without a response. */
  status: number;
  /** Why it failed, when it failed without a status. */
  error?: ErrorKind;
}

/** A request standing for a percentile: see {@linkcode LabelResult.exemplars}. */
export interface PercentileExemplar extends SlowRequest {
  /** The percentile it stands for, as written in results (`"99.9"`). */
  percentile: string;
}

/**
 * One check of a label: how many responses it was evaluated on (each completed response with a
 * status) and how many it failed. Named by its text (`/state == open`) and plan line.
 */
export interface CheckResult {
  /** The check's text, as `check_rate("…")` names it. */
  text: string;
  /** Its line in the plan file. */
  line: number;
  /** Responses it was evaluated on. */
  evaluated: number;
  /** Of those, how many failed it. */
  failed: number;
}

/** One stage of the plan as it ran. */
export interface StageResult extends LatencyPair {
  /** Position of the stage in the plan's `load.stages` (0-based). */
  index: number;
  /** The stage's name: the plan's, or e.g. `20k/s for 60s`. */
  name: string;
  /** `constant`: one rate throughout; `ramp`: moves linearly from `fromPerSec` to `toPerSec`. */
  kind: "constant" | "ramp";
  /** True for a warmup stage: it ran and is reported, but no gate judges it. */
  warmup: boolean;
  /** Intended rate: constant stages have from = to. */
  fromPerSec: number;
  /** Intended rate at the stage's end, per second. */
  toPerSec: number;
  /** Offsets from the run's start. */
  startMs: number;
  /** Length of the stage on the schedule, in milliseconds. */
  durationMs: number;
  /** Counts of the stage's requests. */
  counts: RequestCounts;
  /** The stage's results per request label. */
  labels: LabelResult[];
  /** What its summary hides: trends, stalls and shape (measured stages; runner/result/time_domain.ts). */
  timeDomain?: StageTimeDomain;
  /**
   * Per journey of the plan, the journeys that started in this stage (their fire time's);
   * absent for a plan without journeys and in results written before them.
   */
  journeys?: JourneyResult[];
}

/**
 * One journey's figures in a stage: its journey time, its counts, and each step's skipped
 * count (a step's other counts and latencies are its label's, in `labels`).
 */
export interface JourneyResult {
  /** The journey's name (`order`); its steps are labelled `order / STEP`. */
  name: string;
  /**
   * Journey time of the journeys that completed: the last step's end − the journey's fire time,
   * think time excluded.
   */
  journey: EncodedHistogram;
  /** The think time of the completed journeys, summed (ms): the time `journey` leaves out. */
  thinkMs: number;
  /** Journeys started (their first step taken from the schedule). */
  started: number;
  /** Journeys whose every step passed. */
  completed: number;
  /** Journeys ended by a step that failed (an error, a failed check, a capture that found none). */
  failed: number;
  /**
   * Per step, in order: its label and how many times it was skipped (its journey ended before
   * it). Per step, completed + skipped = started, when the run was not stopped.
   */
  steps: Array<{ label: string; skipped: number }>;
}

/** A robust slope with its 95% interval. */
export interface Trend {
  /** Theil–Sen slope, µs per minute. */
  slope: number;
  /** Lower end of Sen's 95% interval, µs per minute. */
  low: number;
  /** Upper end of Sen's 95% interval, µs per minute. */
  high: number;
  /** True when the interval excludes zero. */
  significant: boolean;
}

/** A stage's time-domain analysis. */
export interface StageTimeDomain {
  /** Trend of the per-interval p50 (absent with fewer than 10 whole intervals). */
  trendP50UsPerMin?: Trend;
  /** Trend of the per-interval p99 (absent with fewer than 10 whole intervals). */
  trendP99UsPerMin?: Trend;
  /** Intervals in which nothing was answered while requests were due, or with an outlying max. */
  stalls: Array<{ startMs: number; maxUs: number; why: "nothing answered" | "slow" }>;
  /** The median time between stalls, from three stalls on. */
  stallPeriodMs?: number;
  /**
   * The max above which an interval was a stall: max(5 × the stage's p50, 20 ms), in µs. Absent in
   * results written before it.
   */
  stallThresholdUs?: number;
  /** Whether the response-time distribution has two separate modes, and where (µs). */
  bimodal: { flagged: boolean; modesUs?: [number, number] };
}

/** One time-domain interval (1 s by default) of the run. */
export interface IntervalResult extends LatencyPair {
  /** Offset of the interval's start from the run's start. */
  startMs: number;
  /** Length of the interval in milliseconds; shorter for the one in which the schedule ends. */
  durationMs: number;
  /** The stage the interval falls in (at its start). */
  stageIndex: number;
  /** Requests scheduled in the interval, per second. */
  intendedPerSec: number;
  /** Requests actually written during the interval (wall clock), per second. */
  sentPerSec: number;
  /** Requests completed during the interval (wall clock), per second. */
  completedPerSec: number;
  /** Counts and latencies of the requests *scheduled* in the interval. */
  counts: RequestCounts;
  /** The interval's results per request label, filed the same way as `counts`. */
  labels: LabelResult[];
  /**
   * How long the machine kept the service (or any task) from a CPU during the interval's wall
   * time, where Linux tells it: absent on other systems and in results before it.
   */
  contention?: IntervalContention;
}

/**
 * The machine's CPU contention during one interval, in milliseconds of its wall time: what a
 * shared runner did to the service beside the generator. Each figure is the growth of a Linux
 * counter over the interval; a counter tailgate could not read is absent.
 */
export interface IntervalContention {
  /**
   * CPU pressure (`/proc/pressure/cpu`, PSI `some`): the time in which at least one runnable task
   * of the machine waited for a CPU, tailgate's own threads included.
   */
  pressureMs?: number;
  /** Time the hypervisor gave the busiest virtual CPU to another guest (`steal`, `/proc/stat`). */
  stealMs?: number;
  /**
   * The service's own threads' wait for a CPU (their run-queue delay, `/proc/PID/task/TID/schedstat`,
   * summed over its threads); set when the service is known ({@linkcode RunContention}).
   */
  serviceWaitMs?: number;
}

/**
 * The machine's contention over a run: where its figures come from and how much of the measured
 * traffic it could have delayed (docs/gates.md, "Contention").
 */
export interface RunContention {
  /**
   * What stands for the service's wait in each interval: `service`, its own threads' run-queue
   * delay (the service is known: tailgate started it, or it owns the loopback target's listening
   * socket); `pressure`, the whole machine's CPU pressure (the target is on this machine but its
   * processes could not be seen); `none`, no measure of the service (a target on another machine,
   * or a system without these counters): only the generator's own allowance applies.
   */
  source: "service" | "pressure" | "none";
  /** The service's processes, when known: how they were found, their PIDs and command name. */
  service?: { found: "started" | "listening_socket"; pids: number[]; name: string };
  /** CPU pressure over the measured (non-warmup) stages' intervals, summed (ms). */
  pressureMs?: number;
  /** The busiest CPU's steal over the measured stages' intervals, summed (ms). */
  stealMs?: number;
  /** The service's wait for a CPU over the measured stages' intervals, summed (ms). */
  serviceWaitMs?: number;
  /**
   * The share of the measured requests the contention could have delayed (0 to 1): each
   * interval's wait, doubled for the requests queued behind it, over its length, weighted by its
   * requests (runner/result/read/machine_contention.ts).
   */
  share: number;
  /** The interval whose wait was longest: its start and the wait (ms), by the `source` figure. */
  worst?: { startMs: number; waitMs: number };
}

/** The generator's view of itself: could it hold the schedule? */
export interface ToolHealth {
  /**
   * actual write − intended send time, for requests that found a connection free, less the time
   * spent opening it (`connectTime`): the generator's own lateness. The schedule's requests (a
   * journey's first step included); a journey's later steps are in `stepLag`.
   */
  sendLag: EncodedHistogram;
  /**
   * For a journey's later steps: actual write − due time (the previous step's completion plus
   * think), for steps that found a connection free, less the time spent opening it. Present when
   * the plan has journeys (absent in results before it). A step's response time runs from its
   * due time, so this lag is in it.
   */
  stepLag?: EncodedHistogram;
  /**
   * When the dispatcher took each request from the schedule − its intended time, for every
   * request: the generator's own lateness even when connections are busy (a saturated engine
   * shows here, not only in `sendLag`).
   */
  dispatchLag: EncodedHistogram;
  /**
   * actual write − intended send time, for requests that waited for a busy connection (less the
   * time spent opening it): caused by the server's pace and `max_connections`, and part of the
   * response time, not a tool limit.
   */
  queueWait: EncodedHistogram;
  /**
   * How long requests waited for their connection to open (a reconnect after the server closed
   * it: TCP connect and TLS handshake), after the warmup: the server's time, part of the response
   * time and never in `sendLag` or `queueWait`. Absent in results before it.
   */
  connectTime?: EncodedHistogram;
  /**
   * Sockets opened over the run (reconnects after the server closed or reset one included: many
   * more than `peak` means the server keeps dropping connections), and the most in use at once.
   */
  connections: { opened: number; peak: number };
  /**
   * Whether the engine's timer slack could be set to 1 ns (needs --allow-ffi): the timing
   * worker's on Deno's I/O path, the engine thread's on the native one.
   */
  timerSlackSet: boolean;
  /**
   * The engine's I/O path: `native` (libc sockets on an epoll loop), `deno` (Deno's sockets and
   * the timing worker), `mixed` for merged shards that differed. Absent in results before it.
   */
  io?: "native" | "deno" | "mixed";
  /**
   * HTTP/2 runs: the streams each connection carried at most (the plan's `max_streams`, else the
   * server's SETTINGS_MAX_CONCURRENT_STREAMS capped at {@linkcode SERVER_STREAMS_CAP}, never more
   * than the server allows), the server's limit as its first SETTINGS gave it (absent when it set
   * none), and the flow-control window offered each stream and the connection (octets).
   */
  http2?: { streamsPerConnection: number; serverMaxStreams?: number; windowBytes: number };
  /**
   * The engine thread's own stalls: from a wake being signalled to the engine loop running again,
   * after the warmup. Stalls over 1 ms are back-filled once per further millisecond (jHiccup), so
   * a long stall weighs by the time it covered. With `platformHiccup`, the run's measured floor.
   */
  engineStall: EncodedHistogram;
  /**
   * The platform's hiccups: how much longer than 1 ms a probe thread that only sleeps 1 ms at a
   * time slept, after the warmup (jHiccup's measure; same back-fill). What the OS, the VM and
   * other processes did to any thread of the run.
   */
  platformHiccup: EncodedHistogram;
  /** Results written before the floor histograms existed: the event loop's lateness sampled every 50 ms. */
  eventLoopLag?: EncodedHistogram;
  /**
   * CPU time the generator process used during the run: user and system (ms), and their sum per
   * completed request (us).
   */
  cpu: { userMs: number; systemMs: number; perRequestUs: number };
  /** Requests scheduled per second over the schedule's length (or the time run, if cut short). */
  intendedPerSec: number;
  /** Requests written per second within the schedule's window (not the drain after it). */
  achievedPerSec: number;
  /**
   * The machine's CPU contention over the run (what the service waited for, the hypervisor's
   * steal); absent where it was not measured (other systems, results before it).
   */
  contention?: RunContention;
  /** True when the numbers describe the tool's limits rather than the server. */
  toolLimited: boolean;
  /** In words a user understands, with the figures that show it. */
  reasons: string[];
}

/**
 * The outcome of one gate: `pass` and `fail` when the evidence decides, `inconclusive` when it
 * cannot (the verdict says why and what would decide it), `invalid` when the gate cannot be
 * judged at all. Results before format version 3 said `insufficient`; readers map it to
 * `inconclusive`.
 */
export type VerdictStatus = "pass" | "fail" | "inconclusive" | "invalid";

/**
 * The run's overall verdict, computed once by the gates (runner/gates/run_verdict.ts) and stored:
 * the exit code, every report and the GitHub Action read it.
 */
export interface RunVerdict {
  /**
   * `invalid` for a run that stopped early; `fail` when the target stopped answering; else the
   * worst gate: `fail`, then `invalid`, then `inconclusive`; `pass` when every gate passed.
   */
  status: VerdictStatus;
  /** Verdicts by status. */
  tally: Record<VerdictStatus, number>;
  /** The tally in words: `3 gates: 1 fail, 2 pass`, or `no gates`. */
  summary: string;
  /** Why the run is invalid or failed whatever its gates say (stopped early, target lost). */
  reason?: string;
  /**
   * Set when the status is `inconclusive` and every undecided gate is a regression check (none
   * an SLO): by default such a run is a warning and exits 0 (`--fail-on`, docs/gates.md).
   */
  regressionOnly?: true;
  /**
   * Set when the status is `inconclusive` and every undecided gate is undecided for the runner's
   * sake, none for want of requests: a regression check, or an SLO whose causes are all the
   * machine's contention, the generator's lateness or schedule (docs/gates.md). By default such a
   * run is a warning and exits 0 (`--fail-on inconclusive-sampling`).
   */
  runnerOnly?: true;
  /**
   * Set when the target stopped answering during the run (only connection failures from some
   * point to the end): the run exits with the target-unreachable code whatever its gates say.
   */
  targetLost?: { sinceMs: number; failedRequests: number };
}

/** One gate's verdict (SLO, regression or validity). */
export interface Verdict {
  /**
   * The gate: an SLO of the plan, the regression gate against the baseline history, or a validity
   * check (e.g. an unreadable baseline).
   */
  kind: "slo" | "regression" | "validity";
  /** What was judged, readable alone: `p99.9 < 10ms at 20k/s [GET /orders]`. */
  name: string;
  /** The gate's outcome. */
  status: VerdictStatus;
  /** The SLO's line in the plan file, for CI annotations. */
  line?: number;
  /** The stages judged, by `index`; empty when the verdict is about no stage. */
  stageIndexes: number[];
  /** The request label judged, when the gate is scoped to one. */
  label?: string;
  /** A regression check's metric: `p50`, `p99.9`, `max`, `mean`, `error_rate`, `throughput`. */
  metric?: string;
  /** Measured value and bound, in the metric's unit (`unit`). */
  measured?: number;
  /** The limit `measured` is judged against, in `unit`: the SLO's bound or the regression limit. */
  bound?: number;
  /**
   * Unit of `measured`, `bound` and `ci95`: `us` microseconds, `fraction` (error rate), `per_sec`
   * (throughput), `us_per_min` (a trend's slope), `count` (stalls).
   */
  unit?: "us" | "fraction" | "per_sec" | "us_per_min" | "count";
  /** Headroom relative to the bound: positive passes, negative fails by that fraction. */
  margin?: number;
  /**
   * 95% confidence interval of the measured value: order statistics for a percentile (failed
   * requests beyond every value), exact binomial for an error rate. Absent when unbounded.
   */
  ci95?: [number, number];
  /** The bound lies inside the confidence interval: the verdict could flip on a rerun. */
  marginal?: boolean;
  /**
   * A latency gate whose figure falls among failed requests (they count as beyond every bound):
   * it has no finite `measured`.
   */
  censored?: boolean;
  /** Failed requests counted as beyond the bound by a latency gate. */
  failures?: number;
  /**
   * What the generator may have added to the measured latency at this figure (us): its late
   * sends plus its measured floor. A fail must hold even with this much taken off.
   */
  generatorAllowance?: number;
  /**
   * Why an inconclusive verdict could not be decided (the message says it in words): `sampling`,
   * too few requests for the figure (a longer run decides); `generator`, its own delays could
   * explain the excess; `schedule`, it fell behind its schedule; `contention`, the machine kept
   * the service from a CPU while the excess was measured; `history`, a regression check whose
   * stored runs are too few or too scattered to bound the next one; `base` (an A/B comparison's
   * SLO), the base build fails it too.
   */
  causes?: Array<"sampling" | "generator" | "schedule" | "contention" | "history" | "base">;
  /**
   * Regression verdicts: two-sample Kolmogorov–Smirnov distance between this run's and the
   * baseline's response times (an effect size: a change of shape shows even when percentiles hold).
   */
  ksDistance?: number;
  /**
   * A windowed SLO (`over 10s`): its windows' tally, and the windows that failed or could not be
   * decided. `measured`, `ci95` and `margin` are then the worst window's.
   */
  windows?: WindowTally;
  /**
   * True for a gate the plan did not write: the implicit `error_rate <= 1%` of a plan without an
   * `error_rate` SLO whose run had more than 1% failed requests (docs/gates.md).
   */
  implicit?: boolean;
  /** One sentence for people: the outcome and the figures behind it. */
  message: string;
}

/** How a windowed SLO's windows fared (docs/gates.md, "Windowed SLOs"). */
export interface WindowTally {
  /** Length of each window, in milliseconds (whole seconds). */
  windowMs: number;
  /** Windows judged: every run of whole 1 s intervals of that length, stepping by 1 s. */
  judged: number;
  /** Windows that failed beyond doubt after Holm's correction over all of them. */
  failed: number;
  /** Windows neither failed nor passed, `tooFew` of them for want of requests. */
  undecided: number;
  /** Windows holding too few requests for the figure to pass at all (named, never passed). */
  tooFew: number;
  /** The failed and undecided windows in time order (the first 200). */
  findings: WindowFinding[];
}

/** One window that failed or could not be decided. */
export interface WindowFinding {
  /** Offset of the window's start from the run's start. */
  startMs: number;
  /** The window's length (its last interval may end with the schedule). */
  durationMs: number;
  /** The stage the window starts in, by `index`. */
  stageIndex: number;
  /** `fail` (beyond doubt, after Holm's correction) or `inconclusive`. */
  status: "fail" | "inconclusive";
  /** The window's figure in the verdict's unit; absent when failed requests decide it. */
  measured?: number;
  /** Requests the window judged. */
  requests: number;
  /** Set when the window held too few requests for its figure to pass at all. */
  tooFew?: true;
}

/** Where and with what the run happened; numbers from different fingerprints do not compare. */
export interface Environment {
  /** Version of tailgate that ran. */
  tailgateVersion: string;
  /** Version of Deno it ran on. */
  denoVersion: string;
  /** Version of V8 in that Deno. */
  v8Version: string;
  /** Operating system (`Deno.build.os`, e.g. `linux`). */
  os: string;
  /** CPU architecture (`Deno.build.arch`, e.g. `x86_64`). */
  arch: string;
  /** CPU model name (from /proc/cpuinfo), or `unknown` when it cannot be read. */
  cpuModel: string;
  /** Logical CPU cores (`navigator.hardwareConcurrency`). */
  cores: number;
  /**
   * The commit measured, when known: `--commit`, else `GITHUB_SHA`, else `CI_COMMIT_SHA`, else
   * git's HEAD in the plan's folder (7 to 40 lowercase hex digits).
   */
  gitSha?: string;
  /**
   * The branch it ran on, when known: `--branch`, else `GITHUB_HEAD_REF` (a pull request),
   * `GITHUB_REF_NAME`, `CI_COMMIT_REF_NAME`, else git's branch in the plan's folder.
   */
  gitBranch?: string;
  /** Name of the CI system, when running under one. */
  ci?: string;
}

/** A plan header as stored: secret values are replaced by their template (`${env.TOKEN}`). */
export interface HeaderRecord {
  /** Header field name. */
  name: string;
  /** The value sent, or for a secret header its template. */
  value: string;
  /** True when the value reads an environment variable (`${env.NAME}`): the template is kept. */
  secret: boolean;
}

/** The plan as stored in a result: everything but secret values. */
export interface PlanRecord {
  /** Name of the plan; results and baselines are filed under it. */
  name: string;
  /** The plan's description, when it has one. */
  description?: string;
  /** The plan file as the user named it. */
  file: string;
  /** Base URL of the target, when the plan names one. */
  target?: string;
  /**
   * The request mix as resolved: absolute URLs, headers with the defaults applied, weights,
   * timeouts (ms) and expected statuses.
   */
  requests: Array<{
    label: string;
    method: string;
    url: string;
    headers: HeaderRecord[];
    body?: { kind: "text" | "json" | "grpc"; text: string } | {
      kind: "file";
      path: string;
      sizeBytes: number;
    };
    weight: number;
    timeoutMs: number;
    /** Accepted statuses; a gRPC request's as they travel, 1000 + code (grpc_status.ts). */
    expect: { codes: number[]; classes: number[] };
    /**
     * A gRPC request's call (`helloworld.Greeter/SayHello`), its deadline (ms) when it has one,
     * and `serverStreaming` for a server-streaming method; absent for HTTP.
     */
    grpc?: { call: string; deadlineMs?: number; serverStreaming?: true };
  }>;
  /**
   * The journeys of the mix, when the plan has any (absent in results before them): each its
   * name, weight and steps, a step as a request is stored (without a weight) with its think time
   * (ms) when it has one.
   */
  journeys?: Array<{
    name: string;
    weight: number;
    steps: Array<
      Omit<PlanRecord["requests"][number], "weight"> & { think?: { minMs: number; maxMs: number } }
    >;
  }>;
  /**
   * The load profile as resolved; each stage has `fromPerSec` and `toPerSec` (equal for a constant
   * stage) and its line in the plan file.
   */
  load: {
    connections: number;
    maxConnections: number;
    arrival: "constant" | "poisson";
    /**
     * The seed the run drew its values and poisson gaps from: the plan's `load.seed` (or
     * `--seed`), or, with `seedPerRun`, the run's own.
     */
    seed: number;
    /**
     * True when the plan fixed no seed, so this run drew its own (absent: the plan or `--seed`
     * fixed it). In search.json and ab.json, which hold no single run, `seed` is then 1 and each
     * run's own result names its seed (search.json's steps each name theirs too).
     */
    seedPerRun?: boolean;
    workers: number | "auto";
    stages: Array<{
      index: number;
      name: string;
      kind: "constant" | "ramp";
      fromPerSec: number;
      toPerSec: number;
      durationMs: number;
      warmup: boolean;
      line: number;
    }>;
  };
  /** The SLO lines as written, with their lines in the plan file. */
  slos: Array<{ text: string; line: number }>;
  /**
   * True when the plan says `allow_errors: true`: no implicit error gate is judged (absent means
   * false; docs/gates.md).
   */
  allowErrors?: boolean;
  /**
   * Set when every request carried a W3C `traceparent` (the plan's `trace`, or `--trace`), with
   * the `tracestate` it carried too, if any.
   */
  trace?: { tracestate?: string };
  /** Regression gate floors by metric, when the plan sets them. */
  regression?: Record<string, number>;
  /**
   * The command-line overrides of the plan's load, when the run had any (`--rate-scale 0.25`):
   * the stages above are as overridden, and the baseline history is kept apart from the plan's.
   */
  overrides?: string[];
}

/**
 * The baseline a run was compared with: the newest run of the plan's stored history, kept in the
 * result so reports can overlay it and show deltas without reading the baseline store.
 */
export interface BaselineReference {
  /** Where the history was read from (a file path). */
  source: string;
  /** Runs in the history; the regression gate judges against all of them. */
  runs: number;
  /** ISO 8601 start of the newest stored run. */
  date: string;
  /** Commit of the newest stored run, when it was recorded in a repository. */
  gitSha?: string;
  /** The newest stored run's stages, matched to this run's stages by `index`. */
  stages: Array<{ index: number; name: string; warmup: boolean } & LatencyPair>;
}

/**
 * A templated plan's traffic: each data source with how many requests drew from it, each var, and
 * whether the renderer kept ahead of the schedule. Values are never stored, only where they come
 * from.
 */
export interface TrafficRecord {
  /** Each data source, in the plan's order. */
  sources: Array<{
    name: string;
    /** The file as the plan names it. */
    file: string;
    format: "csv" | "jsonl";
    columns: string[];
    rows: number;
    order: "sequence" | "random" | "shuffle";
    exhausted: "wrap" | "error";
    /** Requests of this result that drew a row from the source. */
    draws: number;
    /** Distinct rows those draws took (sequence and shuffle; absent for random draws). */
    rowsUsed?: number;
    /** True when the draws went past the last row and started again (sequence and shuffle). */
    wrapped: boolean;
  }>;
  /** Each var and what it draws (`uuid`, `int [1, 20]`). */
  vars: Array<{ name: string; spec: string }>;
  /** Requests rendered when due instead of ahead of the schedule (the renderer fell behind). */
  lateRenders: number;
}

/**
 * One setup or teardown step as it was sent: not measured, never in the histograms. Captured
 * values are never stored, only their names and where they came from.
 */
export interface StepRecord {
  /** The list the step belongs to. */
  section: "setup" | "teardown";
  /** The step's name (`POST /login` unless the plan names it). */
  name: string;
  /** The HTTP method. */
  method: string;
  /** The URL as written in the plan (templates and `${env.NAME}` unresolved). */
  url: string;
  /** The response's status, when there was a response. */
  status?: number;
  /** From the send to the end of the response body, in milliseconds. */
  durationMs: number;
  /** True when the status was expected and every capture was found. */
  ok: boolean;
  /** What went wrong, when it did (never a secret). */
  problem?: string;
  /** Each capture's name and where it came from (`json /access_token`, `header set-cookie`). */
  captures: Array<{ name: string; from: string }>;
}

/**
 * What stopped a run under fail-fast (`--fail-fast`, plan key `fail_fast`): the SLO whose failure
 * became certain, as the plan writes it, and the figures that made it certain.
 */
export interface FailFastStop {
  /** The SLO as written in the plan (its `text`). */
  slo: string;
  /** The SLO's line in the plan file. */
  line: number;
  /** Why its failure is certain, in words with the figures. */
  reason: string;
  /** Offset from the run's start at which the run was stopped, in milliseconds. */
  atMs: number;
  /** Set on a merged result: the shard that stopped. */
  shard?: { index: number; count: number };
}

/** How many bytes of an unexpected status's body a result keeps (`UnexpectedBody.body`). */
export const UNEXPECTED_BODY_BYTES = 512;

/** The most unexpected bodies a result keeps (labels × codes), the first answered. */
export const MAX_UNEXPECTED_BODIES = 100;

/**
 * The first answer of a request label with a status code its `expect` does not take: its body's
 * first bytes (512 at most) as text, every secret of the plan (`${env.X}` values, values setup
 * captured) replaced by `***`. One per label and code, at most 100 per result.
 */
export interface UnexpectedBody {
  /** The request label that got it. */
  label: string;
  /** Its status: HTTP's, or a gRPC call's as it travels, 1000 + code (runner/model/grpc_status.ts). */
  status: number;
  /** When it was answered: ms from the run's start. */
  atMs: number;
  /** The body's first bytes as UTF-8 text (invalid bytes as U+FFFD), secrets blotted out. */
  body: string;
  /** The whole body's length in bytes, as received. */
  bodyBytes: number;
  /** Set when the body went on beyond what `body` holds. */
  cut?: true;
}

/** The whole result document. */
export interface RunResult {
  /** Always `tailgate/result`. */
  schema: typeof RESULT_SCHEMA;
  /** Format version the document was written in ({@linkcode RESULT_VERSION} for this build). */
  version: number;
  /** When the run happened, how long it took, and whether it ran to the end. */
  run: {
    /**
     * The run's id, the `run_id` of its exported metrics: `TAILGATE_RUN_ID`, else the CI's run
     * (`GITHUB_RUN_ID-GITHUB_RUN_ATTEMPT`), else drawn at random; shards of one CI run share it.
     * Absent in results written before it.
     */
    id?: string;
    /** ISO 8601 wall-clock times. */
    startedAt: string;
    endedAt: string;
    durationMs: number;
    /** False when the run was stopped early (Ctrl-C, crash, fail-fast): the data is what was measured. */
    complete: boolean;
    /** Why the run ended: `fail_fast` when an SLO's failure was certain (`stoppedBy` says which). */
    stopReason: "completed" | "interrupted" | "error" | "fail_fast";
    /** Set when fail-fast stopped the run: the SLO certain to fail, and why. */
    stoppedBy?: FailFastStop;
    /** Set on one shard's result (`tailgate run --shard I/N`): its share of the plan. */
    shard?: { index: number; count: number };
    /** Set on a merged result (`tailgate merge`): how many shard results it combines. */
    mergedShards?: number;
    /**
     * Set when the command that ran the plan takes none of its settings (`tailgate demo`): the
     * command that runs it with them (`tailgate run plans/demo.yaml`), which advice names instead
     * of options the command in use lacks (runner/result/read/advice_scope.ts).
     */
    rerunWith?: string;
    /**
     * The HTTP the run spoke, from the plan's `load.http` and its target's scheme. Absent in
     * results written before it: those spoke HTTP/1.1 (runner/result/read/run_protocol.ts).
     */
    protocol?: RunProtocol;
    /**
     * Set when the run's requests were gRPC calls (the plan's `grpc:`), over the HTTP/2 that
     * `protocol` names (h2c for `grpc://`, h2 for `grpcs://`); absent for HTTP.
     */
    grpc?: true;
    /**
     * HTTP/2 only: the plan's `load.max_streams`, the most concurrent streams per connection;
     * absent: what the server's SETTINGS allow, at most {@linkcode SERVER_STREAMS_CAP}.
     */
    maxStreams?: number;
  };
  /** The plan that ran, secret header values replaced by their templates. */
  plan: PlanRecord;
  /** The fingerprint of the machine and build the run happened on. */
  environment: Environment;
  /** How every `hdr` field in the document is encoded. */
  histograms: HistogramEncoding;
  /** The whole run (warmup included): stages merged exactly. */
  totals: { counts: RequestCounts } & LatencyPair;
  /** One per plan stage, in order. */
  stages: StageResult[];
  /** Time-domain data, one per interval (1 s by default) of the run, in order. */
  intervals: IntervalResult[];
  /** The generator's view of itself: could it hold the schedule? */
  health: ToolHealth;
  /** Set for a plan with `data` or `vars`: where the requests' values came from. */
  traffic?: TrafficRecord;
  /** Set for a plan with `setup` or `teardown`: each step as it was sent, in order. */
  steps?: StepRecord[];
  /**
   * The first body of each status a request label did not expect, per label and code, in the
   * plan's label order then by code; absent when every status was expected (or the result
   * predates them).
   */
  unexpectedBodies?: UnexpectedBody[];
  /** One verdict per gate (SLOs, regression checks, validity); empty until the run is judged. */
  verdicts: Verdict[];
  /**
   * The overall verdict, set when the run is judged (format version 2), and only read afterwards
   * (runner/result/read/stored_verdict.ts); a version 1 result has none until `tailgate report`
   * judges it on reading it.
   */
  verdict?: RunVerdict;
  /** The baseline the regression gate compared with, when there was one. */
  baseline?: BaselineReference;
  /** Things every report must show, e.g. a baseline from a machine with another fingerprint. */
  warnings?: string[];
}
