/**
 * A run's wiring, chosen once: a transport (`transport.ts`: the native path's epoll loop and libc
 * sockets, or Deno's sockets and the timing worker) and a protocol over it (`protocol.ts`;
 * HTTP/1.1 and HTTP/2, picked by the plan's `load.http`, and gRPC over HTTP/2 for a plan with
 * `grpc`, in `protocol_choice.ts`). A new protocol
 * is one file and one entry of `PROTOCOLS`, not a branch of runEngine.
 *
 * @module
 */
export {
  chooseTransport,
  type ConnectionHooks,
  type Transport,
  type TransportChoice,
} from "./transport.ts";
export type { Protocol, ProtocolOptions, WiredProtocol } from "./protocol.ts";
export { protocolOf, PROTOCOLS } from "./protocol_choice.ts";
