/**
 * Records what the engine measured: corrected response time (completion − intended send time),
 * service time (completion − actual write) and time to first byte (the response's first byte −
 * intended send time), per stage, per request label and per interval of intended send time, with
 * request counts. No per-request storage: an interval's histograms are encoded as soon as every
 * request scheduled in it has completed, and their memory is reused; a stage's are kept as counts
 * and non-empty buckets once the schedule has passed it and its requests have completed. So a
 * label's three histograms (188 KB each, 564 KB a label; the ttfb one, taken at the label's first
 * answer, added 188 KB) exist only in the stages and seconds still open that it had requests in:
 * memory grows with labels, not labels x stages. An idle label is reported with empty counts and
 * the empty histogram; a label with no first byte in a stage or second has no `ttfb` there.
 *
 * A response 429, or 503 with a `Retry-After` it could read, that its label does not expect is
 * `rate_limited` (not `unexpected_status`), its `Retry-After` seconds counted in the counts'
 * `retryAfterS`.
 *
 * A status is counted by its key (runner/model/grpc_status.ts): an HTTP status by its number
 * (`"503"`), a gRPC call's by its name (`"UNAVAILABLE"`); a gRPC status is never `rate_limited`.
 * A gRPC call's response messages are added into the counts' `messages` when it succeeded.
 *
 * @module
 */
import type { Completion, RecordSink } from "../engine/mod.ts";
import type { StatusExpectation } from "../plan/mod.ts";
import { statusExpected } from "../plan/runtime/mod.ts";
import type {
  EncodedHistogram,
  ErrorKind,
  IntervalResult,
  LabelResult,
  RequestCounts,
  StageResult,
} from "../model/mod.ts";
import { type StageWindow, stageWindowAt } from "../schedule/mod.ts";
import { createHistogram, type Histogram } from "../hdr/mod.ts";
import { msToRecordableUs, toEncodedHistogram } from "../hdr/mod.ts";
import { InlineIntervalStore, type IntervalStore } from "./interval_store.ts";
import { encodeRawLabels, type RawInterval, type RawLabel } from "./raw_interval.ts";
import { emptyCounts, isGrpcStatus, statusKey } from "../model/mod.ts";
import { type LiveTally, TALLY_FIELDS } from "./live_tally.ts";
import { EMPTY_SPARSE } from "./empty_histogram.ts";
import { type CheckName, CheckTally } from "./check_tally.ts";
import { type JourneyShape, JourneyTally } from "./journey_tally.ts";
import type { JourneyEnd, JourneySink } from "../engine/mod.ts";
import { applyTails, type LabelTail, SlowestTally } from "./slowest_tally.ts";

/**
 * The engine-stall probe's sampling period (us): a stall longer than this is also recorded once
 * for every further period it lasted (jHiccup's correction), so the histogram weighs a long stall
 * by the time it covered, not as one sample.
 */
export const STALL_SAMPLE_PERIOD_US = 1000;

/** Histograms and counts of one group of requests. */
interface Group {
  response: Histogram;
  service: Histogram;
  /** Taken from the pool at the group's first first-byte time (none without one). */
  ttfb: Histogram | undefined;
  counts: RequestCounts;
}

/** Groups by label index, created when a label has its first request (undefined until then). */
type Groups = (Group | undefined)[];

interface OpenInterval {
  index: number;
  groups: Groups;
  outstanding: number;
}

/** What the recorder hands on when the run ends. */
export interface RecordedRun {
  stages: StageResult[];
  intervals: IntervalResult[];
  sendLag: EncodedHistogram;
  /** When the dispatcher took each request from the schedule − its intended time (all requests). */
  dispatchLag: EncodedHistogram;
  queueWait: EncodedHistogram;
  /** Journeys' later steps' send lag (write − due time, free connection): with journeys only. */
  stepLag?: EncodedHistogram;
  /** How long requests waited for their connection to open (reconnects), warmup stages left out. */
  connectTime: EncodedHistogram;
  /**
   * How long the engine thread took to run work that was due: from a wake being signalled (the
   * timing worker's fire, or a deadline already past) to the engine loop running again.
   */
  engineStall: EncodedHistogram;
  /**
   * The platform-hiccup probe's oversleeps (engine/timing/hiccup_worker.ts): what the machine did to a
   * thread that only sleeps 1 ms at a time. Empty when the run had no probe (tests).
   */
  platformHiccup: EncodedHistogram;
  /**
   * Per stage and label, its slowest requests and exemplar candidates (slowest_tally.ts), so
   * several recorders' merge exactly; the stages' labels carry what the result keeps of them.
   */
  tails?: LabelTail[][];
}

