/**
 * The plan's `.proto` files (`grpc.proto`), read into one schema: each file through the plan's
 * context (relative to the plan and confined to its folder, as body and data files are; never
 * read by protobufjs itself), its imports found beside it, then in `grpc.import_paths`, then in
 * the plan's folder; `google/protobuf/*.proto` well-known types are built in. A parse error, a
 * missing import or a type that does not resolve is a located issue at the `proto` item it
 * comes from.
 *
 * @module
 */
import { dirname, isAbsolute, normalize } from "node:path";
import type { PlanContext } from "../plan_context.ts";
import { planFile, type PlanReader, type YamlNode } from "../read/mod.ts";
import {
  addWellKnown,
  parseInto,
  type ProtoRoot,
  protoRoot,
  resolveAll,
  type ServiceInfo,
  servicesOf,
  wellKnown,
} from "../../protobuf/mod.ts";

/** A `.proto` file may be at most this large (1 MiB). */
export const MAX_PROTO_BYTES = 1024 * 1024;

/** The plan's `.proto` files, parsed and resolved. */
export interface ProtoSchema {
  root: ProtoRoot;
  services: ServiceInfo[];
  /** The files as the plan writes them. */
  files: string[];
}

/** A `proto` item (or an `import_paths` item) as written, at its node and path. */
export interface ProtoItem {
  text: string;
  node: YamlNode;
  /** Where it is, as issues name it (`grpc.proto[0]`). */
  path: string;
}

/**
 * Reads the `proto` files and their imports into one schema (a file named twice is read once);
 * undefined when any problem was reported.
 */
export function readProtoFiles(
  reader: PlanReader,
  protos: readonly ProtoItem[],
  importPaths: readonly ProtoItem[],
  ctx: PlanContext,
): ProtoSchema | undefined {
  if (protos.length === 0) return undefined;
  const before = reader.issues.length;
  const root = protoRoot();
  const done = new Set<string>();
  const known = new Set<string>();
  const folders = importPaths.map((p) => normalize(`${ctx.planDir}/${p.text}`));
  const load = (file: string, item: ProtoItem, at: string, shown: string): void => {
    if (done.has(file)) return;
    done.add(file);
    const text = readText(ctx, file);
    if (text === undefined) {
      reader.error(
        item.node,
        at,
        `\`${shown}\` is not UTF-8 text of at most ${MAX_PROTO_BYTES} bytes`,
        "name a .proto file",
      );
      return;
    }
    const parsed = parseInto(root, text);
    if (!parsed.ok) {
      reader.error(
        item.node,
        at,
        `\`${shown}\`: ${parsed.problems[0].message}`,
        "fix the .proto file (protoc would refuse it too)",
      );
      return;
    }
    for (const name of parsed.value.imports) {
      if (wellKnown(name)) {
        if (!known.has(name)) addWellKnown(root, name);
        known.add(name);
        continue;
      }
      const found = findImport(ctx, name, [dirname(file), ...folders, ctx.planDir]);
      if (found === undefined) {
        const hint = /^google\/protobuf\//.test(name)
          ? "the built-in well-known types are any, duration, empty, field_mask, struct, " +
            "timestamp and wrappers: copy this one beside the plan's .proto files"
          : "put it beside the file that imports it, or name its folder in `grpc.import_paths`";
        reader.error(item.node, at, `\`${shown}\` imports \`${name}\`, which is not found`, hint);
        continue;
      }
      const confined = planFile(reader, item.node, at, found, ctx, "proto file");
      if (confined !== undefined) load(confined, item, at, name);
    }
  };
  for (const [i, p] of importPaths.entries()) {
    const folder = folders[i];
    if (ctx.isFolder !== undefined && !ctx.isFolder(folder)) {
      reader.error(
        p.node,
        p.path,
        `import path \`${p.text}\` is not a folder`,
        "paths are relative to the plan file",
      );
    }
  }
  protos.forEach((p) => {
    const at = p.path;
    if (!/\.proto$/i.test(p.text)) {
      reader.error(p.node, at, `\`${p.text}\` is not a .proto file`, "name a `.proto` file");
      return;
    }
    const file = planFile(reader, p.node, at, p.text, ctx, "proto file");
    if (file !== undefined) load(file, p, at, p.text);
  });
  if (reader.issues.length > before) return undefined;
  const resolved = resolveAll(root);
  if (!resolved.ok) {
    const first = protos[0];
    reader.error(
      first.node,
      first.path.replace(/\[\d+\]$/, ""),
      `the .proto files do not resolve: ${resolved.problems[0].message}`,
      "every type a message or method names must be defined or imported",
    );
    return undefined;
  }
  return { root, services: servicesOf(root), files: [...new Set(protos.map((p) => p.text))] };
}

function readText(ctx: PlanContext, file: string): string | undefined {
  const bytes = ctx.readFile?.(file, MAX_PROTO_BYTES);
  if (bytes === undefined) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function findImport(ctx: PlanContext, name: string, folders: string[]): string | undefined {
  if (isAbsolute(name)) return ctx.fileSize(name) === undefined ? undefined : name;
  for (const folder of folders) {
    const candidate = normalize(`${folder}/${name}`);
    if (ctx.fileSize(candidate) !== undefined) return candidate;
  }
  return undefined;
}
