/**
 * The one importer of `node:http2` (private to this folder): an HTTP/2 client session over one
 * TCP or TLS connection, reduced to what the engine needs: connect, a stream per request with its
 * status, DATA bytes and close code, the server's stream limit, GOAWAY, and the close.
 *
 * @module
 */
import http2 from "node:http2";

/** RST_STREAM and GOAWAY codes the engine tells apart (RFC 9113 §7). */
export const H2_CODE = { noError: 0, refusedStream: 7, cancel: 8 } as const;

/** The request head as HTTP/2 sends it: pseudo-headers first, names in lower case. */
export type H2Headers = Record<string, string | string[]>;

/** What a session tells its owner as it happens. */
export interface H2SessionEvents {
  /** The server's SETTINGS arrived (its `maxConcurrentStreams`, when it set one). */
  onSettings(maxConcurrentStreams: number | undefined): void;
  /** The server sent GOAWAY: streams above `lastStreamId` were not and will not be processed. */
  onGoaway(errorCode: number, lastStreamId: number): void;
  /** The session failed (socket, TLS or protocol error); its `code` when it has one. */
  onError(error: unknown): void;
  /** The session is closed: no stream on it is open any more. */
  onClose(): void;
}

/** What one stream tells its request. */
export interface H2StreamEvents {
  /** The response's HEADERS: its status and its header list's size (octets before HPACK). */
  onResponse(status: number, headerOctets: number): void;
  /** A DATA frame's payload arrived. */
  onData(bytes: number): void;
  /**
   * The stream closed: `rstCode` 0 after a complete response, else the RST_STREAM code;
   * `sessionGone` when its session was destroyed under it (the connection failed or closed).
   */
  onClose(rstCode: number, streamId: number | undefined, sessionGone: boolean): void;
}

/** An open stream: cancelling it resets it (RST_STREAM CANCEL). */
export interface H2Stream {
  cancel(): void;
}

/** How a session connects: `https:` offers ALPN `h2` only; `http:` is h2c with prior knowledge. */
export interface H2ConnectOptions {
  /** PEM certificates trusted besides the system's (https only). */
  caCerts?: readonly string[];
  /** The stream and connection flow-control windows this client offers (bytes). */
  windowBytes: number;
}

/**
 * One HTTP/2 client session. Connecting starts at construction; `connected` resolves once the
 * session is up (the TLS handshake agreed on `h2`), or rejects with the error that ended it.
 */
export class H2Session {
  readonly #session: http2.ClientHttp2Session;
  /** Resolves when connected; rejects with the connect error. */
  readonly connected: Promise<void>;

  constructor(origin: URL, options: H2ConnectOptions, events: H2SessionEvents) {
    const https = origin.protocol === "https:";
    const session = http2.connect(origin.origin, {
      settings: { initialWindowSize: options.windowBytes, enablePush: false },
      maxSessionMemory: 64,
      ...(https ? { ALPNProtocols: ["h2"], ca: [...(options.caCerts ?? [])] } : {}),
    });
    this.#session = session;
    this.connected = new Promise<void>((resolve, reject) => {
      session.once("connect", () => {
        // The connection window: the SETTINGS above set each stream's.
        try {
          session.setLocalWindowSize(options.windowBytes);
        } catch { /* a session already closing keeps the default */ }
        resolve();
      });
      session.once("error", reject);
      session.once("close", () => reject(new Error("the HTTP/2 session closed while connecting")));
    });
    this.connected.catch(() => {});
    session.on("remoteSettings", (s: http2.Settings) => events.onSettings(s.maxConcurrentStreams));
    session.on("goaway", (code: number, last: number) => events.onGoaway(code, last));
    session.on("error", (error: unknown) => events.onError(error));
    session.on("close", () => events.onClose());
  }

  /** True once the session is closed or closing: no new stream may start on it. */
  get closed(): boolean {
    return this.#session.closed || this.#session.destroyed;
  }

  /** Opens a stream carrying `headers` and `body` (none: the HEADERS end the stream). */
  request(headers: H2Headers, body: Uint8Array | undefined, events: H2StreamEvents): H2Stream {
    const stream = this.#session.request(headers, { endStream: body === undefined });
    stream.on("response", (h: http2.IncomingHttpHeaders) => {
      let octets = 0;
      for (const name in h) octets += name.length + String(h[name]).length;
      events.onResponse(Number(h[":status"]), octets);
    });
    stream.on("data", (chunk: Uint8Array) => events.onData(chunk.length));
    stream.on("error", () => {}); // the close that follows carries the code
    stream.on(
      "close",
      () => events.onClose(stream.rstCode ?? 0, stream.id, this.#session.destroyed),
    );
    if (body !== undefined) stream.end(body);
    return {
      cancel: () => {
        if (!stream.closed && !stream.destroyed) stream.close(H2_CODE.cancel);
      },
    };
  }

  /** Closes the session at once; open streams close with it. */
  close(): void {
    if (!this.#session.destroyed) this.#session.destroy();
  }
}
