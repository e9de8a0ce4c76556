/**
 * A stage × label's slowest requests and its percentile exemplars, kept as requests complete.
 *
 * **Slowest**: the {@linkcode SLOWEST_KEPT} requests of the longest response time (completion −
 * intended send time), failed ones too (a timeout is a slow request), in one total order: response
 * time down, then n and step up. A typical request costs one comparison, with the current 10th.
 *
 * **Exemplars**: per coarse bucket of response time, the latest request seen there (the highest
 * intended send time, then n and step), answered requests only, as the response histogram records
 * them. A coarse bucket is exact below 32 us and a sixteenth of an octave above (about 4-6% wide:
 * the value's top five significant bits); HdrHistogram's buckets (3 significant digits) nest in
 * them. At the end each high percentile (p90, p99, p99.9, p99.99, as far as the count supports it:
 * 10, 100, 1000, 10000 requests) takes the request kept in the coarse bucket of its value, so the
 * request's response time lies in the same bucket as the percentile.
 *
 * Both are pure functions of the set of requests seen, whatever the order, so several recorders'
 * tails merge exactly ({@linkcode mergeTails}): the top of the union, and per bucket the latest.
 * A tally holds about 1.5 KB (a label's requests fill a few dozen of the 464 buckets), made at a
 * stage × label's first request; nothing is allocated per request.
 *
 * @module
 */
import type {
  EncodedHistogram,
  ErrorKind,
  LabelResult,
  PercentileExemplar,
  SlowRequest,
} from "../model/mod.ts";
import { SLOWEST_KEPT } from "../model/mod.ts";
import { traceIdHex } from "../schedule/mod.ts";

/** One kept request, as plain data (posted from engine workers). */
export interface TailRequest {
  n: number;
  step: number;
  /** Intended send time, ms from the run's start. */
  intendedMs: number;
  responseUs: number;
  status: number;
  error?: ErrorKind;
  /** Its trace id, when the run sent `traceparent` and the request was written. */
  traceId?: string;
}

/** What a stage × label's tally hands on: its slowest, and per coarse bucket its latest. */
export interface LabelTail {
  /** Slowest first, at most {@linkcode SLOWEST_KEPT}. */
  slowest: TailRequest[];
  /** [coarse bucket, the latest answered request in it], by bucket. */
  buckets: [number, TailRequest][];
}

/** The high percentiles an exemplar stands for, each with the count it needs. */
const EXEMPLAR_PERCENTILES: readonly [string, number][] = [
  ["90", 10],
  ["99", 100],
  ["99.9", 1_000],
  ["99.99", 10_000],
];

/** Coarse buckets: 32 exact, then 16 per octave up to 2^32. */
const BUCKETS = 32 + 16 * 27;

/**
 * The coarse bucket of a response time (us, a whole number below 2^32).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { coarseBucket } from "./slowest_tally.ts";
 * assert.equal(coarseBucket(31), 31);
 * assert.equal(coarseBucket(100_000), coarseBucket(101_000));
 * assert.notEqual(coarseBucket(100_000), coarseBucket(110_000));
 * ```
 */
export function coarseBucket(us: number): number {
  const v = us >>> 0;
  if (v < 32) return v;
  const e = 31 - Math.clz32(v);
  return 32 + (e - 5) * 16 + ((v >>> (e - 4)) & 15);
}

/** True when request a goes before b among the slowest. */
function slower(
  aUs: number,
  aN: number,
  aStep: number,
  bUs: number,
  bN: number,
  bStep: number,
): boolean {
  if (aUs !== bUs) return aUs > bUs;
  return aN !== bN ? aN < bN : aStep < bStep;
}

