/**
 * A minimal HTTP/1.1 server over raw TCP, for replies Deno.serve cannot give: a connection reset
 * (TCP RST), bytes that are not HTTP, or a clean close without a response. Built on `node:net`
 * because `socket.resetAndDestroy()` is the only runtime API that sends a real RST; Deno's own
 * `Deno.TcpConn` can only close with a FIN.
 *
 * @module
 */
import { type AddressInfo, createServer, type Socket } from "node:net";
import { parseRequestHead } from "./http1_request_head.ts";

/** How to answer one request. */
export type RawReply =
  | { kind: "response"; status: number; headers: Readonly<Record<string, string>>; body: string }
  | { kind: "reset" | "garbage" | "close" };

/** A listening {@linkcode listenRawHttp1} server. */
export interface RawHttp1Server {
  /** The bound address, e.g. `127.0.0.1`. */
  readonly hostname: string;
  readonly port: number;
  /** Resolves once the server has closed. */
  readonly finished: Promise<void>;
  /** Stops listening and drops every connection, answered or not. */
  close(): Promise<void>;
}

/** Bytes the `garbage` reply writes instead of a response. */
export const GARBAGE_BYTES: Uint8Array = new Uint8Array([
  0x00,
  0xff,
  ...new TextEncoder().encode("tailgate garbage: this is not HTTP\r\n\r\n"),
]);

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: "OK",
  400: "Bad Request",
  413: "Content Too Large",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
  505: "HTTP Version Not Supported",
};
const encoder = new TextEncoder();

/**
 * Listens on `hostname:port` and answers each request, in order per connection, with what
 * `handle` returns. Requests are read with keep-alive, `Connection: close` and `Content-Length`
 * bodies; a malformed request gets a 4xx/5xx and the connection is closed.
 */
export async function listenRawHttp1(options: {
  hostname: string;
  port: number;
  handle: () => Promise<RawReply>;
}): Promise<RawHttp1Server> {
  const state: ServerState = { closing: false, busy: new Set() };
  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    serveConnection(socket, options.handle, state);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port, host: options.hostname }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", () => {}); // accept errors after start drop one connection, not the server
  const finished = new Promise<void>((resolve) => server.once("close", () => resolve()));
  const address = server.address() as AddressInfo;
  return {
    hostname: address.address,
    port: address.port,
    finished,
    close() {
      state.closing = true;
      server.close();
      // A connection busy with a request closes once its answer is written.
      for (const socket of sockets) if (!state.busy.has(socket)) socket.destroy();
      return finished;
    },
  };
}

interface ServerState {
  closing: boolean;
  /** Connections with a request in hand. */
  busy: Set<Socket>;
}

function serveConnection(
  socket: Socket,
  handle: () => Promise<RawReply>,
  state: ServerState,
): void {
  socket.setNoDelay(true);
  socket.on("error", () => {}); // a client that went away needs no answer
  let buffered: Uint8Array = new Uint8Array(0);
  let peerEnded = false;
  const pump = async () => {
    if (state.busy.has(socket)) return;
    state.busy.add(socket);
    try {
      while (!state.closing && !socket.destroyed && !socket.writableEnded) {
        const head = parseRequestHead(buffered);
        if (head.kind === "incomplete") break;
        if (head.kind === "invalid") {
          socket.end(formatResponse(head.status, {}, `${head.reason}\n`, false, true));
          break;
        }
        const size = head.headBytes + head.contentLength;
        if (buffered.length < size) break;
        buffered = buffered.subarray(size);
        const reply = await handle();
        if (socket.destroyed) break;
        send(socket, reply, head.keepAlive && !state.closing, head.method !== "HEAD");
      }
      if (state.closing) socket.destroySoon();
      else if (peerEnded && !socket.writableEnded) socket.end();
    } catch {
      socket.destroy();
    } finally {
      state.busy.delete(socket);
    }
  };
  socket.on("data", (chunk: Uint8Array) => {
    buffered = concat(buffered, chunk);
    void pump();
  });
  socket.on("end", () => {
    peerEnded = true;
    void pump();
  });
}

function send(socket: Socket, reply: RawReply, keepAlive: boolean, withBody: boolean): void {
  switch (reply.kind) {
    case "reset":
      socket.resetAndDestroy();
      return;
    case "garbage":
      socket.end(GARBAGE_BYTES);
      return;
    case "close":
      socket.end();
      return;
    case "response":
      socket.write(formatResponse(reply.status, reply.headers, reply.body, keepAlive, withBody));
      if (!keepAlive) socket.end();
  }
}

function formatResponse(
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string,
  keepAlive: boolean,
  withBody: boolean,
): Uint8Array {
  const bodyBytes = encoder.encode(body);
  let head = `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Unknown"}\r\n` +
    `content-type: text/plain; charset=utf-8\r\ncontent-length: ${bodyBytes.length}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  if (!keepAlive) head += "connection: close\r\n";
  return withBody
    ? concat(encoder.encode(`${head}\r\n`), bodyBytes)
    : encoder.encode(`${head}\r\n`);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
