/**
 * One HTTP/2 connection of a run: a session (one TCP or TLS connection) shared by its stream
 * slots, opened on first use and opened again, lazily, after the server closed it or sent GOAWAY.
 * Each session keeps what befell it (GOAWAY, an error) in its own {@linkcode SessionState}, so a
 * stream that closes late is judged by the session it ran on.
 *
 * @module
 */
import type { ErrorKind } from "../../model/mod.ts";
import type { Clock } from "../types.ts";
import { H2Session } from "./h2_session.ts";
import type { H2Transport } from "./h2_transport.ts";

/** What happened to one session, read by the streams that ran on it. */
export interface SessionState {
  readonly session: H2Session;
  /** The GOAWAY's last stream id, or -1 while no GOAWAY arrived. */
  goawayLastStreamId: number;
  /** The kind of the error that ended the session, if one did. */
  failed: ErrorKind | undefined;
  /** Connected (and not closed since). */
  open: boolean;
}

/** Where and how an {@linkcode H2Connection} connects. */
export interface H2ConnectionOptions {
  origin: URL;
  clock: Clock;
  /** A new socket for each session. */
  transport: () => H2Transport;
  /** Stream and connection flow-control windows offered (bytes). */
  windowBytes: number;
  /** The server's SETTINGS_MAX_CONCURRENT_STREAMS, each time its SETTINGS arrive. */
  onSettings?: (maxConcurrentStreams: number | undefined) => void;
}

/** The kind of a session's connect or transport error, by its `code` or message. */
export function h2ErrorKind(error: unknown, tls: boolean): ErrorKind {
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const message = error instanceof Error ? error.message : String(error);
  if (code === "ECONNREFUSED" || /refused/i.test(message)) return "refused";
  if (/ECONNRESET|EPIPE|ECONNABORTED/.test(code) || /reset|broken pipe/i.test(message)) {
    return "reset";
  }
  if (tls && (/SSL|TLS|CERT|ALPN/i.test(code) || /certificate|handshake|alpn|tls/i.test(message))) {
    return "tls";
  }
  if (/ERR_HTTP2/.test(code)) return "protocol";
  return "other";
}

/**
 * Why a session ended before a request could start on it: `goaway` when the server sent GOAWAY
 * (it said it would process no new stream, whether or not it then closed), else its failure, or
 * `reset`. On both I/O paths alike, however the GOAWAY and the connect's end interleave.
 */
export function sessionEndKind(state: SessionState): ErrorKind {
  return state.goawayLastStreamId >= 0 ? "goaway" : state.failed ?? "reset";
}

/** One HTTP/2 connection, reconnecting lazily. */
export class H2Connection {
  readonly #o: H2ConnectionOptions;
  #current: SessionState | undefined;
  /** Every session not yet closed: a replaced one (after GOAWAY) may still carry streams. */
  readonly #live = new Set<SessionState>();
  #opening: Promise<ErrorKind | undefined> | undefined;
  /** The session opened last, kept after it closed. */
  #newest: SessionState | undefined;
  #slots = 0;
  /** Sessions that connected. */
  socketsOpened = 0;

  constructor(options: H2ConnectionOptions) {
    this.#o = options;
  }

  /** The session a stream may start on now (connected, no GOAWAY, not closed), if any. */
  get usable(): SessionState | undefined {
    const s = this.#current;
    return s !== undefined && s.open && s.goawayLastStreamId < 0 && !s.session.closed
      ? s
      : undefined;
  }

  /**
   * Why the newest session is not usable, for a request that found it so right after `open()`
   * succeeded (the server's first frames ended it meanwhile): {@linkcode sessionEndKind}.
   */
  get endKind(): ErrorKind {
    return this.#newest === undefined ? "reset" : sessionEndKind(this.#newest);
  }

  /** Connects unless a usable session exists; resolves with the failure kind, or undefined. */
  open(): Promise<ErrorKind | undefined> {
    if (this.usable) return Promise.resolve(undefined);
    if (this.#opening) return this.#opening;
    const tls = this.#o.origin.protocol === "https:";
    const state: SessionState = {
      session: undefined as unknown as H2Session,
      goawayLastStreamId: -1,
      failed: undefined,
      open: false,
    };
    const { windowBytes, clock } = this.#o;
    const session = new H2Session(this.#o.transport(), { windowBytes, clock }, {
      onSettings: (max) => this.#o.onSettings?.(max),
      onGoaway: (_code, last) => state.goawayLastStreamId = Math.max(0, last),
      onError: (error) => state.failed ??= h2ErrorKind(error, tls),
      onClose: () => {
        state.open = false;
        this.#live.delete(state);
        if (this.#current === state) this.#current = undefined;
      },
    });
    (state as { session: H2Session }).session = session;
    this.#current = state;
    this.#newest = state;
    this.#live.add(state);
    const opening = session.connected.then(
      () => {
        state.open = !session.closed;
        if (state.open) this.socketsOpened++;
        return state.open ? undefined : sessionEndKind(state);
      },
      (error: unknown) => {
        session.close();
        return state.failed ?? h2ErrorKind(error, tls);
      },
    ).finally(() => {
      if (this.#opening === opening) this.#opening = undefined;
    });
    this.#opening = opening;
    return opening;
  }

  /** A slot takes a share of this connection. */
  attach(): void {
    this.#slots++;
  }

  /** A slot lets go of its share; the last one closes the sessions. */
  release(): void {
    if (--this.#slots > 0) return;
    for (const state of this.#live) state.session.close();
    this.#live.clear();
    this.#current = undefined;
  }
}
