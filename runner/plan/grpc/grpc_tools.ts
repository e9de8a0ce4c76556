/**
 * What gRPC support brings once loaded (grpc_support.ts imports this file on demand, so protobufjs
 * is never loaded for an HTTP plan): reading `.proto` files, finding a call, checking a message,
 * and the codec.
 *
 * @module
 */
export { rootJson } from "../../protobuf/mod.ts";
export { type GrpcCodec, grpcCodec, grpcFrame } from "./grpc_codec.ts";
export { lookupCall } from "./grpc_schema.ts";
export {
  MAX_PROTO_BYTES,
  type ProtoItem,
  type ProtoSchema,
  readProtoFiles,
} from "./proto_files.ts";
export { MessageShapes } from "./proto_json.ts";
export { checkMessage } from "./validate_message.ts";
