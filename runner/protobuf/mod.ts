/**
 * Everything protobuf, in one room: `.proto` text parsed into a schema, a schema from its JSON
 * descriptor, messages encoded and decoded. The npm boundary is `_protobuf.ts`, private to this
 * folder. Importing this module evaluates protobufjs, so the code on an HTTP run's path never
 * imports it statically: gRPC support and the exporters load it on demand.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decode, encode, rootFromJson } from "./mod.ts";
 * const root = rootFromJson({
 *   nested: { demo: { nested: { Point: { fields: { x: { type: "int32", id: 1 } } } } } },
 * });
 * const bytes = encode(root, "demo.Point", { x: 150 });
 * assert.deepEqual([...bytes], [0x08, 0x96, 0x01]);
 * assert.deepEqual(decode(root, "demo.Point", bytes), { x: 150 });
 * ```
 *
 * @module
 */
export {
  addWellKnown,
  decode,
  encode,
  fieldsOf,
  parseInto,
  protoRoot,
  resolveAll,
  rootFromJson,
  rootJson,
  servicesOf,
  wellKnown,
} from "./_protobuf.ts";
export type { FieldInfo, FieldValueKind, MethodInfo, ProtoRoot, ServiceInfo } from "./_protobuf.ts";
