/**
 * A growable byte buffer written front to back without allocating per write: ASCII and UTF-8
 * text, whole numbers as decimal digits, and byte runs.
 *
 * @module
 */

const encoder = new TextEncoder();
/** Two lower-case hex digits for each byte value. */
const HEX = new Uint8Array(512);
for (let b = 0; b < 256; b++) {
  const digits = b.toString(16).padStart(2, "0");
  HEX[2 * b] = digits.charCodeAt(0);
  HEX[2 * b + 1] = digits.charCodeAt(1);
}

/**
 * Appends bytes to a buffer that grows by doubling.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ByteWriter } from "./byte_writer.ts";
 * const w = new ByteWriter(16);
 * w.ascii("id=");
 * w.integer(-42);
 * assert.equal(new TextDecoder().decode(w.view()), "id=-42");
 * ```
 */
export class ByteWriter {
  buf: Uint8Array;
  length = 0;

  constructor(capacity = 512) {
    this.buf = new Uint8Array(capacity);
  }

  /** Empties the writer, keeping its buffer. */
  reset(): void {
    this.length = 0;
  }

  /** Makes room for `more` bytes. */
  reserve(more: number): void {
    if (this.length + more <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + more) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(0, this.length));
    this.buf = grown;
  }

  /** Appends bytes. */
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** Appends `src[start]` to `src[end]` (a short copy, without a view). */
  range(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.reserve(n);
    const buf = this.buf;
    let at = this.length;
    if (n > 64) buf.set(src.subarray(start, end), at);
    else for (let i = start; i < end; i++) buf[at++] = src[i];
    this.length += n;
  }

  /** Appends text whose characters are all ASCII. */
  ascii(s: string): void {
    this.reserve(s.length);
    const buf = this.buf;
    let at = this.length;
    for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i);
    this.length = at;
  }

  /** Appends any text as UTF-8. */
  utf8(s: string): void {
    this.reserve(s.length * 3);
    this.length += encoder.encodeInto(s, this.buf.subarray(this.length)).written;
  }

  /** Appends 128 bits (4 words) as a UUID's text: 8-4-4-4-12 lower-case hex digits. */
  uuid(words: Uint32Array): void {
    this.reserve(36);
    const buf = this.buf;
    let at = this.length;
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) buf[at++] = 45; // "-"
      const byte = (words[i >> 2] >>> (24 - 8 * (i & 3))) & 0xff;
      buf[at++] = HEX[2 * byte];
      buf[at++] = HEX[2 * byte + 1];
    }
    this.length = at;
  }

  /** Appends a whole number (|n| < 2^53) in decimal. */
  integer(n: number): void {
    this.reserve(17);
    if (n < 0) {
      this.buf[this.length++] = 45; // "-"
      n = -n;
    }
    if (n < 10) {
      this.buf[this.length++] = 48 + n;
      return;
    }
    let digits = 0;
    for (let m = n; m >= 1; m = Math.floor(m / 10)) digits++;
    let at = this.length + digits;
    this.length = at;
    while (n >= 1) {
      const q = Math.floor(n / 10);
      this.buf[--at] = 48 + (n - q * 10);
      n = q;
    }
  }

  /** The bytes written, as a view of the buffer (valid until the next write). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}
