/**
 * The built-in known-truth target: an HTTP server whose latency and failures follow
 * {@linkcode decideResponse} exactly, for demos, tests and calibrating a load-test pipeline.
 *
 * Transport: Deno.serve for every mode but `faults`. `faults` must reset connections, write bytes
 * that are not HTTP and close without answering, none of which a Deno.serve handler can do (an
 * error response becomes a 500, a failing body stream a truncated 200), so it runs on the raw TCP
 * server of raw_http1_server.ts. That server needs `node:net`, whose listen is asynchronous, which
 * is why {@linkcode startTarget} returns a promise for every mode.
 *
 * @module
 */
import { createAtomicsWaker } from "../engine/mod.ts";
import { PERFORMANCE_CLOCK } from "../engine/mod.ts";
import { PreciseSleeper } from "./precise_sleeper.ts";
import { listenRawHttp1, type RawReply } from "./raw_http1_server.ts";
import {
  resolveTargetOptions,
  type TargetConfig,
  type TargetOptions,
  TargetOptionsError,
} from "./target_options.ts";
import { CapacityQueue, decideResponse, type TargetDecision } from "./target_timing.ts";
import { problemText } from "../model/mod.ts";

/** A running target; dispose of it (or call `shutdown`) to stop it. */
export interface TargetServer extends AsyncDisposable {
  /** The bound address, e.g. `127.0.0.1`. */
  readonly hostname: string;
  /** The bound TCP port (the one picked when 0 was asked for). */
  readonly port: number;
  /** `http://127.0.0.1:PORT/` (IPv6 in brackets). */
  readonly url: string;
  /** The options in effect, defaults applied. */
  readonly config: TargetConfig;
  /** The clock reading (ms) that stall periods and trend growth count from. */
  readonly startedAtMs: number;
  /** Resolves once the server has stopped. */
  readonly finished: Promise<void>;
  /** Stops the server: requests still waiting are answered 503 at once, connections closed. */
  shutdown(): Promise<void>;
}

/** The body of every 200. */
export const HELLO_BODY = "hello\n";

/**
 * Starts the target. Every response carries `x-tailgate-index` (arrival order) and
 * `x-tailgate-delay-ms` (the latency the server chose); a 500 fault also `x-tailgate-fault`.
 * Rejects with {@linkcode TargetOptionsError} for invalid options (e.g. a non-loopback hostname
 * without `listenAny`) or a port already in use.
 */
export async function startTarget(options: TargetOptions): Promise<TargetServer> {
  const resolved = resolveTargetOptions(options);
  if (!resolved.ok) throw new TargetOptionsError(resolved.problems.map(problemText));
  const config = resolved.value;
  const now = options.now ?? (() => performance.now());
  const sleeper = new PreciseSleeper(await createAtomicsWaker(), PERFORMANCE_CLOCK);
  const startedAtMs = now();
  let nextIndex = 0;
  const queue = new CapacityQueue(config.servers, config.delayMs);
  const handle = async (): Promise<RawReply> => {
    const arrivedMs = PERFORMANCE_CLOCK.nowMs();
    const decision = decideResponse(config, nextIndex++, now() - startedAtMs, queue);
    const slept = decision.delayMs <= 0 || await sleeper.sleepUntil(arrivedMs + decision.delayMs);
    return replyTo(decision, slept);
  };
  let listener;
  try {
    listener = await listen(config, handle);
  } catch (e) {
    sleeper.close();
    throw e;
  }
  const host = listener.hostname.includes(":") ? `[${listener.hostname}]` : listener.hostname;
  const shutdown = () => {
    sleeper.close();
    return listener.close();
  };
  return {
    hostname: listener.hostname,
    port: listener.port,
    url: `http://${host}:${listener.port}/`,
    config,
    startedAtMs,
    finished: listener.finished,
    shutdown,
    [Symbol.asyncDispose]: shutdown,
  };
}

async function listen(config: TargetConfig, handle: () => Promise<RawReply>) {
  try {
    return config.mode === "faults"
      ? await listenRawHttp1({ hostname: config.hostname, port: config.port, handle })
      : serveWithDeno(config, handle);
  } catch (error) {
    const inUse = error instanceof Deno.errors.AddrInUse ||
      (error as { code?: string }).code === "EADDRINUSE";
    if (!inUse) throw error;
    throw new TargetOptionsError([
      `port ${config.port} on ${config.hostname} is already in use: choose another port, ` +
      "or 0 for a free one",
    ]);
  }
}

function replyTo(decision: TargetDecision, slept: boolean): RawReply {
  const headers = {
    "x-tailgate-index": String(decision.index),
    "x-tailgate-delay-ms": String(Number(decision.delayMs.toFixed(3))),
  };
  if (!slept) {
    return { kind: "response", status: 503, headers, body: "tailgate target shutting down\n" };
  }
  if (decision.fault === undefined) {
    return { kind: "response", status: 200, headers, body: HELLO_BODY };
  }
  if (decision.fault !== "500") return { kind: decision.fault };
  return {
    kind: "response",
    status: 500,
    headers: { ...headers, "x-tailgate-fault": "500" },
    body: "tailgate fault: 500\n",
  };
}

function serveWithDeno(config: TargetConfig, handle: () => Promise<RawReply>) {
  const server = Deno.serve({
    hostname: config.hostname,
    port: config.port,
    onListen: () => {}, // the caller prints its own line
  }, async () => {
    const reply = await handle();
    if (reply.kind !== "response") throw new Error(`Deno.serve cannot send a ${reply.kind}`);
    return new Response(reply.body, {
      status: reply.status,
      headers: { ...reply.headers, "content-type": "text/plain; charset=utf-8" },
    });
  });
  return {
    hostname: server.addr.hostname,
    port: server.addr.port,
    finished: server.finished,
    close: () => server.shutdown(),
  };
}
