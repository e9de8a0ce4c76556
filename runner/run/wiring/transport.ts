/**
 * A run's I/O path, chosen once: the native path (libc sockets on an epoll loop, which is also
 * the run's waker; OpenSSL over them for https) or Deno's sockets (with the timing worker's
 * waker). It yields the waker and a connection of each wire a protocol (protocol.ts) asks for:
 * HTTP/1.1's, and a socket for each HTTP/2 session. Nothing in it runs per request.
 *
 * @module
 */
import { createAtomicsWaker } from "../../engine/mod.ts";
import {
  EpollLoop,
  ioChoice,
  NativeConnection,
  NativeH2Transport,
  nativeTarget,
  nativeTls,
} from "../../engine/mod.ts";
import { Http1Connection } from "../../engine/mod.ts";
import type { H2Transport } from "../../engine/mod.ts";
import type { BodySampler } from "../../engine/mod.ts";
import type { Clock, Connection, Waker } from "../../engine/mod.ts";

/** What every connection of a run tells the run, and shares with the others. */
export interface ConnectionHooks {
  /** A connect failed because the process ran out of file descriptors. */
  onOutOfDescriptors: () => void;
  /** A request failed because the server answered with HTTP/2 frames. */
  onHttp2Reply: () => void;
  /** Keeps the first body of each unexpected status, per label and code. */
  bodySampler: BodySampler;
}

/** The I/O path, opened: the run's waker and its connections' makers. */
export interface Transport {
  readonly waker: Waker;
  /** A new HTTP/1.1 connection to `url`'s origin. */
  http1(url: URL, clock: Clock): Connection;
  /** A new socket for each HTTP/2 session; undefined: the pool's own (Deno's, to its origin). */
  readonly h2?: () => H2Transport;
  /** Ends the waker (unless a test lent it) and frees the run's TLS context. */
  close(): void;
}

/** What opening the chosen path needs, known once the recorder is. */
export interface TransportOpening {
  clock: Clock;
  /** The engine-stall probe, called by the waker each time it wakes (see createAtomicsWaker). */
  onResume: (stallMs: number) => void;
  hooks: ConnectionHooks;
}

/** The path chosen, not yet opened. */
export interface TransportChoice {
  /** Which I/O path runs: `native` (libc sockets on epoll) or `deno` (Deno's sockets). */
  readonly io: "native" | "deno";
  open(opening: TransportOpening): Promise<Transport>;
}

/** What the choice reads: the run's options and its target. */
export interface TransportOptions {
  origin: URL;
  /** `auto`, `native` or `deno` (see runEngine's `io`). */
  io?: "auto" | "native" | "deno";
  /** The ALPN protocol an https target is asked for on the native path. */
  alpn: "h2" | "http/1.1";
  caCerts?: string[];
  /**
   * Whether an answer may be read in the next send's wake (native path, {@linkcode READ_DEFER_MS}
   * at most): not when the plan has journeys, whose next step falls due as an answer is read.
   */
  deferReads?: boolean;
  /** Tests: a waker on a fake clock; Deno's path then, with this waker. */
  waker?: Waker;
  /** Tests: connections of their own; Deno's path then, with these connections. */
  connect?: (url: URL, clock: Clock) => Connection;
}

/**
 * How long after the engine's last wake an answer may wait to be read in the next send's wake
 * (ms): at 500/s and above (a send at least every 2 ms) one wake serves a send and the answers
 * that arrived since, where each answer was a wake of its own (1.9 wakes a request at 1k/s).
 */
export const READ_DEFER_MS = 2;

/**
 * The run's I/O path: native where asked for or (`auto`) where it can run, unless a test lends
 * a waker or connections; Deno's sockets otherwise. Resolving the target happens here, before
 * the run starts any thread.
 */
export async function chooseTransport(o: TransportOptions): Promise<TransportChoice> {
  const io = ioChoice(o.io);
  const native = o.waker === undefined && o.connect === undefined && io !== "deno"
    ? await nativeTarget(o.origin, io)
    : undefined;
  if (native === undefined) return { io: "deno", open: (opening) => denoTransport(o, opening) };
  // https on the native path: OpenSSL's context for the run, freed at its end.
  const tls = nativeTls(native, o.alpn === "h2", o.caCerts);
  return {
    io: "native",
    open: ({ clock, onResume, hooks }) => {
      const readDeferMs = o.deferReads ? READ_DEFER_MS : 0;
      const loop = new EpollLoop({ libc: native.libc, clock, onResume, readDeferMs });
      const socketAddress = native.address;
      return Promise.resolve({
        waker: loop,
        http1: (_url, c) =>
          new NativeConnection({
            loop,
            clock: c,
            socketAddress,
            onOutOfDescriptors: hooks.onOutOfDescriptors,
            onHttp2Reply: hooks.onHttp2Reply,
            tls,
            bodySampler: hooks.bodySampler,
          }),
        h2: () =>
          new NativeH2Transport({
            loop,
            clock,
            socketAddress,
            onOutOfDescriptors: hooks.onOutOfDescriptors,
            ...(tls ? { tls } : {}),
          }),
        close: () => {
          loop.close();
          tls?.context.free(); // its connections hold references of their own until they close
        },
      });
    },
  };
}

/** Deno's sockets and TLS, timed by the timing worker's waker (or a test's). */
async function denoTransport(o: TransportOptions, opening: TransportOpening): Promise<Transport> {
  const { hooks } = opening;
  const waker = o.waker ?? await createAtomicsWaker({ onResume: opening.onResume });
  return {
    waker,
    http1: o.connect ??
      ((url: URL, c: Clock) =>
        new Http1Connection({
          url,
          clock: c,
          tls: { caCerts: o.caCerts },
          onOutOfDescriptors: hooks.onOutOfDescriptors,
          onHttp2Reply: hooks.onHttp2Reply,
          bodySampler: hooks.bodySampler,
        })),
    close: () => {
      if (!o.waker) waker.close();
    },
  };
}
