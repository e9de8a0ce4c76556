/**
 * HTTP/2 for the engine (issue 33): h2 over TLS (ALPN `h2` only) and h2c with prior knowledge,
 * framed by tailgate itself (`h2_client_protocol.ts`, with the HPACK room `hpack/`) over Deno's
 * sockets (`_h2_client.ts`). A run's connections each carry up to
 * `streams` concurrent streams; each stream slot is a `Connection` the dispatcher drives as it
 * drives an HTTP/1.1 connection, so queue wait, timeouts and counts work the same.
 *
 * @module
 */
export {
  H2_WINDOW_BYTES,
  H2Pool,
  type H2PoolOptions,
  MAX_STREAMS_DEFAULT,
  streamsPerConnection,
} from "./h2_pool.ts";
export { type H2Request, h2Request } from "./h2_request.ts";
export type { H2Headers } from "./h2_request.ts";
export { h2AlpnProblem, h2AlpnRefused, probeH2c, refusedAlpn } from "./h2_target_check.ts";
