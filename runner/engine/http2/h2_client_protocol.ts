/**
 * The client side of one HTTP/2 connection as a state machine, without I/O (RFC 9113): bytes the
 * server sent go in through {@linkcode H2ClientProtocol.receive}, the bytes to send come out
 * through the `write` callback, and each stream reports its response's status, DATA and close.
 * The session and its transport (`h2_session.ts`, `h2_transport.ts`) own the socket and the clock.
 *
 * What it sends: the preface; SETTINGS with server push off and each stream's window at
 * `windowBytes`; a WINDOW_UPDATE raising the connection's window to `windowBytes` as well; every
 * request's header block (HEADERS, then CONTINUATION beyond the server's frame size) and body
 * (DATA within the server's windows, the rest sent as they open); a WINDOW_UPDATE of the
 * connection or a stream each time half its window was consumed, so a response is never held
 * back by this side; acknowledgements of SETTINGS and PING; RST_STREAM CANCEL for a stream given
 * up; GOAWAY on a connection error (a malformed frame or header block), after which it reads
 * nothing more. Every header block is decoded, those of streams given up too, so the HPACK
 * table stays in step with the server's.
 *
 * What a server may take is bounded: a header block (`h2_header_block.ts`), acknowledgements
 * the transport cannot send ({@linkcode MAX_QUEUED_ACKS}), windows past 2^31 - 1. The file is
 * over 400 lines because it is one state machine: every frame type's handling in one place.
 *
 * @module
 */
import { HpackDecoder } from "./hpack/mod.ts";
import { readsRetryAfter, retryAfterSeconds } from "../response/mod.ts";
import { H2HeaderBlock } from "./h2_header_block.ts";
import type { KeptResponse } from "../kept_response.ts";
import { readSettings } from "./h2_settings.ts";
import {
  CLIENT_PREFACE,
  concatBytes,
  dataFrames,
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_WINDOW_BYTES,
  FLAG,
  FRAME,
  goawayFrame,
  H2_CODE,
  headersFrames,
  MAX_WINDOW_BYTES,
  pingAckFrame,
  readUint31,
  readUint32,
  rstStreamFrame,
  SETTING,
  SETTINGS_ACK,
  settingsFrame,
  windowUpdateFrame,
} from "./h2_frame.ts";

/** What one stream tells its request. */
export interface H2StreamEvents {
  /**
   * The response's final HEADERS: its status, its header block's size as sent (octets), and for
   * a 429 or 503 its `retry-after` in seconds (an HTTP date made a delay; NaN when none, and for
   * every other status, whose block is not searched for it).
   */
  onResponse(status: number, headerOctets: number, retryAfterS: number): void;
  /** An interim (1xx) HEADERS arrived before the final one (optional). */
  onInterim?(): void;
  /**
   * A DATA frame's payload arrived: `bytes` of data (padding not counted), `data[from, from +
   * bytes)`, a view of the read buffer valid during the call only (copy what is kept).
   */
  onData(bytes: number, data: Uint8Array, from: number): void;
  /**
   * The stream closed: `rstCode` 0 after a complete response, else the RST_STREAM code (or the
   * GOAWAY's, for a stream the server will not process; {@linkcode MALFORMED_RESPONSE} for a
   * response without a valid status); `sessionGone` when its connection went down under it.
   */
  onClose(rstCode: number, streamId: number, sessionGone: boolean): void;
  /**
   * A gRPC stream: the header block that ends it (its trailers, or a trailers-only response's
   * HEADERS) is read for `grpc-status` and `grpc-message` and reported by {@linkcode onTrailers}
   * before {@linkcode onClose}. Absent for HTTP: nothing more is read of its blocks.
   */
  readonly grpc?: boolean;
  /**
   * A gRPC stream's last header block arrived: its `grpc-status` and `grpc-message` as sent (""
   * when absent), and its size in octets when it was trailers (0 for a trailers-only response's
   * HEADERS, whose size {@linkcode onResponse} gave).
   */
  onTrailers?(grpcStatus: string, grpcMessage: string, trailerOctets: number): void;
  /**
   * Where the response's header fields go, while the request in flight keeps its response; else
   * undefined (only the status is decoded).
   */
  readonly kept?: KeptResponse;
}

