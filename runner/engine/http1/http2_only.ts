/**
 * Telling a server that speaks only HTTP/2 from an HTTP/1.1 one, by its first bytes or its ALPN.
 * A server that speaks only HTTP/2
 * answers an HTTP/1.1 request with the frames its connection opens with: SETTINGS (its connection
 * preface), then often a GOAWAY. A frame starts with a 9-byte header: a 24-bit payload length, the
 * type, the flags and a 31-bit stream id; a connection's own frames are on stream 0. An HTTP/1.1
 * response starts with `HTTP/`, so its first byte is never the 0 that starts any frame shorter than
 * 64 KiB.
 *
 * @module
 */

/** Bytes of an HTTP/2 frame header (RFC 9113 §4.1). */
export const HTTP2_FRAME_HEADER_BYTES = 9;

const SETTINGS = 0x4;
const GOAWAY = 0x7;
/** The settings ACK flag; an ACK carries no payload. */
const ACK = 0x1;

/** The sentence a run and its result say when the target answered with HTTP/2 frames. */
export const HTTP2_REPLY_NOTE: string =
  "the target answered HTTP/1.1 requests with HTTP/2 frames: it speaks only HTTP/2 (h2c), and " +
  "this plan sends HTTP/1.1, so those requests count as errors `protocol`; set `load.http: 2` " +
  "in the plan (or run with --http2), or point it at a port that speaks HTTP/1.1 (nginx: a " +
  "`listen` without `http2`)";

/**
 * What tailgate's TLS connections offer by ALPN: HTTP/1.1, the one protocol it sends. A server
 * that speaks only HTTP/2 then refuses the handshake (alert `no_application_protocol`) instead of
 * answering in a protocol of its own choosing (node:http2 answers `403 Missing ALPN Protocol`).
 */
export const TLS_HTTP1: { readonly alpnProtocols: string[] } = { alpnProtocols: ["http/1.1"] };

/**
 * Whether `bytes[start, end)`, the start of what a server sent, may still be the header of a
 * frame {@linkcode http2OpeningFrame} names: fewer than {@linkcode HTTP2_FRAME_HEADER_BYTES}
 * bytes, the first 0, and those of the type and stream id that are there fit a SETTINGS or GOAWAY
 * on stream 0. Lets a reader wait for the rest of the header instead of judging it by its start.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mayBeHttp2FrameStart } from "./http2_only.ts";
 * assert.equal(mayBeHttp2FrameStart(new Uint8Array([0, 0, 0, 4]), 0, 4), true);
 * assert.equal(mayBeHttp2FrameStart(new TextEncoder().encode("HTTP"), 0, 4), false);
 * ```
 */
export function mayBeHttp2FrameStart(bytes: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  if (n <= 0 || n >= HTTP2_FRAME_HEADER_BYTES || bytes[start] !== 0) return false;
  const type = bytes[start + 3];
  if (n > 3 && type !== SETTINGS && type !== GOAWAY) return false;
  for (let i = 5; i < n; i++) {
    if ((i === 5 ? bytes[start + i] & 0x7f : bytes[start + i]) !== 0) return false;
  }
  return true;
}

/**
 * The frame a server's HTTP/2 connection opens with, when `bytes[start, end)` starts with one:
 * `SETTINGS` (its preface: on stream 0, a payload of 6-byte settings, or an empty ACK) or `GOAWAY`
 * (on stream 0, at least 8 bytes). Undefined for anything else, fewer than 9 bytes included.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { http2OpeningFrame } from "./http2_only.ts";
 * // What node:http2's createServer() sends first: an empty SETTINGS frame.
 * assert.equal(http2OpeningFrame(new Uint8Array([0, 0, 0, 4, 0, 0, 0, 0, 0]), 0, 9), "SETTINGS");
 * assert.equal(http2OpeningFrame(new TextEncoder().encode("HTTP/1.1 200 OK"), 0, 15), undefined);
 * ```
 */
export function http2OpeningFrame(
  bytes: Uint8Array,
  start: number,
  end: number,
): "SETTINGS" | "GOAWAY" | undefined {
  if (end - start < HTTP2_FRAME_HEADER_BYTES) return undefined;
  const length = (bytes[start] << 16) | (bytes[start + 1] << 8) | bytes[start + 2];
  const type = bytes[start + 3];
  const flags = bytes[start + 4];
  const streamId = ((bytes[start + 5] & 0x7f) << 24) | (bytes[start + 6] << 16) |
    (bytes[start + 7] << 8) | bytes[start + 8];
  if (streamId !== 0) return undefined;
  if (type === SETTINGS) {
    const fits = (flags & ACK) === 0 ? length % 6 === 0 : length === 0;
    return fits ? "SETTINGS" : undefined;
  }
  return type === GOAWAY && length >= 8 ? "GOAWAY" : undefined;
}
