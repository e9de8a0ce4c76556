/**
 * The response of a request whose label reads it (checks, later captures): its body, up to the
 * request's `keepBodyBytes` ({@linkcode KEEP_BODY_BYTES} for a checked label), and its header
 * fields, copied as they are read (the readers reuse their buffers). Only such a request is given
 * one; every other response's body is counted and dropped, as always. The readers (HTTP/1.1 on
 * either I/O path, an HTTP/2 stream) fill it; the outcome carries its body and headers.
 *
 * @module
 */

/** How much of a body a checked request keeps (1 MiB); the rest is counted and dropped. */
export const KEEP_BODY_BYTES = 1024 * 1024;

/** A kept response's header fields, read by name (the form checks and captures take). */
export interface ResponseHeaders {
  /** Values of the header `name` (lower case), one per field line, in order; [] when none. */
  header(name: string): string[];
  /** The header names, for a message (never their values). */
  names(): string;
}

const EMPTY = new Uint8Array(0);
const LATIN1 = new TextDecoder("latin1");

/**
 * One response's kept body and header fields.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KeptResponse } from "./kept_response.ts";
 * const kept = new KeptResponse(4);
 * const line = new TextEncoder().encode("Content-Type: text/plain");
 * kept.headLine(line, 0, line.length);
 * kept.add(new TextEncoder().encode("hello"), 0, 5);
 * assert.deepEqual([new TextDecoder().decode(kept.body()), kept.cut], ["hell", true]);
 * assert.deepEqual(kept.headers().header("content-type"), ["text/plain"]);
 * ```
 */
export class KeptResponse implements ResponseHeaders {
  #body: Uint8Array = EMPTY;
  #length = 0;
  /** Every byte of the body seen, kept or not. */
  bodyBytes = 0;
  #head: Uint8Array = EMPTY;
  #headLength = 0;
  /** Fields decoded by an HTTP/2 stream (HPACK), instead of head lines. */
  #fields: [string, string][] | undefined;

  /** @param limit The most body bytes kept. */
  constructor(readonly limit: number) {}

  /** Copies what fits of `source[from, to)`, a piece of the body, and counts all of it. */
  add(source: Uint8Array, from: number, to: number): void {
    this.bodyBytes += to - from;
    const n = Math.min(this.limit - this.#length, to - from);
    if (n <= 0) return;
    const need = this.#length + n;
    if (need > this.#body.length) {
      // The first piece is often the whole body: sized to it; later pieces double the buffer.
      const size = this.#length === 0 ? need : Math.max(need, 2 * this.#body.length);
      const grown = new Uint8Array(Math.min(this.limit, size));
      grown.set(this.#body.subarray(0, this.#length));
      this.#body = grown;
    }
    copy(source, from, n, this.#body, this.#length);
    this.#length = need;
  }

  /** Keeps the header line `source[from, to)` (without its CRLF). */
  headLine(source: Uint8Array, from: number, to: number): void {
    const need = this.#headLength + to - from + 1;
    if (need > this.#head.length) {
      const grown = new Uint8Array(Math.max(2 * need, 2 * this.#head.length, 128));
      grown.set(this.#head.subarray(0, this.#headLength));
      this.#head = grown;
    }
    copy(source, from, to - from, this.#head, this.#headLength);
    this.#head[need - 1] = 10;
    this.#headLength = need;
  }

  /** Forgets the header lines kept (an interim 1xx head came before the final one). */
  clearHead(): void {
    this.#headLength = 0;
  }

  /** Keeps a field an HTTP/2 header block decoded to (pseudo-headers left out). */
  field(name: string, value: string): void {
    if (name.startsWith(":")) return;
    (this.#fields ??= []).push([name, value]);
  }

  /** The kept body: its first {@linkcode limit} bytes at most. */
  body(): Uint8Array {
    // Sized to a body that came in one piece: the buffer itself, no view made.
    return this.#length === this.#body.length ? this.#body : this.#body.subarray(0, this.#length);
  }

  /** True when the body was longer than the limit: {@linkcode body} is its beginning. */
  get cut(): boolean {
    return this.bodyBytes > this.#length;
  }

  /** The header fields (this response itself, read by name: head lines parsed on first read). */
  headers(): ResponseHeaders {
    return this;
  }

  /** Values of the header `name` (any case), one per field line, in order; [] when none. */
  header(name: string): string[] {
    const lower = name.toLowerCase();
    const out: string[] = [];
    for (const [n, v] of this.#parsed()) if (n === lower) out.push(v);
    return out;
  }

  /** The header names, for a message (never their values). */
  names(): string {
    const names = [...new Set(this.#parsed().map(([n]) => n))];
    return names.length ? names.map((n) => `\`${n}\``).join(", ") : "no headers";
  }

  /** The fields: HTTP/2's as decoded, else the head lines parsed (once). */
  #parsed(): [string, string][] {
    return this.#fields ??= headLines(this.#head.subarray(0, this.#headLength));
  }
}

/** Copies `n` bytes of `source` from `from` into `into` at `at`: short ones without a view. */
function copy(source: Uint8Array, from: number, n: number, into: Uint8Array, at: number): void {
  if (n > 64) return into.set(source.subarray(from, from + n), at);
  for (let i = 0; i < n; i++) into[at + i] = source[from + i];
}

/** The kept head's lines as (lower-case name, value) pairs. */
function headLines(head: Uint8Array): [string, string][] {
  if (head.length === 0) return [];
  const out: [string, string][] = [];
  for (const line of LATIN1.decode(head).split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) out.push([line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]);
  }
  return out;
}
