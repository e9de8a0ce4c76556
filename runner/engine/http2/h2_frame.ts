/**
 * HTTP/2 frames as a client writes them (RFC 9113 §4, §6): the 9-octet frame header and the few
 * frames a load test sends. Each function returns the frame's bytes, ready to write. Pure.
 *
 * @module
 */

/** The frame types (RFC 9113 §6). */
export const FRAME = {
  data: 0x0,
  headers: 0x1,
  priority: 0x2,
  rstStream: 0x3,
  settings: 0x4,
  pushPromise: 0x5,
  ping: 0x6,
  goaway: 0x7,
  windowUpdate: 0x8,
  continuation: 0x9,
} as const;

/** The flags the client reads or writes. */
export const FLAG = {
  endStream: 0x1,
  ack: 0x1,
  endHeaders: 0x4,
  padded: 0x8,
  priority: 0x20,
} as const;

/** SETTINGS parameters (RFC 9113 §6.5.2). */
export const SETTING = {
  headerTableSize: 0x1,
  enablePush: 0x2,
  maxConcurrentStreams: 0x3,
  initialWindowSize: 0x4,
  maxFrameSize: 0x5,
  maxHeaderListSize: 0x6,
} as const;

/** Error codes (RFC 9113 §7) the engine names or sends. */
export const H2_CODE = {
  noError: 0x0,
  protocolError: 0x1,
  internalError: 0x2,
  flowControlError: 0x3,
  frameSizeError: 0x6,
  refusedStream: 0x7,
  cancel: 0x8,
  compressionError: 0x9,
  enhanceYourCalm: 0xb,
} as const;

/** The frame size every peer accepts until its SETTINGS say more (RFC 9113 §4.2). */
export const DEFAULT_MAX_FRAME_BYTES = 16_384;

/** The window every stream and the connection start with (RFC 9113 §6.9.2). */
export const DEFAULT_WINDOW_BYTES = 65_535;

/** The largest window a peer may have (2^31 - 1). */
export const MAX_WINDOW_BYTES = 0x7fff_ffff;

/** The client connection preface (RFC 9113 §3.4), before the client's SETTINGS. */
export const CLIENT_PREFACE = new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/** Writes a frame header into `into` at `at`. */
function putHeader(
  into: Uint8Array,
  at: number,
  length: number,
  type: number,
  flags: number,
  streamId: number,
): void {
  into[at] = (length >>> 16) & 0xff;
  into[at + 1] = (length >>> 8) & 0xff;
  into[at + 2] = length & 0xff;
  into[at + 3] = type;
  into[at + 4] = flags;
  putUint31(into, at + 5, streamId);
}

function putUint31(into: Uint8Array, at: number, value: number): void {
  into[at] = (value >>> 24) & 0x7f;
  into[at + 1] = (value >>> 16) & 0xff;
  into[at + 2] = (value >>> 8) & 0xff;
  into[at + 3] = value & 0xff;
}

/**
 * A frame of `type` with `payload`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { frame } from "./h2_frame.ts";
 * assert.deepEqual([...frame(0x8, 0, 3, new Uint8Array([0, 0, 1, 0]))], [0, 0, 4, 8, 0, 0, 0, 0, 3, 0, 0, 1, 0]);
 * ```
 */
export function frame(
  type: number,
  flags: number,
  streamId: number,
  payload: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(9 + payload.length);
  putHeader(out, 0, payload.length, type, flags, streamId);
  out.set(payload, 9);
  return out;
}

/** SETTINGS with the given [parameter, value] pairs. */
export function settingsFrame(pairs: ReadonlyArray<readonly [number, number]>): Uint8Array {
  const payload = new Uint8Array(pairs.length * 6);
  pairs.forEach(([id, value], i) => {
    payload[i * 6] = id >>> 8;
    payload[i * 6 + 1] = id & 0xff;
    new DataView(payload.buffer).setUint32(i * 6 + 2, value);
  });
  return frame(FRAME.settings, 0, 0, payload);
}

/** The acknowledgement of the peer's SETTINGS. */
export const SETTINGS_ACK = frame(FRAME.settings, FLAG.ack, 0, new Uint8Array(0));

