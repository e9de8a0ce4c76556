/**
 * gRPC calls in plans: the `grpc` section's `.proto` files, each request's `call:` and
 * `message:`, and the codec engine workers frame request messages and decode responses with.
 * protobufjs is loaded only on demand ({@linkcode loadGrpcSupport}): nothing here imports it
 * statically, so an HTTP plan's run never pays its start-up cost.
 *
 * @module
 */
export { type GrpcSupport, grpcSupport, loadGrpcCodec, loadGrpcSupport } from "./grpc_support.ts";
export { type GrpcRead, type GrpcSectionAt, readGrpc, requestGrpcSections } from "./read_grpc.ts";
export type { GrpcCodec } from "./grpc_codec.ts";
export { type DrawnValue, type Draws, messageDraws, varDraws } from "./message_draws.ts";
