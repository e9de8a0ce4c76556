/**
 * Validates a request body: inline text, JSON, or a file beside the plan.
 *
 * @module
 */
import { isAbsolute, normalize, relative } from "node:path";
import { keysOf } from "./plan_language.ts";
import type { YamlNode } from "./_yaml.ts";
import type { PlanContext } from "./plan_context.ts";
import { join, type PlanReader } from "./plan_reader.ts";
import type { PlanBody } from "./types.ts";

/**
 * Validates a request body: a string, or one of `text`, `json` (serialised) or `file` (relative
 * to the plan, and present), reporting problems on `reader`.
 *
 * @example
 * ```ts
 * import { readBody } from "./validate_body.ts";
 * import type { PlanReader } from "./plan_reader.ts";
 * import type { PlanContext } from "./plan_context.ts";
 * import type { YamlNode } from "./_yaml.ts";
 * declare const reader: PlanReader, node: YamlNode, ctx: PlanContext;
 * readBody(reader, node, "requests[0].body", ctx);
 * // for `body: { json: { id: 1 } }`: { kind: "json", text: '{"id":1}' }
 * ```
 */
export function readBody(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  ctx: PlanContext,
): PlanBody | undefined {
  if (node.kind === "scalar" && typeof node.value === "string") {
    return { kind: "text", text: node.value };
  }
  const f = reader.fields(node, path, keysOf("body"));
  if (f === undefined) return undefined;
  if (f.size !== 1) {
    reader.error(
      node,
      path,
      "a body is one of `text`, `json` or `file`",
      "e.g. `body: { json: { id: 1 } }`",
    );
    return undefined;
  }
  const [key, entry] = [...f.entries()][0];
  if (key === "json") return { kind: "json", text: JSON.stringify(toPlain(entry.value)) };
  const text = reader.string(entry.value, join(path, key));
  if (text === undefined) return undefined;
  if (key === "text") return { kind: "text", text };
  const resolved = normalize(isAbsolute(text) ? text : `${ctx.planDir}/${text}`);
  // Confined to the plan's folder: a body of /proc/self/environ or ../../etc/passwd would send the
  // runner's secrets to the target.
  const root = normalize(ctx.planDir);
  if (!isInside(ctx.realPath?.(resolved) ?? resolved, ctx.realPath?.(root) ?? root)) {
    reader.error(
      entry.value,
      join(path, "file"),
      `body file \`${text}\` lies outside the plan's folder`,
      "keep body files in the plan's folder or below it (paths are relative to the plan file)",
    );
    return undefined;
  }
  const sizeBytes = ctx.fileSize(resolved);
  if (sizeBytes === undefined) {
    reader.error(
      entry.value,
      join(path, "file"),
      `body file \`${text}\` does not exist or is not a regular file`,
      "paths are relative to the plan file",
    );
    return undefined;
  }
  return { kind: "file", path: resolved, sizeBytes };
}

function toPlain(node: YamlNode): unknown {
  if (node.kind === "scalar") return node.value;
  if (node.kind === "seq") return node.items.map(toPlain);
  return Object.fromEntries(node.entries.map((e) => [e.key, toPlain(e.value)]));
}

/** Whether `path` lies strictly below the folder `root`. */
function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}
