/**
 * HTTP/2 for the engine (issue 33): h2 over TLS (ALPN `h2` only) and h2c with prior knowledge,
 * framed by tailgate itself (`h2_client_protocol.ts`, with the HPACK room `hpack/`) in a session
 * (`h2_session.ts`) over a transport: Deno's sockets (`h2_deno_transport.ts`) or, for h2c, the
 * native path's (runner/engine/native/native_h2_transport.ts, which implements `H2Transport`).
 * A run's connections each carry up to `streams` concurrent streams; each stream slot is a
 * `Connection` the dispatcher drives as it drives an HTTP/1.1 connection, so queue wait, timeouts
 * and counts work the same.
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
export { type H2Request, h2Request, H2RequestEncoder } from "./h2_request.ts";
export { h2AlpnProblem, h2AlpnRefused, probeH2c, refusedAlpn } from "./h2_target_check.ts";
export { H2_READ_BYTES, type H2Receiver, type H2Transport } from "./h2_transport.ts";
export { concatBytes } from "./h2_frame.ts";
export { H2SlotBase, type H2SlotEvents, type H2SlotOptions } from "./h2_slot_base.ts";
export { streamErrorKind } from "./h2_stream_slot.ts";
export { H2_CODE, H2Session } from "./h2_session.ts";
export { H2DenoTransport } from "./h2_deno_transport.ts";
