/**
 * The plan's `grpc` sections: the plan's own and any request's (or journey step's) `grpc:`, their
 * `.proto` files read into one schema, `import_paths`, and each section's `deadline`. Needs gRPC
 * support loaded (grpc_support.ts): `loadPlan()` loads it for a plan that names `grpc`; a caller
 * of `parsePlanText()` or `validatePlan()` awaits `loadGrpcSupport()` first.
 *
 * @module
 */
import type { PlanContext } from "../plan_context.ts";
import { join, type PlanReader, readSection, type YamlNode } from "../read/mod.ts";
import type { PlanGrpcSchema } from "../types.ts";
import { type GrpcSupport, grpcSupport } from "./grpc_support.ts";
import type { ProtoItem, ProtoSchema } from "./proto_files.ts";
import type { MessageShapes } from "./proto_json.ts";

/** A `grpc:` section of the plan: where it is. */
export interface GrpcSectionAt {
  node: YamlNode;
  /** Where it sits, as issues name it (`grpc`, `requests[2].grpc`). */
  path: string;
  /** The line of its key. */
  line: number;
}

/** The `grpc` sections, read: what the requests' calls are resolved and checked against. */
export interface GrpcRead {
  schema: PlanGrpcSchema;
  /** The plan's `grpc.deadline`, when given. */
  deadlineMs?: number;
  /** A request's own `grpc.deadline`, by its section's node. */
  deadlines: ReadonlyMap<YamlNode, number>;
  /** The loaded support, the parsed files and their message shapes (for the requests' calls). */
  support: GrpcSupport;
  proto: ProtoSchema;
  shapes: MessageShapes;
}

/**
 * The `grpc:` sections of requests and journey steps in the tree of a plan's `requests`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseYaml } from "../read/mod.ts";
 * import { requestGrpcSections } from "./read_grpc.ts";
 * const root = parseYaml("- { call: a.S/M, grpc: { proto: [a.proto] } }\n").root!;
 * assert.deepEqual(requestGrpcSections(root).map((s) => s.path), ["requests[0].grpc"]);
 * ```
 */
export function requestGrpcSections(requests: YamlNode): GrpcSectionAt[] {
  const out: GrpcSectionAt[] = [];
  const take = (item: YamlNode, path: string) => {
    if (item.kind !== "map") return;
    for (const e of item.entries) {
      if (e.key === "grpc") {
        out.push({ node: e.value, path: join(path, "grpc"), line: e.keyPos.line });
      }
      if (e.key === "steps" && e.value.kind === "seq") {
        e.value.items.forEach((step, j) => take(step, join(join(path, "steps"), j)));
      }
    }
  };
  if (requests.kind === "seq") requests.items.forEach((item, i) => take(item, join("requests", i)));
  return out;
}

/**
 * Reads the `grpc` sections (the plan's first, when it has one) into one schema; undefined when
 * there is none or one has a problem (reported).
 */
export function readGrpc(
  reader: PlanReader,
  sections: readonly GrpcSectionAt[],
  ctx: PlanContext,
  tls: boolean,
): GrpcRead | undefined {
  if (sections.length === 0) return undefined;
  const before = reader.issues.length;
  const protos: ProtoItem[] = [];
  const paths: ProtoItem[] = [];
  const deadlines = new Map<YamlNode, number>();
  for (const at of sections) {
    const s = readSection(reader, at.node, at.path, "grpc");
    if (s === undefined) continue;
    const deadlineMs = s.has("deadline") ? s.get<number>("deadline") : undefined;
    if (deadlineMs !== undefined) deadlines.set(at.node, deadlineMs);
    const listed = s.at("proto") ? textList(reader, s.at("proto")!, s.pathOf("proto")) : [];
    if (s.at("proto") && listed?.length === 0) {
      reader.error(
        s.at("proto")!,
        s.pathOf("proto"),
        `\`${s.pathOf("proto")}\` is empty`,
        "name a .proto file",
      );
    }
    protos.push(...listed ?? []);
    const folders = s.at("import_paths")
      ? textList(reader, s.at("import_paths")!, s.pathOf("import_paths"))
      : [];
    paths.push(...folders ?? []);
  }
  if (reader.issues.length > before) return undefined;
  const support = grpcSupport();
  if (support === undefined) {
    reader.error(
      sections[0].node,
      sections[0].path,
      "gRPC support is not loaded",
      "await `loadGrpcSupport()` (runner/plan/mod.ts) before parsing the plan; `loadPlan()` does",
    );
    return undefined;
  }
  const proto = support.readProtoFiles(reader, protos, paths, ctx);
  if (proto === undefined) return undefined;
  const schema: PlanGrpcSchema = {
    files: proto.files,
    descriptor: support.rootJson(proto.root),
    tls,
  };
  const plan = sections[0].path === "grpc" ? deadlines.get(sections[0].node) : undefined;
  return {
    schema,
    ...(plan === undefined ? {} : { deadlineMs: plan }),
    deadlines,
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
    out.push({ text, node: item, path: at });
  }
  return out;
}
