/**
 * The repository's TypeScript files under a folder, for tests that read the source itself (the
 * layers, the dependencies).
 *
 * @module
 */
import { join } from "node:path";

/** The repository's root folder. */
export const REPO_ROOT: string = new URL("../../", import.meta.url).pathname;

/**
 * Every `.ts` file below `dir` (relative to the repository root), as repository paths.
 *
 * @example
 * ```ts
 * import { sourceFiles } from "./source_files.ts";
 * // await sourceFiles("runner") → ["runner/version.ts", "runner/plan/units.ts", …]
 * ```
 */
export async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(REPO_ROOT, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await sourceFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}