/** One completed request (defined by the engine, which writes it). */
export type { Completion };

/**
 * The run's recorder.
 */
export class Recorder implements RecordSink, JourneySink {
  readonly #stages: readonly StageWindow[];
  readonly #labels: readonly string[];
  readonly #expects: readonly StatusExpectation[];
  readonly #intervalMs: number;
  readonly #stageGroups: Groups[];
  /** A stage's labels once it is over: the schedule passed it and its requests completed. */
  readonly #sealedStages: (RawLabel[] | undefined)[];
  /** Requests of each stage scheduled and not yet completed. */
  readonly #stageOutstanding: number[];
  readonly #open = new Map<number, OpenInterval>();
  readonly #store: IntervalStore;
  /** Indexes of the intervals closed so far. */
  readonly #closedIndexes = new Set<number>();
  readonly #pool: Histogram[] = [];
  readonly #sentByInterval: number[] = [];
  readonly #completedByInterval: number[] = [];
  readonly #sendLag = createHistogram();
  readonly #dispatchLag = createHistogram();
  readonly #queueWait = createHistogram();
  readonly #connectTime = createHistogram();
  readonly #engineStall = createHistogram();
  readonly #warmup: boolean[];
  /** The longest dispatch lag (ms) since the last tally. */
  #lagSinceTallyMs = 0;
  /** Journeys' later steps' send lag, when the plan has journeys. */
  #stepLag: Histogram | undefined;
  /** The plan's journeys' figures, when it has journeys ({@linkcode withJourneys}). */
  #journeys: JourneyTally | undefined;
  /** Completed requests and errors so far, and the latest closed interval's p99, for progress. */
  completed = 0;
  errors = 0;
  /** Per stage, label and check: evaluations and failures, once {@linkcode countChecks} ran. */
  #checks: CheckTally | undefined;
  /** Per stage × label (stage · labels + label): its slowest and exemplars, from its first request. */
  readonly #tails: (SlowestTally | undefined)[];
  /** The seed of the run's `traceparent` ids, when it sent them ({@linkcode traced}). */
  #traceSeed: number | undefined;

  constructor(
    stages: readonly StageWindow[],
    labels: readonly string[],
    expects: readonly StatusExpectation[],
    intervalMs = 1000,
    store: IntervalStore = new InlineIntervalStore(),
  ) {
    this.#store = store;
    this.#stages = stages;
    this.#labels = labels;
    this.#expects = expects;
    this.#intervalMs = intervalMs;
    this.#stageGroups = stages.map(() => new Array(labels.length));
    this.#sealedStages = stages.map(() => undefined);
    this.#stageOutstanding = stages.map(() => 0);
    this.#warmup = stages.map((s) => s.warmup);
    this.#tails = new Array(stages.length * labels.length);
  }

  /** The run sent `traceparent` ids drawn from `seed`: its kept requests name their trace ids. */
  traced(seed: number): this {
    this.#traceSeed = seed;
    return this;
  }

  /**
   * Counts the checks of the labels that have some (by label index): a completion carrying
   * `checkFailed` is then counted per check, and each stage's labels report their `checks`.
   */
  countChecks(names: readonly (readonly CheckName[] | undefined)[]): void {
    if (names.some((n) => n?.length)) this.#checks = new CheckTally(this.#stages.length, names);
  }

