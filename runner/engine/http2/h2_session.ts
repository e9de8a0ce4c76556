/**
 * One HTTP/2 client session: {@linkcode H2ClientProtocol} (the protocol, without I/O) over one
 * {@linkcode H2Transport} (the socket). It opens streams, closes itself after a GOAWAY once its
 * last stream is done (or at once on an error), and tells when the bytes being read reached the
 * socket, so a stream completes at its response's arrival rather than when the loop got to it.
 *
 * @module
 */
import type { Clock } from "../types.ts";
import { H2ClientProtocol, type H2StreamEvents, MALFORMED_RESPONSE } from "./h2_client_protocol.ts";
import { H2_CODE } from "./h2_frame.ts";
import type { H2Transport } from "./h2_transport.ts";

export { H2_CODE, type H2StreamEvents, MALFORMED_RESPONSE };

/** What a session tells its owner as it happens. */
export interface H2SessionEvents {
  /** The server's SETTINGS arrived (its `maxConcurrentStreams`, when it set one). */
  onSettings(maxConcurrentStreams: number | undefined): void;
  /** The server sent GOAWAY: streams above `lastStreamId` were not and will not be processed. */
  onGoaway(errorCode: number, lastStreamId: number): void;
  /** The session failed (socket, TLS or protocol error). */
  onError(error: unknown): void;
  /** The session is closed: no stream on it is open any more. */
  onClose(): void;
}

/** What a session needs besides its transport. */
export interface H2SessionOptions {
  /** The stream and connection flow-control windows this client offers (bytes). */
  windowBytes: number;
  clock: Clock;
}

/** A connection error this side found: its HTTP/2 error code and what was wrong. */
export class H2ProtocolError extends Error {
  /** Read by `h2ErrorKind`: a protocol error. */
  readonly code = "ERR_HTTP2_PROTOCOL";
  constructor(readonly h2Code: number, reason: string) {
    super(`HTTP/2 connection error ${h2Code}: ${reason}`);
  }
}

/**
 * One HTTP/2 client session. Connecting starts at construction; `connected` resolves once the
 * transport is up and the preface written, or rejects with the error.
 */
export class H2Session {
  readonly connected: Promise<void>;
  readonly #events: H2SessionEvents;
  readonly #protocol: H2ClientProtocol;
  readonly #transport: H2Transport;
  readonly #clock: Clock;
  #open = false;
  #gone = false;
  /** While bytes are being read: when they arrived; else NaN. */
  #arrivedMs = NaN;

  constructor(transport: H2Transport, options: H2SessionOptions, events: H2SessionEvents) {
    this.#events = events;
    this.#transport = transport;
    this.#clock = options.clock;
    this.#protocol = new H2ClientProtocol(options.windowBytes, {
      write: (bytes) => transport.write(bytes),
      onSettings: (max) => events.onSettings(max),
      onGoaway: (code, last) => {
        events.onGoaway(code, last);
        this.#closeIfDone();
      },
      onConnectionError: (code, reason) => {
        events.onError(new H2ProtocolError(code, reason));
        this.#shutdown();
      },
    });
    this.connected = this.#connect();
    this.connected.catch(() => {});
  }

  /** True once the session is closed or closing: no new stream may start on it. */
  get closed(): boolean {
    return this.#gone || this.#protocol.closed;
  }

  /** When the bytes being read reached the socket, or now between reads (engine clock, ms). */
  get nowMs(): number {
    return Number.isNaN(this.#arrivedMs) ? this.#clock.nowMs() : this.#arrivedMs;
  }

  /**
   * Opens a stream with header block `block` and `body` and returns its id; throws when the
   * session is closed.
   */
  request(block: Uint8Array, body: Uint8Array | undefined, events: H2StreamEvents): number {
    if (!this.#open || this.closed) throw new RangeError("the HTTP/2 session is not open");
    return this.#protocol.request(block, body, events);
  }

  /** Gives stream `id` up: RST_STREAM CANCEL, and nothing more is reported of it. */
  cancel(id: number): void {
    this.#protocol.cancel(id);
    this.#closeIfDone();
  }

  /** Closes the session at once; open streams close with it (`sessionGone`). */
  close(): void {
    this.#shutdown();
  }

  async #connect(): Promise<void> {
    try {
      await this.#transport.connect({
        onBytes: (buffer, start, end, arrivedMs) => {
          this.#arrivedMs = arrivedMs;
          try {
            return this.#protocol.receive(buffer, start, end);
          } finally {
            this.#arrivedMs = NaN;
            this.#closeIfDone();
          }
        },
        onEnd: () => this.#shutdown(),
        onError: (error) => {
          if (this.#gone) return;
          this.#events.onError(error);
          this.#shutdown();
        },
      });
    } catch (error) {
      this.#shutdown();
      throw error;
    }
    if (this.#gone) throw new Error("the HTTP/2 session closed while connecting");
    this.#open = true;
    this.#protocol.start();
  }

  /** After GOAWAY (or with its stream ids used up) the session ends with its last stream. */
  #closeIfDone(): void {
    const p = this.#protocol;
    if (!this.#gone && p.closed && !p.failed && p.openStreams === 0) this.#shutdown();
  }

  #shutdown(): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#transport.close();
    this.#protocol.fail();
    this.#events.onClose();
  }
}
