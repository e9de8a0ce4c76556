/**
 * gRPC for the engine (issue 46): a call is an HTTP/2 stream (runner/engine/http2/), sent as
 * HTTP/2 sends a request; this room reads its answer: the length-prefixed messages of its DATA
 * (`grpc_message_reader.ts`) and the `grpc-status` of its trailers, settled as the call's status
 * by `GrpcStreamSlot`, the stream slot an `H2Pool` makes for a gRPC plan; and the preflight
 * that tells a gRPC server from another HTTP/2 one (`grpc_target_check.ts`).
 *
 * @module
 */
export { GRPC_MAX_MESSAGE_BYTES, GrpcMessageReader } from "./grpc_message_reader.ts";
export { grpcCode, GrpcStreamSlot } from "./grpc_stream_slot.ts";
export { checkGrpcTarget, HEALTH_CHECK_PATH } from "./grpc_target_check.ts";
