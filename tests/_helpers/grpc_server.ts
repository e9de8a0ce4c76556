/**
 * An in-test gRPC server on node:http2 (h2c, or h2 over TLS; 127.0.0.1, a free port): each call is read whole,
 * then answered as its test says ({@linkcode GrpcAnswer}: a delay, a grpc-status, a
 * trailers-only answer, k messages of a server stream, broken framing, a plain HTTP answer),
 * all on timers, so its event loop is never blocked; a stall window holds the calls that arrive
 * in it until it ends. Replies are HelloReply{message: "Hello"} unless the answer gives bytes.
 *
 * @module
 */
import { grpcTool, grpcToolsDir } from "./grpc_tools.ts";
import http2 from "node:http2";
import { fileURLToPath } from "node:url";
import { awaitListening, type TargetProcess } from "../../runner/target/spawn_target.ts";
import type { PreparedRequest } from "../../runner/engine/mod.ts";
import { GRPC_STATUS_BASE } from "../../runner/model/mod.ts";
import { H2_CERT } from "./http2_servers.ts";

const TLS_KEY = Deno.readTextFileSync(new URL("../testdata/tls/key.pem", import.meta.url));

/** The greeter's unary method's `:path`. */
export const SAY_HELLO = "/helloworld.Greeter/SayHello";

/** A fixed HelloRequest{name: "user-1"} as protobuf: `0a 06 "user-1"`. */
export const HELLO_REQUEST = Uint8Array.of(0x0a, 0x06, 0x75, 0x73, 0x65, 0x72, 0x2d, 0x31);

/** HelloReply{message: "Hello"} as protobuf. */
export const HELLO_REPLY = Uint8Array.of(0x0a, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f);

/** `message` with its gRPC prefix: flag 0, its length as 4 octets big-endian. */
export function grpcFramed(message: Uint8Array, flag = 0): Uint8Array {
  const out = new Uint8Array(5 + message.length);
  out[0] = flag;
  new DataView(out.buffer).setUint32(1, message.length);
  out.set(message, 5);
  return out;
}

/**
 * A gRPC call as the engine holds it: HTTP/1.1 bytes (as the plan layer renders a request) whose
 * body is the framed HELLO_REQUEST (or `message`); `path`, extra header lines
 * (`grpc-timeout: 1m`), and the bytes of the response to keep, as options.
 */
export function grpcRequest(
  origin: string,
  o: {
    path?: string;
    headers?: string[];
    keepBodyBytes?: number;
    timeoutMs?: number;
    /** The request message (protobuf, unframed); default HELLO_REQUEST. */
    message?: Uint8Array;
  } = {},
): PreparedRequest {
  const body = grpcFramed(o.message ?? HELLO_REQUEST);
  const lines = [
    `POST ${o.path ?? SAY_HELLO} HTTP/1.1`,
    `host: ${new URL(origin).host}`,
    "content-type: application/grpc",
    "te: trailers",
    ...(o.headers ?? []),
    `content-length: ${body.length}`,
  ];
  const head = new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n");
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head);
  bytes.set(body, head.length);
  return {
    labelIndex: 0,
    bytes,
    isHead: false,
    timeoutMs: o.timeoutMs ?? 5_000,
    expect: { codes: [GRPC_STATUS_BASE], classes: [] },
    ...(o.keepBodyBytes ? { keepBodyBytes: o.keepBodyBytes } : {}),
  };
}

/** One call as the server read it. */
export interface GrpcCall {
  /** Calls before it (0-based). */
  n: number;
  /** Its `:path` (`/helloworld.Greeter/SayHello`). */
  path: string;
  /** Its request body as sent (framed). */
  body: Uint8Array;
  headers: http2.IncomingHttpHeaders;
}

/** How to answer one call; every field optional (an OK unary reply at once). */
export interface GrpcAnswer {
  /** Wait this long after the call was read (ms). */
  delayMs?: number;
  /** The grpc-status (default 0, OK). */
  status?: number;
  /** A grpc-message (sent percent-encoded). */
  message?: string;
  /** One HEADERS with :status 200 and the grpc-status, ending the stream; no message. */
  trailersOnly?: boolean;
  /** Reply messages, each written on its own (default 1): a server stream's. */
  messages?: number;
  /** The reply message (default {@linkcode HELLO_REPLY}). */
  reply?: Uint8Array;
  /**
   * Broken framing: `compressed` sets the flag without grpc-encoding; `oversize` announces a
   * message of 64 MiB; `truncated` sends a prefix of 10 octets and 3 of them, then an OK status.
   */
  broken?: "compressed" | "oversize" | "truncated";
  /** A plain HTTP answer with this status and a text body: no grpc-status at all. */
  httpStatus?: number;
}

/** What the server does beside answering each call. */
export interface GrpcServerOptions {
  /** The answer to each call (default: an OK reply at once). */
  answer?: (call: GrpcCall) => GrpcAnswer;
  /**
   * A freeze of `stallMs` at the end of every `periodMs` from the server's start: a call read in
   * it waits for its end before its own delay.
   */
  stall?: { periodMs: number; stallMs: number };
  /** h2 over TLS (ALPN h2 only, the test certificate `H2_CERT`) instead of h2c. */
  tls?: boolean;
}

