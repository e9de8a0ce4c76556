/**
 * The chunked transfer coding of an HTTP/1.1 response body, decoded in place: chunk-size lines
 * (with extensions), chunk data (counted and dropped, never copied, but for the first bytes of a
 * body being captured), the CRLF after each chunk and the trailer section.
 *
 * @module
 */
import type { BodyCapture } from "../body_sample.ts";
import type { KeptResponse } from "../kept_response.ts";

const SIZE = 0;
const EXT = 1;
const SIZE_LF = 2;
const DATA = 3;
const DATA_CR = 4;
const DATA_LF = 5;
const TRAILER = 6;
const TRAILER_LF = 7;
const DONE = 8;
const FAILED = 9;

const CR = 13;
const LF = 10;
/** Hex digits of a chunk size: 12 keep it below 2^53. */
const MAX_CHUNK_SIZE_DIGITS = 12;
/** Value of a hex digit byte, or -1. */
const HEX = hexTable();

/**
 * Frames one chunked body. {@linkcode ChunkedBodyDecoder.start} it after the response head, then
 * feed it bytes with {@linkcode ChunkedBodyDecoder.execute} until
 * {@linkcode ChunkedBodyDecoder.done} or {@linkcode ChunkedBodyDecoder.failed}. Errors set
 * `failed` and `error`; nothing is thrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ChunkedBodyDecoder } from "./http1_chunked.ts";
 * const bytes = new TextEncoder().encode("2\r\nhi\r\n0\r\n\r\n");
 * const decoder = new ChunkedBodyDecoder(1024);
 * decoder.start();
 * assert.equal(decoder.execute(bytes, 0, bytes.length), 12); // every byte consumed
 * assert.equal(decoder.done, true);
 * ```
 */
export class ChunkedBodyDecoder {
  /** What was wrong, when {@linkcode ChunkedBodyDecoder.failed}. */
  error = "";
  #state = DONE;
  /** Chunk bytes still to come, or the chunk size read so far. */
  #remaining = 0;
  #chunkDigits = 0;
  /** Bytes of the current chunk extension, or of the trailer section, read so far. */
  #sectionBytes = 0;
  #trailerLineBytes = 0;
  /** Where the chunks' data goes (its first bytes), when the body is being captured. */
  #capture: BodyCapture | undefined = undefined;
  /** Where the chunks' data goes whole (up to its limit), when the request keeps its body. */
  #keep: KeptResponse | undefined = undefined;

  /** @param maxSectionBytes Longest chunk extension or trailer section accepted. */
  constructor(readonly maxSectionBytes: number) {}

  /** True once the last chunk and the trailer section have been read. */
  get done(): boolean {
    return this.#state === DONE;
  }

  /** True when the bytes are not a valid chunked body; `error` says why. */
  get failed(): boolean {
    return this.#state === FAILED;
  }

  /**
   * Prepares for a new chunked body; `capture`: where its data's first bytes go, if anywhere;
   * `keep`: where its data goes when the request keeps its body.
   */
  start(capture?: BodyCapture, keep?: KeptResponse): void {
    this.error = "";
    this.#capture = capture;
    this.#keep = keep;
    this.#startChunk();
  }

  /**
   * Consumes `bytes[start, end)` and returns the index of the first byte not consumed: bytes after
   * the body are left; on an error every byte is consumed.
   */
  execute(bytes: Uint8Array, start: number, end: number): number {
    let pos = start;
    while (pos < end) {
      const state = this.#state;
      if (state === DATA) {
        const take = Math.min(this.#remaining, end - pos);
        if (this.#capture !== undefined) this.#capture.add(bytes, pos, pos + take);
        if (this.#keep !== undefined) this.#keep.add(bytes, pos, pos + take);
        pos += take;
        this.#remaining -= take;
        if (this.#remaining === 0) this.#state = DATA_CR;
      } else if (state === DONE || state === FAILED) return pos;
      else pos = this.#framing(bytes, pos, end);
    }
    return pos;
  }

  #startChunk(): void {
    this.#state = SIZE;
    this.#remaining = 0;
    this.#chunkDigits = 0;
  }

  /** Chunk-size lines, the CRLF after chunk data, and the trailer section, byte by byte. */
  #framing(bytes: Uint8Array, pos: number, end: number): number {
    for (; pos < end; pos++) {
      const b = bytes[pos];
      switch (this.#state) {
        case SIZE:
          if (HEX[b] >= 0) {
            if (++this.#chunkDigits > MAX_CHUNK_SIZE_DIGITS) return this.#failAt(end, "chunk size");
            this.#remaining = this.#remaining * 16 + HEX[b];
          } else if (this.#chunkDigits === 0) return this.#failAt(end, "chunk size");
          else if (b === CR) this.#state = SIZE_LF;
          else if (b === 59 || b === 32 || b === 9) {
            this.#state = EXT;
            this.#sectionBytes = 0;
          } else return this.#failAt(end, "chunk size");
          break;
        case EXT:
          if (b === CR) this.#state = SIZE_LF;
          else if (++this.#sectionBytes > this.maxSectionBytes) {
            return this.#failAt(end, "chunk extension");
          }
          break;
        case SIZE_LF:
          if (b !== LF) return this.#failAt(end, "chunk size line ending");
          if (this.#remaining > 0) {
            this.#state = DATA;
            return pos + 1;
          }
          this.#state = TRAILER;
          this.#sectionBytes = 0;
          this.#trailerLineBytes = 0;
          break;
        case DATA_CR:
          if (b !== CR) return this.#failAt(end, "chunk data ending");
          this.#state = DATA_LF;
          break;
        case DATA_LF:
          if (b !== LF) return this.#failAt(end, "chunk data ending");
          this.#startChunk();
          break;
        case TRAILER:
          if (b === CR) this.#state = TRAILER_LF;
          else if (b === LF) return this.#failAt(end, "trailer line ending");
          else this.#trailerLineBytes++;
          if (++this.#sectionBytes > this.maxSectionBytes) return this.#failAt(end, "trailer size");
          break;
        default: // TRAILER_LF
          if (b !== LF) return this.#failAt(end, "trailer line ending");
          if (this.#trailerLineBytes === 0) {
            this.#state = DONE;
            return pos + 1;
          }
          this.#state = TRAILER;
          this.#trailerLineBytes = 0;
      }
    }
    return pos;
  }

  /** Fails on a framing error; returns `end` so `execute` stops. */
  #failAt(end: number, what: string): number {
    this.#state = FAILED;
    this.error = `invalid ${what} in chunked body`;
    return end;
  }
}

function hexTable(): Int8Array {
  const table = new Int8Array(256).fill(-1);
  for (let d = 0; d < 10; d++) table[48 + d] = d;
  for (let d = 0; d < 6; d++) table[65 + d] = table[97 + d] = 10 + d;
  return table;
}
