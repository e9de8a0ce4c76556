/**
 * Files a plan names (body files, data files): relative to the plan, and confined to its folder.
 *
 * @module
 */
import { isAbsolute, normalize, relative } from "node:path";
import type { YamlNode } from "./_yaml.ts";
import type { PlanContext } from "../plan_context.ts";
import type { PlanReader } from "./plan_reader.ts";

/**
 * The resolved path of a file the plan names at `node` (`what`: "body file", "data file"), or
 * undefined with a located error when it lies outside the plan's folder or is not a regular file.
 */
export function planFile(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  text: string,
  ctx: PlanContext,
  what: string,
): string | undefined {
  const resolved = normalize(isAbsolute(text) ? text : `${ctx.planDir}/${text}`);
  // Confined to the plan's folder: a file of /proc/self/environ or ../../etc/passwd would send the
  // runner's secrets to the target.
  const root = normalize(ctx.planDir);
  if (!isInside(ctx.realPath?.(resolved) ?? resolved, ctx.realPath?.(root) ?? root)) {
    reader.error(
      node,
      path,
      `${what} \`${text}\` lies outside the plan's folder`,
      `keep ${what}s in the plan's folder or below it (paths are relative to the plan file)`,
    );
    return undefined;
  }
  if (ctx.fileSize(resolved) === undefined) {
    reader.error(
      node,
      path,
      `${what} \`${text}\` does not exist or is not a regular file`,
      "paths are relative to the plan file",
    );
    return undefined;
  }
  return resolved;
}

/** Whether `path` lies strictly below the folder `root`. */
function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}