/** What the connection tells its transport. */
export interface H2ProtocolEvents {
  /**
   * Bytes to send, in order; returns the octets still waiting to be sent after it (0: the
   * transport handed everything to the socket).
   */
  write(bytes: Uint8Array): number;
  /** The server's SETTINGS arrived (its SETTINGS_MAX_CONCURRENT_STREAMS, when it set one). */
  onSettings(maxConcurrentStreams: number | undefined): void;
  /** The server sent GOAWAY: streams above `lastStreamId` were not and will not be processed. */
  onGoaway(code: number, lastStreamId: number): void;
  /** This side found the connection broken (GOAWAY written): close it. */
  onConnectionError(code: number, reason: string): void;
}

interface Stream {
  readonly id: number;
  readonly events: H2StreamEvents;
  status: number;
  sendWindowBytes: number;
  /** Body bytes not yet sent (the windows were shut), or undefined. */
  pending: Uint8Array | undefined;
  /** DATA octets received since this side last opened the stream's window. */
  consumedBytes: number;
}

/**
 * The `rstCode` of a stream this side reset as malformed: a response without a valid `:status`,
 * or a stream window the server raised past 2^31 - 1.
 */
export const MALFORMED_RESPONSE = -1;

/** The highest stream id (2^31 - 1). */
const MAX_STREAM_ID = 0x7fff_ffff;

/**
 * The most acknowledgements (of PING and SETTINGS) written while the transport could not send
 * what it held: nghttp2's default for outstanding ACKs. One more ends the connection with
 * ENHANCE_YOUR_CALM, so a server that floods PING and reads nothing cannot grow the output queue
 * without bound (CVE-2019-9512, CVE-2019-9515).
 */
export const MAX_QUEUED_ACKS = 1_000;

/** One connection's protocol state. */
export class H2ClientProtocol {
  readonly #events: H2ProtocolEvents;
  readonly #windowBytes: number;
  readonly #hpack = new HpackDecoder();
  readonly #streams = new Map<number, Stream>();
  #nextId = 1;
  #peerMaxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
  #peerInitialWindowBytes = DEFAULT_WINDOW_BYTES;
  #sendWindowBytes = DEFAULT_WINDOW_BYTES;
  #consumedBytes = 0;
  /** The header block being received. */
  readonly #block = new H2HeaderBlock();
  /** The `grpc-status` and `grpc-message` of the last block `#decodeInto` read. */
  #keptGrpcStatus = "";
  #keptGrpcMessage = "";
  /** Acknowledgements written since the transport last had nothing waiting. */
  #queuedAcks = 0;
  /** The GOAWAY's last stream id, or -1. */
  goawayLastStreamId = -1;
  /** Set once this side found a connection error: nothing more is read or sent. */
  failed = false;

  constructor(windowBytes: number, events: H2ProtocolEvents) {
    this.#windowBytes = Math.min(MAX_WINDOW_BYTES, Math.max(DEFAULT_WINDOW_BYTES, windowBytes));
    this.#events = events;
  }

