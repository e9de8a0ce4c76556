/**
 * Plan paths as commands take them: a file as it is, a folder as every `.yaml`/`.yml` file below
 * it, sorted.
 *
 * @module
 */
import { join } from "node:path";

/**
 * The plan files `path` names: itself when it is not a folder (a missing file is the plan
 * loader's to report, with its location), else every `.yaml`/`.yml` below it, sorted.
 */
export async function expandPlanPaths(path: string): Promise<string[]> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    return [path];
  }
  if (!info.isDirectory) return [path];
  const out: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    const child = join(path, entry.name);
    if (entry.isDirectory) out.push(...await expandPlanPaths(child));
    else if (/\.ya?ml$/i.test(entry.name)) out.push(child);
  }
  return out.sort();
}
