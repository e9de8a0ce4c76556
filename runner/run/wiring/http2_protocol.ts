/**
 * An HTTP/2 run's connections, as runEngine wires them: the pool whose stream slots the
 * dispatcher drives, on the native path's sockets where the run takes it (h2 with OpenSSL over
 * them: the native target's TLS context, its trust store and ALPN `h2`) and on Deno's sockets and
 * TLS elsewhere; and what the engine record says of it.
 *
 * @module
 */
import type { Clock, PreparedRequest } from "../../engine/types.ts";
import type { BodySampler } from "../../engine/body_sample.ts";
import { H2Pool } from "../../engine/http2/mod.ts";
import { type EpollLoop, NativeH2Transport, type TlsContext } from "../../engine/native/mod.ts";
import { DEFAULT_WINDOW_MIB } from "../../model/run_result.ts";
import type { ResolvedPlan } from "../../plan/types.ts";

/** What {@linkcode http2Pool} needs. */
export interface Http2PoolOptions {
  origin: URL;
  clock: Clock;
  plan: ResolvedPlan;
  /** This engine's share of the plan's connections. */
  connections: number;
  requests: readonly PreparedRequest[];
  caCerts?: string[];
  /** The native path's loop, the target's address and its TLS (h2), when the run takes it. */
  native?: {
    loop: EpollLoop;
    socketAddress: Uint8Array;
    tls?: { context: TlsContext; host: string };
  };
  onOutOfDescriptors: () => void;
  /** Keeps the first body of each unexpected status, per label and code. */
  bodySampler?: BodySampler;
}

/** The run's HTTP/2 pool; nothing connects until `pool.settle()`. */
export function http2Pool(o: Http2PoolOptions): H2Pool {
  const { origin, native } = o;
  const transport = native === undefined ? undefined : () =>
    new NativeH2Transport({
      loop: native.loop,
      clock: o.clock,
      socketAddress: native.socketAddress,
      onOutOfDescriptors: o.onOutOfDescriptors,
      ...(native.tls ? { tls: native.tls } : {}),
    });
  return new H2Pool({
    origin,
    clock: o.clock,
    connections: o.connections,
    maxStreams: o.plan.load.maxStreams,
    windowBytes: (o.plan.load.windowMib ?? DEFAULT_WINDOW_MIB) * 1024 * 1024,
    caCerts: o.caCerts,
    requests: o.requests,
    ...(transport ? { transport } : {}),
    ...(o.bodySampler ? { bodySampler: o.bodySampler } : {}),
  });
}

/** The engine record's `http2`: the streams taken, the server's limit, the window offered. */
export function http2Record(
  pool: H2Pool,
): { streamsPerConnection: number; serverMaxStreams?: number; windowBytes: number } {
  return {
    streamsPerConnection: pool.streams,
    windowBytes: pool.windowBytes,
    ...(pool.serverMaxStreams === undefined ? {} : { serverMaxStreams: pool.serverMaxStreams }),
  };
}
