/**
 * gRPC support is loaded on demand: protobufjs costs about 50 ms of start-up CPU in every process
 * and engine worker that imports it, so nothing reaches it statically from runner/plan/mod.ts.
 * {@linkcode loadGrpcSupport} imports it (once) for a plan with gRPC calls; `loadPlan()` calls it
 * when the plan's text names `grpc`, and an engine worker before it builds a codec.
 *
 * @module
 */

import type { PlanGrpcSchema } from "../types.ts";
import type { GrpcCodec } from "./grpc_codec.ts";

/** What the plan and the engine use of gRPC support, once loaded. */
export type GrpcSupport = typeof import("./grpc_tools.ts");

let loaded: GrpcSupport | undefined;

/**
 * Loads gRPC support (protobufjs and what reads `.proto` files); later calls return the same.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grpcSupport, loadGrpcSupport } from "./grpc_support.ts";
 * const support = await loadGrpcSupport();
 * assert.equal(grpcSupport(), support);
 * ```
 */
export async function loadGrpcSupport(): Promise<GrpcSupport> {
  loaded ??= await import("./grpc_tools.ts");
  return loaded;
}

/** gRPC support when {@linkcode loadGrpcSupport} has loaded it, else undefined. */
export function grpcSupport(): GrpcSupport | undefined {
  return loaded;
}

/**
 * A codec for `schema`'s messages, gRPC support loaded first: what an engine (a worker too)
 * awaits once before it frames a gRPC plan's requests.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadGrpcCodec } from "./grpc_support.ts";
 * const descriptor = { nested: { hi: { nested: { Hi: { fields: { n: { type: "int32", id: 1 } } } } } } };
 * const codec = await loadGrpcCodec({ files: ["hi.proto"], descriptor, tls: false });
 * assert.deepEqual([...codec.frame("hi.Hi", '{"n":150}')], [0, 0, 0, 0, 3, 0x08, 0x96, 0x01]);
 * ```
 */
export async function loadGrpcCodec(schema: PlanGrpcSchema): Promise<GrpcCodec> {
  return (await loadGrpcSupport()).grpcCodec(schema);
}