/** The tally of one stage × label. */
export class SlowestTally {
  // The slowest, in typed arrays sorted slowest first: no object per request.
  readonly #us = new Float64Array(SLOWEST_KEPT);
  readonly #n = new Float64Array(SLOWEST_KEPT);
  readonly #step = new Int32Array(SLOWEST_KEPT);
  readonly #fireMs = new Float64Array(SLOWEST_KEPT);
  readonly #status = new Int32Array(SLOWEST_KEPT);
  readonly #error: (ErrorKind | undefined)[] = new Array(SLOWEST_KEPT).fill(undefined);
  readonly #sent = new Uint8Array(SLOWEST_KEPT);
  #count = 0;
  // Per coarse bucket, the latest answered request: its slot in the arrays below (−1: none yet).
  // A label's requests fill a few dozen buckets: the slots grow as they are used.
  readonly #slotOf = new Int16Array(BUCKETS).fill(-1);
  #slots = 0;
  #bucketN = new Float64Array(8);
  #bucketStep = new Int32Array(8);
  #bucketFireMs = new Float64Array(8);
  #bucketUs = new Float64Array(8);
  #bucketStatus = new Int32Array(8);
  #bucketSent = new Uint8Array(8);

  /** Request n's `step` completed: kept if among the slowest, and in its bucket when answered. */
  add(
    n: number,
    step: number,
    fireMs: number,
    responseUs: number,
    status: number,
    error: ErrorKind | undefined,
    sent: boolean,
  ): void {
    if (error === undefined) {
      const b = coarseBucket(responseUs);
      let slot = this.#slotOf[b];
      if (slot < 0) {
        slot = this.#slotOf[b] = this.#newSlot();
        this.#bucketN[slot] = -1;
      }
      const bn = this.#bucketN[slot];
      const bFire = this.#bucketFireMs[slot];
      if (
        bn < 0 || fireMs > bFire ||
        (fireMs === bFire && (n > bn || (n === bn && step > this.#bucketStep[slot])))
      ) {
        this.#bucketN[slot] = n;
        this.#bucketStep[slot] = step;
        this.#bucketFireMs[slot] = fireMs;
        this.#bucketUs[slot] = responseUs;
        this.#bucketStatus[slot] = status;
        this.#bucketSent[slot] = sent ? 1 : 0;
      }
    }
    let i = this.#count;
    const last = SLOWEST_KEPT - 1;
    if (i === SLOWEST_KEPT) {
      // The one comparison of a typical request: is it slower than the current last?
      if (!slower(responseUs, n, step, this.#us[last], this.#n[last], this.#step[last])) return;
      i = last;
    } else this.#count++;
    // Insertion: move the faster ones down one place.
    while (
      i > 0 && slower(responseUs, n, step, this.#us[i - 1], this.#n[i - 1], this.#step[i - 1])
    ) {
      this.#us[i] = this.#us[i - 1];
      this.#n[i] = this.#n[i - 1];
      this.#step[i] = this.#step[i - 1];
      this.#fireMs[i] = this.#fireMs[i - 1];
      this.#status[i] = this.#status[i - 1];
      this.#error[i] = this.#error[i - 1];
      this.#sent[i] = this.#sent[i - 1];
      i--;
    }
    this.#us[i] = responseUs;
    this.#n[i] = n;
    this.#step[i] = step;
    this.#fireMs[i] = fireMs;
    this.#status[i] = status;
    this.#error[i] = error;
    this.#sent[i] = sent ? 1 : 0;
  }

  /** A slot for one more bucket, the arrays doubled when full. */
  #newSlot(): number {
    if (this.#slots === this.#bucketN.length) {
      const grow = <T extends Float64Array | Int32Array | Uint8Array>(
        a: T,
        make: (n: number) => T,
      ) => {
        const more = make(2 * a.length);
        more.set(a);
        return more;
      };
      this.#bucketN = grow(this.#bucketN, (n) => new Float64Array(n));
      this.#bucketStep = grow(this.#bucketStep, (n) => new Int32Array(n));
      this.#bucketFireMs = grow(this.#bucketFireMs, (n) => new Float64Array(n));
      this.#bucketUs = grow(this.#bucketUs, (n) => new Float64Array(n));
      this.#bucketStatus = grow(this.#bucketStatus, (n) => new Int32Array(n));
      this.#bucketSent = grow(this.#bucketSent, (n) => new Uint8Array(n));
    }
    return this.#slots++;
  }

  /**
   * The tally as plain data; `traceSeed`: the run sent `traceparent` with this seed, so each kept
   * request that was written gets its trace id.
   */
  tail(traceSeed: number | undefined): LabelTail {
    const request = (
      n: number,
      step: number,
      fireMs: number,
      us: number,
      status: number,
      error: ErrorKind | undefined,
      sent: number,
    ): TailRequest => ({
      n,
      step,
      intendedMs: fireMs,
      responseUs: us,
      status,
      ...(error === undefined ? {} : { error }),
      ...(traceSeed !== undefined && sent ? { traceId: traceIdHex(traceSeed, n, step) } : {}),
    });
    const slowest: TailRequest[] = [];
    for (let i = 0; i < this.#count; i++) {
      slowest.push(
        request(
          this.#n[i],
          this.#step[i],
          this.#fireMs[i],
          this.#us[i],
          this.#status[i],
          this.#error[i],
          this.#sent[i],
        ),
      );
    }
    const buckets: [number, TailRequest][] = [];
    for (let b = 0; b < BUCKETS; b++) {
      const slot = this.#slotOf[b];
      if (slot < 0) continue;
      buckets.push([
        b,
        request(
          this.#bucketN[slot],
          this.#bucketStep[slot],
          this.#bucketFireMs[slot],
          this.#bucketUs[slot],
          this.#bucketStatus[slot],
          undefined,
          this.#bucketSent[slot],
        ),
      ]);
    }
    return { slowest, buckets };
  }
}

/**
 * Several recorders' tails of the same stage × label merged: the slowest of the union, and per
 * bucket the latest; exactly what one recorder seeing every request would keep.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeTails, SlowestTally } from "./slowest_tally.ts";
 * const a = new SlowestTally(), b = new SlowestTally(), all = new SlowestTally();
 * for (let n = 0; n < 40; n++) {
 *   const us = (n * 7919) % 1000;
 *   (n % 2 ? a : b).add(n, 0, n, us, 200, undefined, true);
 *   all.add(n, 0, n, us, 200, undefined, true);
 * }
 * assert.deepEqual(mergeTails([a.tail(1), b.tail(1)]), all.tail(1));
 * ```
 */
export function mergeTails(tails: readonly LabelTail[]): LabelTail {
  const slowest = tails.flatMap((t) => t.slowest).sort((a, b) =>
    slower(a.responseUs, a.n, a.step, b.responseUs, b.n, b.step) ? -1 : 1
  ).slice(0, SLOWEST_KEPT);
  const latest = new Map<number, TailRequest>();
  for (const t of tails) {
    for (const [b, r] of t.buckets) {
      const kept = latest.get(b);
      if (kept === undefined || later(r, kept)) latest.set(b, r);
    }
  }
  const buckets = [...latest.entries()].sort(([a], [b]) => a - b);
  return { slowest, buckets };
}

function later(a: TailRequest, b: TailRequest): boolean {
  if (a.intendedMs !== b.intendedMs) return a.intendedMs > b.intendedMs;
  return a.n !== b.n ? a.n > b.n : a.step > b.step;
}

/** A kept request as the result writes it (its n and step are the engine's, not the result's). */
function slowRequest(r: TailRequest): SlowRequest {
  return {
    ...(r.traceId === undefined ? {} : { traceId: r.traceId }),
    intendedMs: Math.round(r.intendedMs * 1000) / 1000,
    responseUs: r.responseUs,
    status: r.status,
    ...(r.error === undefined ? {} : { error: r.error }),
  };
}

/**
 * The result's `slowest` and `exemplars` of a stage × label from its tail and its response
 * histogram: each high percentile the count supports takes the request kept in its value's
 * bucket.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { labelTailFields, SlowestTally } from "./slowest_tally.ts";
 * const t = new SlowestTally();
 * for (let n = 0; n < 20; n++) t.add(n, 0, n, 1000 + n, 200, undefined, true);
 * const response = { count: 20, minUs: 1000, maxUs: 1019, meanUs: 1009.5, hdr: "",
 *   percentilesUs: { "50": 1009, "90": 1017, "99": 1019, "99.9": 1019, "99.99": 1019 } };
 * const { slowest, exemplars } = labelTailFields(t.tail(undefined), response);
 * assert.equal(slowest.length, 10);
 * assert.equal(slowest[0].responseUs, 1019);
 * assert.deepEqual(exemplars.map((e) => e.percentile), ["90"]);
 * ```
 */
export function labelTailFields(
  tail: LabelTail,
  response: EncodedHistogram,
): { slowest: SlowRequest[]; exemplars: PercentileExemplar[] } {
  const byBucket = new Map(tail.buckets);
  const exemplars: PercentileExemplar[] = [];
  for (const [percentile, needs] of EXEMPLAR_PERCENTILES) {
    const valueUs = response.percentilesUs[percentile];
    if (response.count < needs || valueUs === undefined) continue;
    const r = byBucket.get(coarseBucket(valueUs));
    if (r !== undefined) exemplars.push({ percentile, ...slowRequest(r) });
  }
  return { slowest: tail.slowest.map(slowRequest), exemplars };
}

/**
 * Writes each stage's labels' `slowest` and `exemplars` from `tails` (per stage, per label), read
 * against the labels' response histograms.
 */
export function applyTails(
  stages: readonly { labels: LabelResult[] }[],
  tails: readonly (readonly LabelTail[])[],
): void {
  stages.forEach((stage, i) =>
    stage.labels.forEach((label, l) => {
      const { slowest, exemplars } = labelTailFields(tails[i][l], label.response);
      label.slowest = slowest;
      label.exemplars = exemplars;
    })
  );
}

/**
 * Results' `slowest` and `exemplars` of the same stage × label merged (`tailgate merge` of shard
 * results, which keep no bucket candidates): the slowest of the union (response time down, then
 * intended time up), exact; each percentile's exemplar chosen among the parts' exemplars and
 * answered slowest requests, the latest in the bucket of the merged `response`'s value, and
 * absent when none of them lies in it. Undefined when no part has them (results written before).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeLabelTails } from "./slowest_tally.ts";
 * const a = { slowest: [{ intendedMs: 5, responseUs: 900, status: 200 }], exemplars: [] };
 * const b = { slowest: [{ intendedMs: 1, responseUs: 950, status: 200 }], exemplars: [] };
 * const response = { count: 2, minUs: 900, maxUs: 950, meanUs: 925, hdr: "", percentilesUs: {} };
 * assert.deepEqual(mergeLabelTails([a, b], response)?.slowest.map((r) => r.responseUs), [950, 900]);
 * ```
 */
export function mergeLabelTails(
  parts: readonly Pick<LabelResult, "slowest" | "exemplars">[],
  response: EncodedHistogram,
): { slowest: SlowRequest[]; exemplars: PercentileExemplar[] } | undefined {
  if (!parts.some((p) => p.slowest !== undefined)) return undefined;
  const slowest = parts.flatMap((p) => p.slowest ?? []).sort((a, b) =>
    b.responseUs - a.responseUs || a.intendedMs - b.intendedMs ||
    (a.traceId ?? "").localeCompare(b.traceId ?? "")
  ).slice(0, SLOWEST_KEPT);
  const candidates = parts.flatMap((p) => [
    ...(p.exemplars ?? []).map(({ percentile: _, ...r }) => r),
    ...(p.slowest ?? []).filter((r) => r.error === undefined),
  ]);
  const exemplars: PercentileExemplar[] = [];
  for (const [percentile, needs] of EXEMPLAR_PERCENTILES) {
    const valueUs = response.percentilesUs[percentile];
    if (response.count < needs || valueUs === undefined) continue;
    const bucket = coarseBucket(valueUs);
    let chosen: SlowRequest | undefined;
    for (const r of candidates) {
      if (coarseBucket(r.responseUs) !== bucket) continue;
      if (chosen === undefined || r.intendedMs > chosen.intendedMs) chosen = r;
    }
    if (chosen !== undefined) exemplars.push({ percentile, ...chosen });
  }
  return { slowest, exemplars };
}
