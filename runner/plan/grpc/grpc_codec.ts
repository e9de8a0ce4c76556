/**
 * Messages to and from the wire, built from the plan's schema ({@linkcode PlanGrpcSchema}, plain
 * data an engine worker is given): a request message's proto3 JSON text encoded as protobuf and
 * framed for gRPC (1 byte compressed flag 0, 4 bytes big-endian length, the message), and a
 * response message decoded into its JSON form for checks (int64 as text, enums by name, bytes as
 * base64). A rendered message is encoded once per distinct text: a bounded cache per type.
 *
 * @module
 */
import type { PlanGrpcSchema } from "../types.ts";
import { decode, encode, type ProtoRoot, rootFromJson } from "../../protobuf/mod.ts";
import { MessageShapes, toProtoObject } from "./proto_json.ts";

/** How many distinct rendered messages of one type are kept encoded before the cache restarts. */
export const GRPC_ENCODE_CACHE_ENTRIES = 4096;

/** The largest message a frame's 4-byte length can say. */
const MAX_FRAME_MESSAGE_BYTES = 0xffff_ffff;

/** Encodes request messages and decodes response messages of one plan's schema. */
export interface GrpcCodec {
  /** Message `json` (proto3 JSON text) of message type `type`, framed: 5-byte prefix + protobuf. */
  frame(type: string, json: string): Uint8Array;
  /**
   * The same for a rendered message (the first `length` bytes of `json`, UTF-8), for the request
   * renderer: encoded once per distinct text, then served from a bounded cache.
   */
  encodeBody(type: string, json: Uint8Array, length: number): Uint8Array;
  /** A message (prefix stripped) of `type` in its JSON form; throws on bytes that are not one. */
  decode(type: string, message: Uint8Array): unknown;
  /** For checks: `type`'s decoder, undefined (not a throw) for bytes that are no such message. */
  decoder(type: string): (message: Uint8Array) => { value: unknown } | undefined;
}

/**
 * A codec for `schema`'s messages.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadGrpcSupport } from "./grpc_support.ts";
 * const { grpcCodec } = await loadGrpcSupport();
 * const descriptor = {
 *   nested: { hello: { nested: { Hi: { fields: { name: { type: "string", id: 1 } } } } } },
 * };
 * const codec = grpcCodec({ files: ["hello.proto"], descriptor, tls: false });
 * const framed = codec.frame("hello.Hi", '{"name":"a"}');
 * assert.deepEqual([...framed], [0, 0, 0, 0, 3, 0x0a, 1, 0x61]);
 * assert.deepEqual(codec.decode("hello.Hi", framed.subarray(5)), { name: "a" });
 * ```
 */
export function grpcCodec(schema: PlanGrpcSchema): GrpcCodec {
  const root: ProtoRoot = rootFromJson(schema.descriptor);
  const shapes = new MessageShapes(root);
  const caches = new Map<string, Map<string, Uint8Array>>();
  const text = new TextDecoder();
  const frame = (type: string, json: string): Uint8Array => {
    if (shapes.fields(type) === undefined) {
      throw new Error(`no message type ${type} in the plan's .proto files`);
    }
    return grpcFrame(encode(root, type, toProtoObject(shapes, type, JSON.parse(json))));
  };
  return {
    frame,
    encodeBody(type, json, length) {
      const key = text.decode(json.subarray(0, length));
      let cache = caches.get(type);
      if (cache === undefined) caches.set(type, cache = new Map());
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const framed = frame(type, key);
      if (cache.size >= GRPC_ENCODE_CACHE_ENTRIES) cache.clear();
      cache.set(key, framed);
      return framed;
    },
    decode: (type, message) => decode(root, type, message),
    decoder: (type) => (message) => {
      try {
        return { value: decode(root, type, message) };
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * A message framed for gRPC: compressed flag 0, its length (4 bytes, big-endian), its bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grpcFrame } from "./grpc_codec.ts";
 * assert.deepEqual([...grpcFrame(new Uint8Array([7, 8]))], [0, 0, 0, 0, 2, 7, 8]);
 * ```
 */
export function grpcFrame(message: Uint8Array): Uint8Array {
  if (message.byteLength > MAX_FRAME_MESSAGE_BYTES) {
    throw new RangeError(`a gRPC message of ${message.byteLength} bytes cannot be framed`);
  }
  const out = new Uint8Array(5 + message.byteLength);
  new DataView(out.buffer).setUint32(1, message.byteLength);
  out.set(message, 5);
  return out;
}