  /** Records the journeys of a plan with them (their steps among `labels`). */
  withJourneys(shapes: readonly JourneyShape[]): this {
    if (shapes.length) {
      this.#journeys = new JourneyTally(this.#stages.length, shapes, this.#labels);
      this.#stepLag = createHistogram();
    }
    return this;
  }

  journeyEnded(
    stageIndex: number,
    journey: number,
    end: JourneyEnd,
    journeyMs: number,
    thinkMs: number,
  ): void {
    this.#journeys?.ended(stageIndex, journey, end, journeyMs, thinkMs);
  }

  stepSkipped(stageIndex: number, labelIndex: number): void {
    this.#journeys?.skipped(stageIndex, labelIndex);
  }

  /** Undoes {@linkcode scheduled} for a journey's step that will not be sent (a stop). */
  withdrawn(fireMs: number, stageIndex: number, labelIndex: number): void {
    const interval = this.#interval(Math.floor(fireMs / this.#intervalMs));
    interval.outstanding--;
    this.#stageOutstanding[stageIndex]--;
    this.#group(interval.groups, labelIndex).counts.scheduled--;
    this.#group(this.#stageGroups[stageIndex], labelIndex).counts.scheduled--;
  }

  /**
   * A request left the schedule (it is due); call once per request, in fire-time order. A
   * journey's later step is scheduled when it is made (its due time is never in the past), so
   * the interval it will be recorded in stays open until it completes.
   */
  scheduled(fireMs: number, stageIndex: number, labelIndex: number): void {
    const interval = this.#interval(Math.floor(fireMs / this.#intervalMs));
    interval.outstanding++;
    this.#stageOutstanding[stageIndex]++;
    this.#group(interval.groups, labelIndex).counts.scheduled++;
    this.#group(this.#stageGroups[stageIndex], labelIndex).counts.scheduled++;
  }

