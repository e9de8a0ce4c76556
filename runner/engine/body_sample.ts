/**
 * The first body of each unexpected status: per request label and status code, the first answer
 * the label's `expect` does not take keeps the first {@linkcode BODY_SAMPLE_BYTES} of its body, so a
 * run of 924 × 401 says why (`{"error":"token expired"}`). An expected status costs one check at
 * the end of its head and nothing per body byte: only a response whose status is unexpected and
 * whose label and code have no sample yet is given a {@linkcode BodyCapture}; the readers (HTTP/1.1
 * on either I/O path, an HTTP/2 stream) copy its body's first bytes into it, and the sampler keeps
 * the first one completed. Bytes as received: secrets are blotted out when the result is built
 * (runner/session's `maskedBody`), never here, on the engine thread.
 *
 * @module
 */
import type { StatusExpectation } from "../plan/mod.ts";
import { MAX_UNEXPECTED_BODIES, UNEXPECTED_BODY_BYTES } from "../model/mod.ts";
import { statusExpected } from "../plan/runtime/mod.ts";

/** How many bytes of a body a sample keeps (the rest is counted: `bodyBytes`): the result's. */
export const BODY_SAMPLE_BYTES = UNEXPECTED_BODY_BYTES;

/** The most samples one run keeps (labels × codes), the first ones answered: the result's. */
export const MAX_BODY_SAMPLES = MAX_UNEXPECTED_BODIES;

/** The first bytes of one response's body, copied as they are read. */
export class BodyCapture {
  /** The kept bytes: the first {@linkcode length} of it. */
  readonly bytes: Uint8Array = new Uint8Array(BODY_SAMPLE_BYTES);
  /** Bytes kept. */
  length = 0;
  /** Every byte of the body seen, kept or not. */
  bodyBytes = 0;

  /** Copies what fits of `source[from, to)`, a piece of the body, and counts all of it. */
  add(source: Uint8Array, from: number, to: number): void {
    this.bodyBytes += to - from;
    const n = Math.min(this.bytes.length - this.length, to - from);
    if (n <= 0) return;
    this.bytes.set(source.subarray(from, from + n), this.length);
    this.length += n;
  }
}

/** One kept sample, as the engine hands it on. */
export interface RawBodySample {
  /** The request's label, by index in the plan's `requests`. */
  labelIndex: number;
  status: number;
  /** When it was answered: ms from the run's start (the engine clock's, before `samples`). */
  atMs: number;
  /** The body's first bytes (at most {@linkcode BODY_SAMPLE_BYTES}). */
  bytes: Uint8Array;
  /** The body's whole length as received (more than `bytes` when it was cut). */
  bodyBytes: number;
}

/** One engine's samples: the first completed per label and unexpected status. */
export class BodySampler {
  readonly #kept = new Map<number, RawBodySample>();
  readonly #limit: number;

  /** @param limit The most samples kept. */
  constructor(limit = MAX_BODY_SAMPLES) {
    this.#limit = limit;
  }

  /**
   * Where to copy the body of a response answered `status` to a request of label `labelIndex`
   * expecting `expect`: a new capture when the status is unexpected and no sample of the label
   * and code is kept yet, else undefined (the body is counted and dropped as always).
   */
  capture(
    labelIndex: number,
    expect: StatusExpectation,
    status: number,
  ): BodyCapture | undefined {
    if (statusExpected(expect, status)) return undefined;
    if (this.#kept.size >= this.#limit || this.#kept.has(key(labelIndex, status))) return undefined;
    return new BodyCapture();
  }

  /** The response `capture` was given to completed at `atMs`: kept, unless one was already. */
  keep(labelIndex: number, status: number, capture: BodyCapture, atMs: number): void {
    const k = key(labelIndex, status);
    if (this.#kept.size >= this.#limit || this.#kept.has(k)) return;
    this.#kept.set(k, {
      labelIndex,
      status,
      atMs,
      bytes: capture.bytes.slice(0, capture.length),
      bodyBytes: capture.bodyBytes,
    });
  }

  /** The samples kept, in the order kept, their times from `startMs` (the run's start). */
  samples(startMs: number): RawBodySample[] {
    return [...this.#kept.values()].map((s) => ({ ...s, atMs: Math.max(0, s.atMs - startMs) }));
  }
}

/**
 * The samples of several engines (workers of one run) merged: per label and code the first by
 * time (the workers share the run's start), a tie going to the earlier list; at most `limit`,
 * the first in time.
 */
export function firstBodySamples(
  lists: readonly (readonly RawBodySample[])[],
  limit = MAX_BODY_SAMPLES,
): RawBodySample[] {
  const all = lists.flatMap((list, i) => list.map((s) => ({ s, i })));
  all.sort((a, b) => a.s.atMs - b.s.atMs || a.i - b.i);
  const first = new Map<number, RawBodySample>();
  for (const { s } of all) {
    const k = key(s.labelIndex, s.status);
    if (!first.has(k) && first.size < limit) first.set(k, s);
  }
  return [...first.values()];
}

/**
 * One number per label and status: HTTP's 100 to 999, or a gRPC call's 1000 + code
 * (runner/model/grpc_status.ts), below 2^32 either way.
 */
function key(labelIndex: number, status: number): number {
  return labelIndex * 2 ** 32 + status;
}
