/**
 * The plan's `grpc` section: its `.proto` files (read into one schema), `import_paths` and the
 * default `deadline`. Needs gRPC support loaded (grpc_support.ts): `loadPlan()` loads it for a
 * plan that names `grpc`; a caller of `parsePlanText()` or `validatePlan()` awaits
 * `loadGrpcSupport()` first.
 *
 * @module
 */
import type { PlanContext } from "../plan_context.ts";
import { join, type PlanReader, readSection, type YamlNode } from "../read/mod.ts";
import type { PlanGrpcSchema } from "../types.ts";
import { type GrpcSupport, grpcSupport } from "./grpc_support.ts";
import type { ProtoItem, ProtoSchema } from "./proto_files.ts";
import type { MessageShapes } from "./proto_json.ts";

/** The `grpc` section, read: what the requests' calls are resolved and checked against. */
export interface GrpcRead {
  schema: PlanGrpcSchema;
  /** `grpc.deadline`, when given. */
  deadlineMs?: number;
  /** The loaded support, the parsed files and their message shapes (for the requests' calls). */
  support: GrpcSupport;
  proto: ProtoSchema;
  shapes: MessageShapes;
}

/** Where each plan's `grpc` section was written, for issues about the plan as a whole. */
const lines = new WeakMap<PlanGrpcSchema, number>();

/** The line of the plan's `grpc` section, when this process read it (else 1). */
export function grpcLine(schema: PlanGrpcSchema): number {
  return lines.get(schema) ?? 1;
}

/** Reads the `grpc` section (its key on `line`); undefined when it has a problem (reported). */
export function readGrpc(
  reader: PlanReader,
  node: YamlNode,
  ctx: PlanContext,
  tls: boolean,
  line = node.pos.line,
): GrpcRead | undefined {
  const s = readSection(reader, node, "grpc", "grpc");
  if (s === undefined) return undefined;
  const deadlineMs = s.has("deadline") ? s.get<number>("deadline") : undefined;
  const protos = s.at("proto") ? textList(reader, s.at("proto")!, "grpc.proto") : undefined;
  const paths = s.at("import_paths")
    ? textList(reader, s.at("import_paths")!, "grpc.import_paths")
    : [];
  if (protos !== undefined && protos.length === 0) {
    reader.error(s.at("proto")!, "grpc.proto", "`grpc.proto` is empty", "name a .proto file");
    return undefined;
  }
  if (protos === undefined || paths === undefined) return undefined;
  const support = grpcSupport();
  if (support === undefined) {
    reader.error(
      node,
      "grpc",
      "gRPC support is not loaded",
      "await `loadGrpcSupport()` (runner/plan/mod.ts) before parsing the plan; `loadPlan()` does",
    );
    return undefined;
  }
  const proto = support.readProtoFiles(reader, "grpc.proto", protos, paths, ctx);
  if (proto === undefined) return undefined;
  const schema: PlanGrpcSchema = {
    files: proto.files,
    descriptor: support.rootJson(proto.root),
    tls,
  };
  lines.set(schema, line);
  return {
    schema,
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
    support,
    proto,
    shapes: new support.MessageShapes(proto.root),
  };
}

/** A list of text (a single text is a list of one); undefined when it is neither (reported). */
function textList(reader: PlanReader, node: YamlNode, path: string): ProtoItem[] | undefined {
  const items = node.kind === "seq" ? node.items : [node];
  const out: ProtoItem[] = [];
  for (const [i, item] of items.entries()) {
    const at = node.kind === "seq" ? join(path, i) : path;
    const text = reader.string(item, at);
    if (text === undefined) return undefined;
    out.push({ text, node: item });
  }
  return out;
}