  /**
   * Records a send lag (write − intended) for a request that found a free connection. Warmup
   * stages are left out: they exist to let compilation and connection setup settle.
   */
  sendLag(lagMs: number, stageIndex: number): void {
    if (!this.#warmup[stageIndex]) this.#sendLag.recordValue(msToRecordableUs(lagMs));
  }

  /**
   * Records how late the dispatcher took a request from the schedule, whether or not a connection
   * was free: the generator's own lateness, which a saturated engine cannot hide behind a queue.
   */
  dispatchLag(lagMs: number, stageIndex: number): void {
    if (lagMs > this.#lagSinceTallyMs) this.#lagSinceTallyMs = lagMs;
    if (!this.#warmup[stageIndex]) this.#dispatchLag.recordValue(msToRecordableUs(lagMs));
  }

  /**
   * Records a journey's later step's send lag (write − due time) on a free connection, warmup
   * stages left out: apart from {@linkcode sendLag}, which holds the schedule's requests.
   */
  stepLag(lagMs: number, stageIndex: number): void {
    if (!this.#warmup[stageIndex]) this.#stepLag?.recordValue(msToRecordableUs(lagMs));
  }

  /** Records a wait for a busy connection (write − intended), warmup stages left out. */
  queueWait(waitMs: number, stageIndex: number): void {
    if (!this.#warmup[stageIndex]) this.#queueWait.recordValue(msToRecordableUs(waitMs));
  }

  /** Records a wait for a connection to open, warmup stages left out. */
  connectTime(connectMs: number, stageIndex: number): void {
    if (!this.#warmup[stageIndex]) this.#connectTime.recordValue(msToRecordableUs(connectMs));
  }

  /**
   * Records how long the engine thread took to resume after a wake was signalled, with
   * {@linkcode STALL_SAMPLE_PERIOD_US} back-fill for long stalls.
   */
  engineStall(stallMs: number): void {
    const us = msToRecordableUs(stallMs);
    const h = this.#engineStall;
    h.recordValue(us);
    for (
      let missing = us - STALL_SAMPLE_PERIOD_US;
      missing > 0;
      missing -= STALL_SAMPLE_PERIOD_US
    ) {
      h.recordValue(missing);
    }
  }

  /** Records a completed request (answered, failed or timed out; never-sent ones too). */
  complete(c: Completion): void {
    const index = Math.floor(c.fireMs / this.#intervalMs);
    const interval = this.#interval(index);
    interval.outstanding--;
    this.#stageOutstanding[c.stageIndex]--;
    const sent = !Number.isNaN(c.writtenMs);
    const error: ErrorKind | undefined = c.error ??
      (c.status !== 0 && !this.#expected(c.labelIndex, c.status)
        ? statusErrorKind(c.status, c.retryAfterS)
        : undefined);
    const responseUs = msToRecordableUs(c.completedMs - c.fireMs);
    const serviceUs = sent ? msToRecordableUs(c.completedMs - c.writtenMs) : -1;
    const firstByteMs = c.firstByteMs ?? NaN;
    const ttfbUs = firstByteMs === firstByteMs ? msToRecordableUs(firstByteMs - c.fireMs) : -1;
    // The interval's group and the stage's: recorded into both, no array per request.
    const label = c.labelIndex;
    const inInterval = this.#group(interval.groups, label);
    const inStage = this.#group(this.#stageGroups[c.stageIndex], label);
    // Like the response time, only an answered request's first byte is a latency.
    if (ttfbUs >= 0 && error === undefined) {
      (inInterval.ttfb ??= this.#take()).recordValue(ttfbUs);
      (inStage.ttfb ??= this.#take()).recordValue(ttfbUs);
    }
    record(inInterval, c, responseUs, serviceUs, sent, error);
    record(inStage, c, responseUs, serviceUs, sent, error);
    const tailAt = c.stageIndex * this.#labels.length + label;
    (this.#tails[tailAt] ??= new SlowestTally()).add(
      c.n ?? 0,
      c.step ?? 0,
      c.fireMs,
      responseUs,
      c.status,
      error,
      sent,
    );
    if (c.checkFailed !== undefined) this.#checks?.add(c.stageIndex, label, c.checkFailed);
    this.completed++;
    if (error !== undefined) this.errors++;
    if (sent) bump(this.#sentByInterval, Math.floor(c.writtenMs / this.#intervalMs));
    bump(this.#completedByInterval, Math.floor(c.completedMs / this.#intervalMs));
  }

  /**
   * Encodes and releases every interval that ends at or before `scheduledUpToMs` (all its
   * requests have left the schedule) and has no request outstanding; keeps every such stage as
   * counts and buckets and releases its histograms.
   */
  closeIntervals(scheduledUpToMs: number): void {
    for (const [index, interval] of this.#open) {
      if ((index + 1) * this.#intervalMs <= scheduledUpToMs && interval.outstanding === 0) {
        this.#closeInterval(interval);
      }
    }
    this.#stages.forEach((w, i) => {
      const over = w.startMs + w.profile.durationMs <= scheduledUpToMs;
      if (over && this.#stageOutstanding[i] === 0 && this.#sealedStages[i] === undefined) {
        this.#sealedStages[i] = this.#rawLabels(this.#stageGroups[i]);
      }
    });
  }

  /**
   * The counts fail-fast reads (live_tally.ts), taken at offset `atMs`: call it before
   * {@linkcode closeIntervals}, so an interval's final counts are in the tally that closes it.
   */
  tally(atMs: number): LiveTally {
    const width = this.#labels.length * TALLY_FIELDS;
    const stages = new Float64Array(this.#stages.length * width);
    this.#stages.forEach((_, i) => {
      const sealed = this.#sealedStages[i];
      this.#labels.forEach((_, l) =>
        putCounts(
          stages,
          i * width + l * TALLY_FIELDS,
          sealed?.[l].counts ?? this.#stageGroups[i][l]?.counts,
        )
      );
    });
    const intervals = [...this.#open.values()].map((o) => {
      const counts = new Float64Array(width);
      o.groups.forEach((g, l) => putCounts(counts, l * TALLY_FIELDS, g?.counts));
      return { index: o.index, counts };
    });
    const dispatchLagMs = this.#lagSinceTallyMs;
    this.#lagSinceTallyMs = 0;
    return { labelCount: this.#labels.length, stages, intervals, atMs, dispatchLagMs };
  }

  /** The 99th percentile (us) of the most recent encoded interval, for progress lines. */
  latestP99Us(): number | undefined {
    return this.#store.latestP99Us();
  }

  /**
   * Closes everything and returns the recorded run. `runMs` is how long the run lasted;
   * `platformHiccup` is the engine's hiccup probe's histogram, when it ran one.
   */
  finish(runMs: number, platformHiccup?: EncodedHistogram): RecordedRun {
    for (const interval of this.#open.values()) this.#closeInterval(interval);
    const last = Math.max(
      Math.ceil(runMs / this.#intervalMs),
      this.#sentByInterval.length,
      this.#completedByInterval.length,
    );
    // Seconds in which nothing was scheduled (the drain after the schedule) still get an interval.
    for (let i = 0; i < last; i++) {
      if (!this.#closedIndexes.has(i)) this.#closeInterval(this.#interval(i));
    }
    const intervals = this.#store.all().sort((a, b) => a.startMs - b.startMs);
    const stages = this.#stages.map((w, i) => {
      const raw = this.#sealedStages[i] ?? this.#rawLabels(this.#stageGroups[i]);
      return {
        index: w.index,
        name: w.name,
        kind: w.profile.fromPerSec === w.profile.toPerSec ? "constant" as const : "ramp" as const,
        warmup: w.warmup,
        fromPerSec: w.profile.fromPerSec,
        toPerSec: w.profile.toPerSec,
        startMs: w.startMs,
        durationMs: w.profile.durationMs,
        ...this.#withChecks(i, encodeRawLabels(raw)),
        ...(this.#journeys ? { journeys: this.#journeys.results(i) } : {}),
      };
    });
    const empty = new SlowestTally();
    const tails = this.#stages.map((_, i) =>
      this.#labels.map((_, l) =>
        (this.#tails[i * this.#labels.length + l] ?? empty).tail(this.#traceSeed)
      )
    );
    applyTails(stages, tails);
    return {
      stages,
      intervals,
      tails,
      sendLag: toEncodedHistogram(this.#sendLag),
      dispatchLag: toEncodedHistogram(this.#dispatchLag),
      queueWait: toEncodedHistogram(this.#queueWait),
      ...(this.#stepLag ? { stepLag: toEncodedHistogram(this.#stepLag) } : {}),
      connectTime: toEncodedHistogram(this.#connectTime),
      engineStall: toEncodedHistogram(this.#engineStall),
      platformHiccup: platformHiccup ?? toEncodedHistogram(createHistogram()),
    };
  }

  /** A stage's encoded labels, each label with checks given its `checks`. */
  #withChecks<T extends { labels: LabelResult[] }>(stageIndex: number, encoded: T): T {
    const tally = this.#checks;
    if (tally === undefined) return encoded;
    encoded.labels.forEach((l, i) => {
      const checks = tally.of(stageIndex, i);
      if (checks !== undefined) l.checks = checks;
    });
    return encoded;
  }

  /**
   * Hands the interval to the store as counts and non-empty buckets (cheap: the summarising and
   * encoding happen in the store, off this thread in a real run) and reuses its histograms.
   */
  #closeInterval(interval: OpenInterval): void {
    this.#open.delete(interval.index);
    this.#closedIndexes.add(interval.index);
    const startMs = interval.index * this.#intervalMs;
    const end = this.#stages.at(-1)!;
    const runEndMs = end.startMs + end.profile.durationMs;
    const durationMs = Math.max(0, Math.min(this.#intervalMs, runEndMs - startMs)) ||
      this.#intervalMs;
    const seconds = durationMs / 1000;
    const raw: RawInterval = {
      startMs,
      durationMs,
      stageIndex: stageWindowAt(this.#stages, startMs).index,
      sentPerSec: (this.#sentByInterval[interval.index] ?? 0) / seconds,
      completedPerSec: (this.#completedByInterval[interval.index] ?? 0) / seconds,
      labels: this.#rawLabels(interval.groups),
    };
    this.#store.add(raw);
  }

  /**
   * The groups as counts and non-empty buckets (an idle label: none), their histograms released
   * for reuse.
   */
  #rawLabels(groups: Groups): RawLabel[] {
    return this.#labels.map((label, i) => {
      const g = groups[i];
      if (g === undefined) {
        return { label, counts: emptyCounts(), response: EMPTY_SPARSE, service: EMPTY_SPARSE };
      }
      groups[i] = undefined;
      const raw = {
        label,
        counts: g.counts,
        response: g.response.toSparse(),
        service: g.service.toSparse(),
        ...(g.ttfb === undefined ? {} : { ttfb: g.ttfb.toSparse() }),
      };
      this.#release(g);
      return raw;
    });
  }

  #interval(index: number): OpenInterval {
    let interval = this.#open.get(index);
    if (interval === undefined) {
      interval = { index, groups: new Array(this.#labels.length), outstanding: 0 };
      this.#open.set(index, interval);
    }
    return interval;
  }

  #expected(labelIndex: number, status: number): boolean {
    return statusExpected(this.#expects[labelIndex], status);
  }

  /** The label's group, created (histograms from the pool) on its first request. */
  #group(groups: Groups, labelIndex: number): Group {
    return groups[labelIndex] ??= {
      response: this.#take(),
      service: this.#take(),
      ttfb: undefined,
      counts: emptyCounts(),
    };
  }

  #take(): Histogram {
    const h = this.#pool.pop();
    if (h === undefined) return createHistogram();
    h.reset();
    return h;
  }

  #release(g: Group): void {
    this.#pool.push(g.response, g.service);
    if (g.ttfb !== undefined) this.#pool.push(g.ttfb);
  }
}

/**
 * The error kind of an answer its label does not expect: `rate_limited` for an HTTP 429, or a 503
 * with a `Retry-After` (read: a number of seconds); else `unexpected_status` (every gRPC status,
 * which travels as 1000 + code, RESOURCE_EXHAUSTED among them).
 */
function statusErrorKind(status: number, retryAfterS: number | undefined): ErrorKind {
  const rateLimited = status === 429 ||
    (status === 503 && retryAfterS !== undefined && retryAfterS === retryAfterS);
  return rateLimited ? "rate_limited" : "unexpected_status";
}

function record(
  g: Group,
  c: Completion,
  responseUs: number,
  serviceUs: number,
  sent: boolean,
  error: ErrorKind | undefined,
): void {
  // A failed request met no latency bound: it is counted (and gates treat it as beyond every
  // bound), never recorded as a latency, where a fast failure would make the server look better.
  if (error === undefined) {
    g.response.recordValue(responseUs);
    if (serviceUs >= 0) g.service.recordValue(serviceUs);
  } else if (error === "rate_limited") {
    const s = c.retryAfterS;
    if (s !== undefined && s === s) {
      const seen = g.counts.retryAfterS ??= {};
      seen[s] = (seen[s] ?? 0) + 1;
    }
  }
  const counts = g.counts;
  counts.completed++;
  if (sent) counts.sent++;
  counts.bytesSent += c.bytesSent;
  counts.bytesReceived += c.bytesReceived;
  if (c.status !== 0) {
    // An HTTP status is its own key (no string made per request); a gRPC status its name.
    const key = isGrpcStatus(c.status) ? statusKey(c.status) : c.status;
    counts.statusCodes[key] = (counts.statusCodes[key] ?? 0) + 1;
  }
  if (error === undefined) {
    counts.ok++;
    // A stream's messages are a figure of its successful calls, as its latency is.
    if (c.messages) counts.messages = (counts.messages ?? 0) + c.messages;
  } else counts.errors[error] = (counts.errors[error] ?? 0) + 1;
}

function putCounts(into: Float64Array, at: number, counts: RequestCounts | undefined): void {
  if (counts === undefined) return;
  into[at] = counts.scheduled;
  into[at + 1] = counts.ok;
  into[at + 2] = counts.completed - counts.ok;
}

function bump(counts: number[], index: number): void {
  while (counts.length <= index) counts.push(0);
  counts[index]++;
}
