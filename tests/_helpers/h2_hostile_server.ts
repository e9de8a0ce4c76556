/**
 * A frame-level HTTP/2 server that misbehaves on purpose (h2c, or h2 over TLS with ALPN `h2`;
 * 127.0.0.1, port 0): each connection is handed to a pattern that writes raw frames, told of
 * each request the client opens, and may stop reading so that the client's writes back up. For
 * the HTTP/2 hostile-server tests. Every pattern is bounded in time ({@linkcode HostileLink.live}
 * turns false at its deadline) and the server stops every connection when disposed.
 *
 * @module
 */
import {
  CLIENT_PREFACE,
  concatBytes,
  FLAG,
  FRAME,
  frame,
} from "../../runner/engine/http2/h2_frame.ts";
import { H2_CERT } from "./http2_servers.ts";

const KEY = Deno.readTextFileSync(new URL("../testdata/tls/key.pem", import.meta.url));

/** An empty SETTINGS frame: the server preface. */
export const SERVER_SETTINGS = frame(FRAME.settings, 0, 0, new Uint8Array(0));

/** HPACK `:status: 200` (static entry 8). */
export const STATUS_200 = Uint8Array.of(0x88);

/** One connection as a pattern sees it. */
export interface HostileLink {
  /** Writes `bytes`; false once the connection is gone (or past the deadline). */
  write(bytes: Uint8Array): Promise<boolean>;
  /** The id of the next stream the client opens, or undefined once the connection is gone. */
  nextRequest(): Promise<number | undefined>;
  /** Reads nothing more from the client from now on (its writes back up in the socket). */
  stopReading(): void;
  /** Still connected and before the pattern's deadline. */
  readonly live: boolean;
}

/** What a pattern does with one connection. */
export type HostilePattern = (link: HostileLink) => Promise<void>;

/** A started server: its URL and what it saw; stopped when the test's scope ends. */
export interface HostileServer extends AsyncDisposable {
  readonly url: string;
  /** Connections accepted. */
  connections(): number;
  /** Octets read from clients. */
  bytesRead(): number;
}

/** A response on `streamId`: HEADERS `:status: 200` and END_STREAM. */
export function answer(streamId: number): Uint8Array {
  return frame(FRAME.headers, FLAG.endHeaders | FLAG.endStream, streamId, STATUS_200);
}

/** `count` copies of `one`, as one write. */
export function repeated(one: Uint8Array, count: number): Uint8Array {
  return concatBytes(new Array<Uint8Array>(count).fill(one));
}

/** Starts the server; each connection runs `pattern` for at most `deadlineMs`. */
export function hostileServer(
  pattern: HostilePattern,
  options: { tls?: boolean; deadlineMs?: number } = {},
): Promise<HostileServer> {
  const deadlineMs = options.deadlineMs ?? 5_000;
  const listener = options.tls
    ? Deno.listenTls({
      hostname: "127.0.0.1",
      port: 0,
      cert: H2_CERT,
      key: KEY,
      alpnProtocols: ["h2"],
    })
    : Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const running = new Set<Promise<void>>();
  let accepted = 0;
  let read = 0;
  const serve = async (conn: Deno.Conn) => {
    const endsAtMs = performance.now() + deadlineMs;
    let gone = false;
    let reading = true;
    const requests: number[] = [];
    let wake: (() => void) | undefined;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    const live = () => !gone && performance.now() < endsAtMs;
    const stop = () => {
      gone = true;
      notify();
      try {
        conn.close();
      } catch { /* closed already */ }
    };
    const timer = setTimeout(stop, deadlineMs);
    const readLoop = async () => {
      const buffer = new Uint8Array(64 * 1024);
      let pending: Uint8Array = new Uint8Array(0);
      let prefaceLeft = CLIENT_PREFACE.length;
      while (live() && reading) {
        let n: number | null;
        try {
          n = await conn.read(buffer);
        } catch {
          n = null;
        }
        if (n === null) return stop();
        read += n;
        pending = concatBytes([pending, buffer.subarray(0, n)]);
        const skip = Math.min(prefaceLeft, pending.length);
        prefaceLeft -= skip;
        pending = pending.subarray(skip);
        while (pending.length >= 9) {
          const length = (pending[0] << 16) | (pending[1] << 8) | pending[2];
          if (pending.length < 9 + length) break;
          const id = new DataView(pending.buffer, pending.byteOffset + 5, 4).getUint32(0) &
            0x7fff_ffff;
          if (pending[3] === FRAME.headers) {
            requests.push(id);
            notify();
          }
          pending = pending.subarray(9 + length);
        }
      }
    };
    const link: HostileLink = {
      async write(bytes) {
        if (!live()) return false;
        try {
          for (let at = 0; at < bytes.length && live();) at += await conn.write(bytes.subarray(at));
          return live();
        } catch {
          stop();
          return false;
        }
      },
      async nextRequest() {
        while (requests.length === 0 && live()) {
          await new Promise<void>((resolve) => wake = resolve);
        }
        return live() ? requests.shift() : undefined;
      },
      stopReading: () => reading = false,
      get live() {
        return live();
      },
    };
    const reader = readLoop();
    try {
      await pattern(link);
    } catch { /* the client went away mid-write */ }
    // The pattern is done: keep the connection (and reading) until the client closes it.
    while (live()) await new Promise((resolve) => setTimeout(resolve, 20));
    clearTimeout(timer);
    stop();
    await reader;
  };
  const acceptLoop = async () => {
    for await (const conn of listener) {
      accepted++;
      conns.add(conn);
      const done = serve(conn).finally(() => conns.delete(conn));
      running.add(done);
      done.finally(() => running.delete(done));
    }
  };
  const accepting = acceptLoop().catch(() => {});
  const { port } = listener.addr as Deno.NetAddr;
  return Promise.resolve({
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}/`,
    connections: () => accepted,
    bytesRead: () => read,
    async [Symbol.asyncDispose]() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* closed already */ }
      }
      await accepting;
      await Promise.allSettled([...running]);
    },
  });
}
