/**
 * Requests rendered ahead of the schedule: a ring of the next requests of this engine's share, in
 * send order, filled a few at a time while the run loop has nothing due and before the schedule
 * starts. A request is taken from the ring when it is written, so requests waiting for a
 * connection hold no buffer (a queue of a million costs a million small records, not a million
 * rendered requests); one that timed out waiting is passed over. One that is not ready (the
 * renderer fell behind) is rendered when written and counted as generator lateness, never
 * skipped. Buffers are pooled and reused once their request completes.
 *
 * @module
 */
import type { ScheduleCursor } from "../../schedule/mod.ts";
import type { PreparedRequest, RequestSource } from "../types.ts";
import { ByteWriter } from "./byte_writer.ts";
import type { RequestRenderer } from "./request_renderer.ts";

/** Requests kept rendered ahead. */
export const RENDER_AHEAD = 512;
/** At most this many are rendered per run-loop pass, so a pass never blocks for long. */
const BATCH = 64;

/** A rendered request: a prepared request whose bytes live in a pooled buffer. */
interface Rendered extends PreparedRequest {
  n: number;
  writer: ByteWriter;
}

/**
 * The request source of a templated plan.
 */
export class RenderAhead implements RequestSource {
  readonly #renderer: RequestRenderer;
  readonly #fixed: readonly PreparedRequest[];
  readonly #cursor: ScheduleCursor;
  readonly #ring: Array<Rendered | undefined> = new Array(RENDER_AHEAD);
  #head = 0;
  #length = 0;
  readonly #pool: Rendered[] = [];
  /** Requests rendered when due instead of ahead. */
  late = 0;
  /** Per data source: how many requests drew a row from it. */
  readonly draws: number[];

  /**
   * `fixed[label]` is sent as it is for a label the renderer does not render per request, and
   * gives every label's method, timeout and expected statuses; `cursor` walks this engine's share
   * of the schedule, as the dispatcher's does.
   */
  constructor(
    renderer: RequestRenderer,
    fixed: readonly PreparedRequest[],
    cursor: ScheduleCursor,
    sources: number,
  ) {
    this.#renderer = renderer;
    this.#fixed = fixed;
    this.#cursor = cursor;
    this.draws = new Array(sources).fill(0);
  }

  /** Fills the ring whole (before the schedule starts). */
  fill(): void {
    while (this.#length < RENDER_AHEAD && this.#renderNext()) { /* render */ }
  }

  renderAhead(): void {
    for (let i = 0; i < BATCH && this.#length < RENDER_AHEAD && this.#renderNext(); i++) {
      /* render */
    }
  }

  take(n: number, labelIndex: number): PreparedRequest {
    const sources = this.#renderer.sourcesOf[labelIndex];
    for (let i = 0; i < sources.length; i++) this.draws[sources[i]]++;
    if (!this.#renderer.isTemplated(labelIndex)) return this.#fixed[labelIndex];
    // Requests before n that are still in the ring timed out waiting for a connection: never sent.
    while (this.#length > 0 && this.#ring[this.#head]!.n < n) this.release(this.#shift(), false);
    if (this.#length === 0) {
      // Not ready when due: render now, and say so in tool health.
      this.late++;
      this.#renderNext(n);
    }
    const r = this.#shift();
    if (r.n !== n) throw new Error(`render-ahead out of step: request ${r.n}, due ${n}`);
    return r;
  }

  #shift(): Rendered {
    const r = this.#ring[this.#head]!;
    this.#ring[this.#head] = undefined;
    this.#head = (this.#head + 1) % RENDER_AHEAD;
    this.#length--;
    return r;
  }

  release(request: PreparedRequest, failed: boolean): void {
    if (!failed && "writer" in request) this.#pool.push(request as Rendered);
  }

  /**
   * Renders this share's next templated request (at `from` or after) into the ring; false once
   * none is left.
   */
  #renderNext(from = 0): boolean {
    const c = this.#cursor;
    while (!c.done && (c.index < from || !this.#renderer.isTemplated(c.labelIndex))) c.advance();
    if (c.done) return false;
    const r = this.#pool.pop() ?? this.#fresh(c.labelIndex);
    const request = this.#fixed[c.labelIndex];
    this.#renderer.render(c.index, c.labelIndex, r.writer);
    r.n = c.index;
    r.labelIndex = c.labelIndex;
    // The view is kept while the buffer and the length are the same (a fixed-width request).
    const w = r.writer;
    if (r.bytes.buffer !== w.buf.buffer || r.bytes.length !== w.length) r.bytes = w.view();
    r.isHead = request.isHead;
    r.timeoutMs = request.timeoutMs;
    r.expect = request.expect;
    r.keepBodyBytes = request.keepBodyBytes;
    r.traceAt = this.#renderer.traceAt;
    this.#ring[(this.#head + this.#length) % RENDER_AHEAD] = r;
    this.#length++;
    c.advance();
    return true;
  }

  #fresh(labelIndex: number): Rendered {
    const request = this.#fixed[labelIndex];
    return {
      n: -1,
      labelIndex,
      writer: new ByteWriter(256),
      bytes: new Uint8Array(0),
      isHead: false,
      timeoutMs: request.timeoutMs,
      expect: request.expect,
      keepBodyBytes: request.keepBodyBytes,
      traceAt: -1,
      copyOf: undefined,
    };
  }
}
