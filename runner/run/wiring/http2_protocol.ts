/**
 * HTTP/2 over a run's transport: the pool whose stream slots the dispatcher drives, on the
 * transport's sockets (the native path's, h2 with OpenSSL over them: its TLS context, its trust
 * store and ALPN `h2`) or the pool's own, Deno's sockets and TLS; and what the engine record says
 * of it.
 *
 * @module
 */
import { H2Pool, type H2PoolOptions } from "../../engine/mod.ts";
import { DEFAULT_WINDOW_MIB } from "../../model/mod.ts";
import type { Protocol } from "./protocol.ts";

/**
 * The run's HTTP/2 pool, its first connection opened and the server's SETTINGS awaited (at most
 * the connect timeout) to fix the streams per connection; a SETTINGS notice said.
 */
export const http2Protocol: Protocol = (o) => http2With(undefined, o);

/**
 * HTTP/2 as {@linkcode http2Protocol}, its stream slots made by `slot` (a protocol over HTTP/2,
 * as gRPC: grpc_protocol.ts); undefined: HTTP's.
 */
export async function http2With(
  slot: H2PoolOptions["slot"],
  o: Parameters<Protocol>[0],
): ReturnType<Protocol> {
  const { transport, plan } = o;
  const pool = new H2Pool({
    origin: o.origin,
    clock: o.clock,
    connections: o.connections,
    maxStreams: plan.load.maxStreams,
    windowBytes: (plan.load.windowMib ?? DEFAULT_WINDOW_MIB) * 1024 * 1024,
    caCerts: o.caCerts,
    requests: o.requests,
    ...(transport.h2 ? { transport: transport.h2 } : {}),
    bodySampler: o.bodySampler,
    ...(slot ? { slot } : {}),
  });
  const streams = await pool.settle(o.connectTimeoutMs, transport.waker);
  const notice = pool.settingsNotice();
  if (notice) o.onNotice?.(notice);
  return {
    streams,
    connect: () => pool.slot(),
    peakConnections: () => pool.connectionsMade,
    // The streams taken, the server's limit, the window offered.
    record: () => ({
      http2: {
        streamsPerConnection: pool.streams,
        windowBytes: pool.windowBytes,
        ...(pool.serverMaxStreams === undefined ? {} : { serverMaxStreams: pool.serverMaxStreams }),
      },
    }),
  };
}
