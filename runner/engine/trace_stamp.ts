/**
 * Writes each send's `traceparent` into its request's bytes, in place (`trace: true`): the ids of
 * request n (schedule/trace_ids.ts), 48 hex digits into the 55-octet hole the request was
 * prepared with (`PreparedRequest.traceAt`). A request rendered for this send (a template's, a
 * journey step's) owns its buffer and is patched as it is; a fixed request is shared by every
 * send of its label, and a write may hold its bytes after `send` returns, so each send patches a
 * copy of it taken from a pool of that label's copies, given back when the request completes (not
 * when it failed: a write may still hold it). The copies are as many as that label's requests in
 * flight at once, at most. Nothing is allocated per answered request once the pools are warm; a
 * failed send's copy is dropped, so each failed send of a fixed request costs a copy.
 *
 * @module
 */
import { writeTraceparent } from "../schedule/mod.ts";
import type { PreparedRequest } from "./types.ts";

/**
 * The trace stamp of one engine.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TraceStamp } from "./trace_stamp.ts";
 * import { prepareRequest } from "./http1/mod.ts";
 * const fixed = prepareRequest({
 *   label: "GET /", method: "GET", url: "http://127.0.0.1:8080/", headers: [], weight: 1,
 *   timeoutMs: 1000, expect: { codes: [], classes: [2] },
 * }, 0, undefined, {});
 * const stamp = new TraceStamp(7);
 * const sent = stamp.stamp(fixed, true, 12, 0);
 * assert.notEqual(sent, fixed); // a copy: the fixed request's bytes stay as they were
 * assert.match(new TextDecoder().decode(sent.bytes), /traceparent: 00-[0-9a-f]{32}-[0-9a-f]{16}-01\r\n/);
 * stamp.release(sent, false);
 * assert.equal(stamp.stamp(fixed, true, 13, 0), sent); // the copy is reused
 * ```
 */
export class TraceStamp {
  readonly #seed: number;
  /** Per fixed request: its copies free to take. */
  readonly #pools = new Map<PreparedRequest, PreparedRequest[]>();
  /** Copies made so far (for tests and tool health). */
  copies = 0;

  constructor(seed: number) {
    this.#seed = seed;
  }

  /**
   * The request to send as request n's `step` (0: not a journey's later step) with its ids
   * written in: `request` itself when it owns its buffer, else (`shared`) a copy of it.
   */
  stamp(request: PreparedRequest, shared: boolean, n: number, step: number): PreparedRequest {
    const at = request.traceAt ?? -1;
    if (at < 0) return request;
    let sent = request;
    if (shared) {
      const pool = this.#pools.get(request);
      sent = pool?.pop() ?? this.#copy(request);
    }
    writeTraceparent(sent.bytes, at, this.#seed, n, step);
    return sent;
  }

  /** A request {@linkcode stamp} returned completed: a copy goes back to its pool, unless failed. */
  release(request: PreparedRequest, failed: boolean): void {
    const of = request.copyOf;
    if (of === undefined || failed) return;
    let pool = this.#pools.get(of);
    if (pool === undefined) this.#pools.set(of, pool = []);
    pool.push(request);
  }

  #copy(request: PreparedRequest): PreparedRequest {
    this.copies++;
    return { ...request, bytes: request.bytes.slice(), copyOf: request };
  }
}