/** WINDOW_UPDATE of `streamId` (0: the connection) by `incrementBytes` (1 to 2^31 - 1). */
export function windowUpdateFrame(streamId: number, incrementBytes: number): Uint8Array {
  const payload = new Uint8Array(4);
  putUint31(payload, 0, incrementBytes);
  return frame(FRAME.windowUpdate, 0, streamId, payload);
}

/** RST_STREAM of `streamId` with `code`. */
export function rstStreamFrame(streamId: number, code: number): Uint8Array {
  const payload = new Uint8Array(4);
  new DataView(payload.buffer).setUint32(0, code);
  return frame(FRAME.rstStream, 0, streamId, payload);
}

/** GOAWAY naming the last stream the client processed (always 0: it processes none) and `code`. */
export function goawayFrame(code: number): Uint8Array {
  const payload = new Uint8Array(8);
  new DataView(payload.buffer).setUint32(4, code);
  return frame(FRAME.goaway, 0, 0, payload);
}

/** The PING acknowledgement carrying the peer's 8 octets. */
export function pingAckFrame(opaque: Uint8Array): Uint8Array {
  return frame(FRAME.ping, FLAG.ack, 0, opaque);
}

/**
 * A header block on `streamId`: one HEADERS frame, followed by CONTINUATION frames when the block
 * is longer than `maxFrameBytes`; END_STREAM on the HEADERS when the request has no body.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headersFrames } from "./h2_frame.ts";
 * const bytes = headersFrames(1, new Uint8Array(5), true, 16_384);
 * assert.deepEqual([...bytes.subarray(0, 9)], [0, 0, 5, 1, 5, 0, 0, 0, 1]); // END_STREAM | END_HEADERS
 * assert.equal(headersFrames(3, new Uint8Array(20), false, 8).length, 20 + 3 * 9); // + 2 CONTINUATION
 * ```
 */
export function headersFrames(
  streamId: number,
  block: Uint8Array,
  endStream: boolean,
  maxFrameBytes: number,
): Uint8Array {
  return split(block, maxFrameBytes, streamId, (i, last) => ({
    type: i === 0 ? FRAME.headers : FRAME.continuation,
    flags: (last ? FLAG.endHeaders : 0) | (i === 0 && endStream ? FLAG.endStream : 0),
  }));
}

/**
 * DATA frames carrying `body` on `streamId`, each at most `maxFrameBytes`; END_STREAM on the last
 * when `endStream`.
 */
export function dataFrames(
  streamId: number,
  body: Uint8Array,
  endStream: boolean,
  maxFrameBytes: number,
): Uint8Array {
  return split(body, maxFrameBytes, streamId, (_, last) => ({
    type: FRAME.data,
    flags: last && endStream ? FLAG.endStream : 0,
  }));
}

/** `payload` cut into frames of at most `maxFrameBytes` (one, if empty), `kind` typing each. */
function split(
  payload: Uint8Array,
  maxFrameBytes: number,
  streamId: number,
  kind: (index: number, last: boolean) => { type: number; flags: number },
): Uint8Array {
  const frames = Math.max(1, Math.ceil(payload.length / maxFrameBytes));
  const out = new Uint8Array(payload.length + frames * 9);
  let at = 0;
  for (let i = 0; i < frames; i++) {
    const part = payload.subarray(
      i * maxFrameBytes,
      Math.min(payload.length, (i + 1) * maxFrameBytes),
    );
    const { type, flags } = kind(i, i === frames - 1);
    putHeader(out, at, part.length, type, flags, streamId);
    out.set(part, at + 9);
    at += 9 + part.length;
  }
  return out;
}

/** `parts` joined into one array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The 31-bit unsigned integer at `bytes[at]` (a stream id or window size: its top bit reserved). */
export function readUint31(bytes: Uint8Array, at: number): number {
  return ((bytes[at] & 0x7f) << 24 | bytes[at + 1] << 16 | bytes[at + 2] << 8 | bytes[at + 3]) >>>
    0;
}

/** The 32-bit unsigned integer at `bytes[at]`, network order. */
export function readUint32(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 24 | bytes[at + 1] << 16 | bytes[at + 2] << 8 | bytes[at + 3]) >>> 0;
}
