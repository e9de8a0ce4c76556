/**
 * An in-process HTTP/2 server (node:http2, h2c or h2 over TLS, 127.0.0.1, port 0) whose every
 * stream is handed to a behaviour: answer after a delay, reset it, refuse it, or send GOAWAY. For
 * the engine's HTTP/2 tests.
 *
 * @module
 */
import http2 from "node:http2";
import { H2_CERT } from "./http2_servers.ts";

const KEY = Deno.readTextFileSync(new URL("../testdata/tls/key.pem", import.meta.url));

/** What the behaviour may do with stream `n` (0-based, in arrival order). */
export interface StreamControl {
  /** Its index among the streams the server received. */
  n: number;
  /** ms since the server started (performance.now based). */
  atMs: number;
  /** Answers `status` with `body`, after `delayMs` (0: at once). */
  answer(status?: number, body?: string, delayMs?: number): void;
  /**
   * Sends the HEADERS (`status`, `headers`) at once, then `body` in a DATA frame after
   * `bodyDelayMs`: a first byte well ahead of the last.
   */
  answerSlowBody(
    status: number,
    headers: Record<string, string>,
    body: string,
    bodyDelayMs: number,
  ): void;
  /** Resets the stream with an RST_STREAM code (node:http2 constants). */
  reset(code: number): void;
  /** Sends GOAWAY on the stream's session with `code`, naming `lastStreamId` (default: this one − 2). */
  goaway(code: number, lastStreamId?: number): void;
  /** This stream's id. */
  id: number;
  /** The request's headers, pseudo-headers included. */
  headers: http2.IncomingHttpHeaders;
  /** The request body as text (empty without one); complete when the behaviour runs. */
  body: string;
}

/** A started server: its URL, what it saw; closed when the test's scope ends. */
export interface BehaviourServer extends AsyncDisposable {
  readonly url: string;
  /** Streams received. */
  streams(): number;
  /** Sessions (connections) accepted. */
  sessions(): number;
  /** The most streams open at once on one session. */
  peakStreams(): number;
  /** The client's SETTINGS_INITIAL_WINDOW_SIZE, as its last SETTINGS gave it (undefined: none yet). */
  clientWindowBytes(): number | undefined;
}

/** Starts the server: h2c, or h2 over TLS (ALPN h2 only, the test certificate). */
export async function behaviourServer(
  behaviour: (s: StreamControl) => void,
  options: { tls?: boolean; maxConcurrentStreams?: number } = {},
): Promise<BehaviourServer> {
  const settings = options.maxConcurrentStreams === undefined
    ? {}
    : { maxConcurrentStreams: options.maxConcurrentStreams };
  const server = options.tls
    ? http2.createSecureServer({ cert: H2_CERT, key: KEY, allowHTTP1: false, settings })
    : http2.createServer({ settings });
  const startMs = performance.now();
  let streams = 0;
  let sessions = 0;
  let peak = 0;
  let clientWindowBytes: number | undefined;
  const open = new Map<unknown, number>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const live = new Set<http2.ServerHttp2Session>();
  server.on("session", (session: http2.ServerHttp2Session) => {
    sessions++;
    live.add(session);
    session.on("remoteSettings", (settings: http2.Settings) => {
      clientWindowBytes = settings.initialWindowSize;
    });
    session.on("close", () => live.delete(session));
    session.on("error", () => {});
  });
  server.on("stream", (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => {
    const session = stream.session!;
    open.set(session, (open.get(session) ?? 0) + 1);
    peak = Math.max(peak, open.get(session)!);
    stream.on("close", () => open.set(session, open.get(session)! - 1));
    stream.on("error", () => {});
    const n = streams++;
    const atMs = performance.now() - startMs;
    const respond = (status: number, body: string) => {
      if (stream.closed || stream.destroyed) return;
      stream.respond({ ":status": status, "content-type": "text/plain" });
      stream.end(body);
    };
    let body = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => body += chunk);
    const control = () =>
      behaviour({
        n,
        id: stream.id!,
        atMs,
        headers,
        body,
        answer: (status = 200, text = "ok", delayMs = 0) => {
          if (delayMs <= 0) return respond(status, text);
          const timer = setTimeout(() => {
            timers.delete(timer);
            respond(status, text);
          }, delayMs);
          timers.add(timer);
        },
        answerSlowBody: (status, extra, text, bodyDelayMs) => {
          if (stream.closed || stream.destroyed) return;
          stream.respond({ ":status": status, "content-type": "text/plain", ...extra });
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (!stream.closed && !stream.destroyed) stream.end(text);
          }, bodyDelayMs);
          timers.add(timer);
        },
        reset: (code) => stream.close(code),
        goaway: (code, last = stream.id! - 2) => session.goaway(code, Math.max(0, last)),
      });
    // A request without a body has ended already; one with a body is read whole first.
    if (stream.readableEnded || stream.endAfterHeaders) control();
    else stream.on("end", control);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}/`,
    streams: () => streams,
    sessions: () => sessions,
    peakStreams: () => peak,
    clientWindowBytes: () => clientWindowBytes,
    async [Symbol.asyncDispose]() {
      for (const t of timers) clearTimeout(t);
      for (const s of live) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