/** A started gRPC server; stopped when the test's scope ends. */
export interface GrpcServer extends AsyncDisposable {
  /** `http://127.0.0.1:PORT` (`https://` over TLS; no path). */
  readonly origin: string;
  readonly port: number;
  /** Calls read so far. */
  calls(): number;
  /** Calls read so far, by path. */
  paths(): Record<string, number>;
}

/** Starts a gRPC server. */
export async function grpcServer(options: GrpcServerOptions = {}): Promise<GrpcServer> {
  const server = options.tls
    ? http2.createSecureServer({ cert: H2_CERT, key: TLS_KEY, allowHTTP1: false })
    : http2.createServer();
  const answer = options.answer ?? ((): GrpcAnswer => ({}));
  const startMs = performance.now();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const live = new Set<http2.ServerHttp2Session>();
  const paths: Record<string, number> = {};
  let calls = 0;
  const later = (ms: number, fn: () => void) => {
    if (ms <= 0) return fn(); // no timer's turn of the loop for a call answered at once
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, Math.max(0, ms));
    timers.add(timer);
  };
  server.on("session", (session: http2.ServerHttp2Session) => {
    live.add(session);
    session.on("close", () => live.delete(session));
    session.on("error", () => {});
  });
  server.on("stream", (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => {
    stream.on("error", () => {});
    const chunks: Uint8Array[] = [];
    stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    stream.on("end", () => {
      const path = String(headers[":path"]);
      paths[path] = (paths[path] ?? 0) + 1;
      const call = { n: calls++, path, body: concat(chunks), headers };
      const a = answer(call);
      later(stallWaitMs(options.stall, performance.now() - startMs) + (a.delayMs ?? 0), () => {
        if (!stream.closed && !stream.destroyed) respond(stream, a);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    port,
    calls: () => calls,
    paths: () => ({ ...paths }),
    async [Symbol.asyncDispose]() {
      for (const t of timers) clearTimeout(t);
      for (const s of live) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** How long a call read at `atMs` waits for the stall it arrived in to end (0: none). */
function stallWaitMs(stall: GrpcServerOptions["stall"], atMs: number): number {
  if (stall === undefined) return 0;
  const inPeriodMs = atMs % stall.periodMs;
  const freezeMs = stall.periodMs - stall.stallMs;
  return inPeriodMs >= freezeMs ? stall.periodMs - inPeriodMs : 0;
}

function respond(stream: http2.ServerHttp2Stream, a: GrpcAnswer): void {
  const status = String(a.status ?? 0);
  const message = a.message === undefined ? {} : { "grpc-message": encodeURIComponent(a.message) };
  if (a.httpStatus !== undefined) {
    stream.respond({ ":status": a.httpStatus, "content-type": "text/plain" });
    stream.end("not gRPC");
    return;
  }
  if (a.trailersOnly) {
    stream.respond({
      ":status": 200,
      "content-type": "application/grpc",
      "grpc-status": status,
      ...message,
    }, { endStream: true });
    return;
  }
  stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
  stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": status, ...message }));
  const reply = a.reply ?? HELLO_REPLY;
  if (a.broken === "compressed") return void stream.end(grpcFramed(reply, 1));
  if (a.broken === "oversize") return void stream.end(Uint8Array.of(0, 4, 0, 0, 0, 1, 2, 3));
  if (a.broken === "truncated") return void stream.end(Uint8Array.of(0, 0, 0, 0, 10, 1, 2, 3));
  const framed = grpcFramed(reply);
  for (let i = 0; i < (a.messages ?? 1); i++) stream.write(framed);
  stream.end();
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Where grpc-go's example servers are: `.ci/install-tools` builds them there (grpc_tools.ts). */
export const GRPC_BIN: string = grpcToolsDir();

/** The path of grpc-go's example `name` (`greeter_server`), or undefined when it is not built. */
export function grpcExample(name: "greeter_server" | "route_guide_server"): string | undefined {
  return grpcTool(name);
}

/** A grpc-go example server in a process of its own, on `port`, its log read as it comes. */
export interface ExampleServer extends AsyncDisposable {
  readonly origin: string;
  /** Its log so far (greeter_server writes `Received: <name>` per call). */
  log(): string;
}

/** Starts grpc-go's example `path` with `-port N` (and `args`); resolves once it listens. */
export async function startExample(path: string, port: number, args: string[] = []) {
  const child = new Deno.Command(path, {
    args: ["-port", String(port), ...args],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let log = "";
  const decoder = new TextDecoder();
  const read = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) log += decoder.decode(chunk, { stream: true });
  };
  const reading = Promise.all([read(child.stdout), read(child.stderr)]);
  const server: ExampleServer = {
    origin: `http://127.0.0.1:${port}`,
    log: () => log,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await reading;
    },
  };
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return server;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  await server[Symbol.asyncDispose]();
  throw new Error(`${path} did not listen on ${port} within 5 s: ${log}`);
}

/**
 * grpc_target_main.ts in a child process (`--delay MS`, or `--stall MS --period MS`), on a free
 * loopback port; resolves once it listens. Its `url` is `http://127.0.0.1:PORT`.
 */
export function startGrpcTarget(args: string[]): Promise<TargetProcess> {
  const main = fileURLToPath(new URL("./grpc_target_main.ts", import.meta.url));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", "--allow-read", "--allow-env", main, ...args],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  return awaitListening(child, /listening on (http:\/\/\S+) /, "the gRPC target");
}