  /** Writes the preface, this side's SETTINGS and the connection's window. */
  start(): void {
    const settings = settingsFrame([
      [SETTING.enablePush, 0],
      [SETTING.initialWindowSize, this.#windowBytes],
    ]);
    const raise = this.#windowBytes - DEFAULT_WINDOW_BYTES;
    const parts = [CLIENT_PREFACE, settings, ...(raise > 0 ? [windowUpdateFrame(0, raise)] : [])];
    this.#events.write(concatBytes(parts));
  }

  /** True once no new stream may start: GOAWAY received, ids used up, or failed. */
  get closed(): boolean {
    return this.failed || this.goawayLastStreamId >= 0 || this.#nextId > MAX_STREAM_ID;
  }

  /** Streams open now. */
  get openStreams(): number {
    return this.#streams.size;
  }

  /**
   * Starts a stream with the header block `block` and `body` (none: the HEADERS end the stream);
   * returns its id. Throws a `RangeError` when {@linkcode closed}.
   */
  request(block: Uint8Array, body: Uint8Array | undefined, events: H2StreamEvents): number {
    if (this.closed) throw new RangeError("the HTTP/2 connection takes no new stream");
    const id = this.#nextId;
    this.#nextId += 2;
    const hasBody = body !== undefined && body.length > 0;
    const stream: Stream = {
      id,
      events,
      status: 0,
      sendWindowBytes: this.#peerInitialWindowBytes,
      pending: hasBody ? body : undefined,
      consumedBytes: 0,
    };
    this.#streams.set(id, stream);
    this.#events.write(headersFrames(id, block, !hasBody, this.#peerMaxFrameBytes));
    if (hasBody) this.#sendBody(stream);
    return id;
  }

  /** Gives stream `id` up: RST_STREAM CANCEL, and nothing more is reported of it. */
  cancel(id: number): void {
    if (!this.#streams.delete(id) || this.failed) return;
    this.#events.write(rstStreamFrame(id, H2_CODE.cancel));
  }

  /** The connection went down: every open stream closes with `sessionGone`. */
  fail(): void {
    this.failed = true;
    const streams = [...this.#streams.values()];
    this.#streams.clear();
    for (const s of streams) s.events.onClose(0, s.id, true);
  }

  /**
   * Reads the complete frames in `bytes[start, end)`; returns how many octets they took (the rest
   * is a frame still arriving: pass it again with what follows).
   */
  receive(bytes: Uint8Array, start: number, end: number): number {
    let at = start;
    while (!this.failed && end - at >= 9) {
      const length = (bytes[at] << 16) | (bytes[at + 1] << 8) | bytes[at + 2];
      if (length > DEFAULT_MAX_FRAME_BYTES) {
        this.#connectionError(H2_CODE.frameSizeError, `a frame of ${length} octets`);
        break;
      }
      if (end - at < 9 + length) break;
      const type = bytes[at + 3];
      const flags = bytes[at + 4];
      const streamId = readUint31(bytes, at + 5);
      this.#frame(type, flags, streamId, bytes.subarray(at + 9, at + 9 + length));
      at += 9 + length;
    }
    return at - start;
  }

  #frame(type: number, flags: number, streamId: number, payload: Uint8Array): void {
    const blockStream = this.#block.streamId;
    if (blockStream !== 0 && (type !== FRAME.continuation || streamId !== blockStream)) {
      return this.#connectionError(H2_CODE.protocolError, "a header block cut by another frame");
    }
    switch (type) {
      case FRAME.data:
        return this.#data(flags, streamId, payload);
      case FRAME.headers:
        return this.#headers(flags, streamId, payload);
      case FRAME.continuation:
        if (blockStream === 0) {
          return this.#connectionError(H2_CODE.protocolError, "CONTINUATION without HEADERS");
        }
        return this.#blockPart(this.#block.add(payload, (flags & FLAG.endHeaders) !== 0));
      case FRAME.rstStream:
        if (payload.length !== 4) {
          return this.#connectionError(H2_CODE.frameSizeError, "RST_STREAM");
        }
        if (streamId === 0) return this.#connectionError(H2_CODE.protocolError, "RST_STREAM on 0");
        return this.#close(streamId, readUint32(payload, 0));
      case FRAME.settings:
        return this.#settings(flags, streamId, payload);
      case FRAME.pushPromise:
        return this.#connectionError(H2_CODE.protocolError, "PUSH_PROMISE with push disabled");
      case FRAME.ping:
        if (payload.length !== 8) return this.#connectionError(H2_CODE.frameSizeError, "PING");
        if (!(flags & FLAG.ack)) this.#acknowledge(pingAckFrame(payload.slice()));
        return;
      case FRAME.goaway:
        if (payload.length < 8) return this.#connectionError(H2_CODE.frameSizeError, "GOAWAY");
        return this.#goaway(readUint31(payload, 0), readUint32(payload, 4));
      case FRAME.windowUpdate:
        return this.#windowUpdate(streamId, payload);
      default:
        return; // PRIORITY and unknown types: nothing to do (RFC 9113 §4.1, §5.5)
    }
  }

  #data(flags: number, streamId: number, payload: Uint8Array): void {
    if (streamId === 0) return this.#connectionError(H2_CODE.protocolError, "DATA on stream 0");
    const padding = flags & FLAG.padded ? payload[0] + 1 : 0;
    if (padding > payload.length) return this.#connectionError(H2_CODE.protocolError, "padding");
    // The whole payload counts against the windows, padding included (RFC 9113 §6.9).
    this.#consumedBytes += payload.length;
    if (this.#consumedBytes >= this.#windowBytes / 2) {
      this.#events.write(windowUpdateFrame(0, this.#consumedBytes));
      this.#consumedBytes = 0;
    }
    const stream = this.#streams.get(streamId);
    if (stream === undefined) return;
    if (payload.length > padding) {
      stream.events.onData(payload.length - padding, payload, padding > 0 ? 1 : 0);
    }
    if (flags & FLAG.endStream) return this.#close(streamId, H2_CODE.noError);
    stream.consumedBytes += payload.length;
    if (stream.consumedBytes >= this.#windowBytes / 2) {
      this.#events.write(windowUpdateFrame(streamId, stream.consumedBytes));
      stream.consumedBytes = 0;
    }
  }

  #headers(flags: number, streamId: number, payload: Uint8Array): void {
    if (streamId === 0) return this.#connectionError(H2_CODE.protocolError, "HEADERS on 0");
    let from = 0;
    let to = payload.length;
    if (flags & FLAG.padded) {
      from = 1;
      to -= payload[0];
    }
    if (flags & FLAG.priority) from += 5;
    if (from > to) return this.#connectionError(H2_CODE.protocolError, "HEADERS padding");
    const fragment = payload.subarray(from, to);
    const endsStream = (flags & FLAG.endStream) !== 0;
    this.#blockPart(
      this.#block.begin(streamId, fragment, endsStream, (flags & FLAG.endHeaders) !== 0),
    );
  }

  /** After a fragment of the block: a limit it broke ends the connection; its last ends it. */
  #blockPart(brokenLimit: string | undefined): void {
    if (brokenLimit !== undefined) {
      return this.#connectionError(H2_CODE.enhanceYourCalm, brokenLimit);
    }
    if (!this.#block.complete) return;
    const streamId = this.#block.streamId;
    const endsStream = this.#block.endsStream;
    const block = this.#block.take();
    const stream = this.#streams.get(streamId);
    // A stream whose request keeps its response has its fields decoded (a final head's kept).
    const kept = stream?.status === 0 ? stream.events.kept : undefined;
    const grpc = stream?.events.grpc === true;
    const head = stream?.status === 0;
    let status: number;
    try {
      status = kept === undefined
        ? this.#hpack.status(block, grpc)
        : this.#decodeInto(block, kept, grpc);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return this.#connectionError(H2_CODE.compressionError, `a header block: ${why}`);
    }
    if (stream === undefined) return;
    if (stream.status === 0) {
      if (!(status >= 100 && status <= 999)) {
        this.#streams.delete(streamId);
        this.#events.write(rstStreamFrame(streamId, H2_CODE.protocolError));
        return stream.events.onClose(MALFORMED_RESPONSE, streamId, false);
      }
      // An interim response (1xx) is not the answer: the final HEADERS follow.
      if (status >= 200) {
        stream.status = status;
        const retryAfterS = readsRetryAfter(status)
          ? retryAfterSeconds(this.#hpack.retryAfter, Date.now())
          : NaN;
        stream.events.onResponse(status, block.length, retryAfterS);
      } else stream.events.onInterim?.();
    }
    if (!endsStream) return;
    if (grpc) {
      const fromKept = kept !== undefined;
      stream.events.onTrailers!(
        fromKept ? this.#keptGrpcStatus : this.#hpack.grpcStatus,
        fromKept ? this.#keptGrpcMessage : this.#hpack.grpcMessage,
        head ? 0 : block.length,
      );
    }
    this.#close(streamId, H2_CODE.noError);
  }

  /**
   * Decodes `block` whole; a final head's fields go into `kept`. Returns its status (0: none).
   * `grpc`: its `grpc-status` and `grpc-message` are kept too (a trailers-only response's).
   */
  #decodeInto(block: Uint8Array, kept: KeptResponse, grpc: boolean): number {
    let status = "";
    const fields: [string, string][] = [];
    this.#keptGrpcStatus = this.#keptGrpcMessage = "";
    this.#hpack.decode(block, (name, value) => {
      if (name === ":status") status = value;
      else fields.push([name, value]);
      if (grpc && name === "grpc-status") this.#keptGrpcStatus = value;
      else if (grpc && name === "grpc-message") this.#keptGrpcMessage = value;
    });
    const code = /^[0-9]{3}$/.test(status) ? Number(status) : 0;
    if (code >= 200) { for (const [name, value] of fields) kept.field(name, value); }
    return code;
  }

  #close(streamId: number, code: number): void {
    const stream = this.#streams.get(streamId);
    if (stream === undefined) return;
    this.#streams.delete(streamId);
    stream.events.onClose(code, streamId, false);
  }

  #settings(flags: number, streamId: number, payload: Uint8Array): void {
    if (streamId !== 0) return this.#connectionError(H2_CODE.protocolError, "SETTINGS on a stream");
    if (flags & FLAG.ack) return;
    const settings = readSettings(payload);
    if ("code" in settings) return this.#connectionError(settings.code, settings.reason);
    const { initialWindowBytes, maxFrameBytes } = settings;
    if (initialWindowBytes !== undefined) {
      const delta = initialWindowBytes - this.#peerInitialWindowBytes;
      this.#peerInitialWindowBytes = initialWindowBytes;
      for (const s of this.#streams.values()) s.sendWindowBytes += delta;
      // RFC 9113 §6.9.2: a change that takes a stream's window past 2^31 - 1.
      if ([...this.#streams.values()].some((s) => s.sendWindowBytes > MAX_WINDOW_BYTES)) {
        return this.#connectionError(H2_CODE.flowControlError, "a stream window past 2^31 - 1");
      }
    }
    if (maxFrameBytes !== undefined) this.#peerMaxFrameBytes = maxFrameBytes;
    if (!this.#acknowledge(SETTINGS_ACK)) return;
    this.#events.onSettings(settings.maxConcurrentStreams);
    this.#flushBodies();
  }

  #goaway(lastStreamId: number, code: number): void {
    // A later GOAWAY may only lower the last stream id (RFC 9113 §6.8): a higher one is ignored.
    const last = this.goawayLastStreamId;
    this.goawayLastStreamId = last < 0 ? lastStreamId : Math.min(last, lastStreamId);
    const processed = this.goawayLastStreamId;
    this.#events.onGoaway(code, processed);
    for (const id of [...this.#streams.keys()]) if (id > processed) this.#close(id, code);
  }

  #windowUpdate(streamId: number, payload: Uint8Array): void {
    if (payload.length !== 4) return this.#connectionError(H2_CODE.frameSizeError, "WINDOW_UPDATE");
    const increment = readUint31(payload, 0);
    if (increment === 0) return this.#connectionError(H2_CODE.protocolError, "WINDOW_UPDATE of 0");
    // RFC 9113 §6.9.1: a window past 2^31 - 1 is a FLOW_CONTROL_ERROR, of the connection or
    // of the stream.
    if (streamId === 0) {
      this.#sendWindowBytes += increment;
      if (this.#sendWindowBytes > MAX_WINDOW_BYTES) {
        return this.#connectionError(H2_CODE.flowControlError, "a window past 2^31 - 1");
      }
    } else {
      const stream = this.#streams.get(streamId);
      if (stream === undefined) return;
      stream.sendWindowBytes += increment;
      if (stream.sendWindowBytes > MAX_WINDOW_BYTES) {
        this.#streams.delete(streamId);
        this.#events.write(rstStreamFrame(streamId, H2_CODE.flowControlError));
        return stream.events.onClose(MALFORMED_RESPONSE, streamId, false);
      }
    }
    this.#flushBodies();
  }

  /** Sends what the windows allow of the bodies waiting. */
  #flushBodies(): void {
    for (const s of this.#streams.values()) {
      if (s.pending !== undefined) this.#sendBody(s);
      if (this.#sendWindowBytes <= 0) return;
    }
  }

  #sendBody(stream: Stream): void {
    const body = stream.pending!;
    const n = Math.min(body.length, stream.sendWindowBytes, this.#sendWindowBytes);
    if (n <= 0) return;
    const last = n === body.length;
    this.#events.write(dataFrames(stream.id, body.subarray(0, n), last, this.#peerMaxFrameBytes));
    stream.sendWindowBytes -= n;
    this.#sendWindowBytes -= n;
    stream.pending = last ? undefined : body.subarray(n);
  }

  /** Writes an acknowledgement unless too many wait unsent already; false when it ended the connection. */
  #acknowledge(ack: Uint8Array): boolean {
    if (this.#queuedAcks >= MAX_QUEUED_ACKS) {
      this.#connectionError(
        H2_CODE.enhanceYourCalm,
        `the server sent over ${MAX_QUEUED_ACKS.toLocaleString("en")} PING and SETTINGS frames ` +
          "while reading none of their acknowledgements",
      );
      return false;
    }
    const waitingBytes = this.#events.write(ack);
    this.#queuedAcks = waitingBytes > 0 ? this.#queuedAcks + 1 : 0;
    return true;
  }

  #connectionError(code: number, reason: string): void {
    if (this.failed) return;
    this.#events.write(goawayFrame(code));
    this.failed = true;
    this.#events.onConnectionError(code, reason);
  }
}
