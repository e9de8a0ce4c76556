/**
 * One header block as it arrives: a HEADERS frame's fragment, then CONTINUATION fragments until
 * END_HEADERS (RFC 9113 §4.3). The fragments of a block still arriving are copied, since a
 * transport reuses its read buffer for the next read; the last is taken as it is, decoded before
 * the read returns.
 *
 * A block is bounded, so a server cannot take the client's memory with it (the CONTINUATION
 * flood, CVE-2024-27316 and its kin): at most {@linkcode MAX_HEADER_BLOCK_BYTES} octets as sent
 * (HPACK-encoded) and at most {@linkcode MAX_CONTINUATION_FRAMES} CONTINUATION frames, nghttp2's
 * defaults (its 64 KiB counts decoded headers; this counts the octets held in memory). Past
 * either, the block is a connection error: it cannot be skipped, since the HPACK table must stay
 * in step with the server's.
 *
 * @module
 */
import { concatBytes } from "./h2_frame.ts";

/** The largest header block taken, in octets as sent (64 KiB). */
export const MAX_HEADER_BLOCK_BYTES = 64 * 1024;

/** The most CONTINUATION frames one header block may take (nghttp2's default). */
export const MAX_CONTINUATION_FRAMES = 8;

/**
 * The header block being received, if any.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { H2HeaderBlock } from "./h2_header_block.ts";
 * const block = new H2HeaderBlock();
 * assert.equal(block.begin(1, Uint8Array.of(0x88), false, false), undefined);
 * assert.equal(block.complete, false);
 * assert.equal(block.add(Uint8Array.of(0x0f), true), undefined);
 * assert.equal(block.complete, true);
 * assert.deepEqual([...block.take()], [0x88, 0x0f]);
 * assert.equal(block.streamId, 0);
 * ```
 */
export class H2HeaderBlock {
  /** The stream whose block is arriving (0: none). */
  streamId = 0;
  /** The HEADERS frame carried END_STREAM. */
  endsStream = false;
  #parts: Uint8Array[] = [];
  #bytes = 0;
  #continuations = 0;
  #complete = false;

  /** Its last fragment (END_HEADERS) is in: {@linkcode take} it. */
  get complete(): boolean {
    return this.#complete;
  }

  /**
   * A HEADERS frame's `fragment` starts the block of `streamId`; `last` when it carried
   * END_HEADERS. Returns what broke a limit, or undefined.
   */
  begin(
    streamId: number,
    fragment: Uint8Array,
    endsStream: boolean,
    last: boolean,
  ): string | undefined {
    this.#drop();
    this.streamId = streamId;
    this.endsStream = endsStream;
    return this.#keep(fragment, last);
  }

  /** A CONTINUATION's `fragment`; `last` when it carried END_HEADERS. Returns a broken limit. */
  add(fragment: Uint8Array, last: boolean): string | undefined {
    if (++this.#continuations > MAX_CONTINUATION_FRAMES) {
      this.#drop();
      return `a header block in over ${MAX_CONTINUATION_FRAMES} CONTINUATION frames`;
    }
    return this.#keep(fragment, last);
  }

  /** The whole block, once its last fragment is in; no block is open after. */
  take(): Uint8Array {
    const parts = this.#parts;
    this.#drop();
    return parts.length === 1 ? parts[0] : concatBytes(parts);
  }

  #keep(fragment: Uint8Array, last: boolean): string | undefined {
    this.#bytes += fragment.length;
    if (this.#bytes > MAX_HEADER_BLOCK_BYTES) {
      this.#drop();
      return `a header block over ${MAX_HEADER_BLOCK_BYTES / 1024} KiB`;
    }
    // A fragment of a block still arriving outlives this read: own its bytes.
    this.#parts.push(last ? fragment : fragment.slice());
    this.#complete = last;
    return undefined;
  }

  #drop(): void {
    this.streamId = 0;
    this.endsStream = false;
    this.#parts = [];
    this.#bytes = 0;
    this.#continuations = 0;
    this.#complete = false;
  }
}
