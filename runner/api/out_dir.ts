/**
 * The output folder, checked before any work: a run that measured for minutes must not then find
 * that `--out` names a file or a place where no folder can be made ({@linkcode checkOutDir}, which
 * creates nothing). And the rule for a folder that is cleared before each run (the CI action's
 * `<out>/<plan>/`): only a folder tailgate made and marked with {@linkcode OUT_MARKER} is ever
 * cleared, never one inside or around the repository's checkout.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/**
 * Whether `outDir` is, or can become, a writable folder: it is a folder, or it does not exist and
 * its nearest existing ancestor is a folder this process can write in. Returns the problem in words
 * naming the option, or undefined.
 */
export async function checkOutDir(outDir: string): Promise<string | undefined> {
  let path = resolve(outDir);
  for (;;) {
    let info: Deno.FileInfo | undefined;
    try {
      info = await Deno.stat(path);
    } catch (e) {
      // Absent, or below a file: look at what lies above.
      if (!(e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory)) {
        return `--out ${outDir}: cannot use ${path} (${(e as Error).message})`;
      }
    }
    if (info !== undefined) {
      if (!info.isDirectory) {
        return `--out ${outDir}: ${path} is not a folder; name a folder for the reports`;
      }
      try {
        await Deno.remove(await Deno.makeTempFile({ dir: path, prefix: ".tailgate-probe-" }));
      } catch (e) {
        return `--out ${outDir}: cannot write in ${path} (${(e as Error).message})`;
      }
      return undefined;
    }
    const parent = dirname(path);
    if (parent === path) return `--out ${outDir}: no existing folder above it`;
    path = parent;
  }
}

/**
 * The file that marks a folder as one tailgate made for its output: only a folder carrying it is
 * ever cleared ({@linkcode claimOutDir}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OUT_MARKER } from "./out_dir.ts";
 * assert.equal(OUT_MARKER, ".tailgate-out");
 * ```
 */
export const OUT_MARKER = ".tailgate-out";

const MARKER_TEXT = "tailgate made this folder for its output and clears it before each run.\n";

/**
 * Why `dir` is no place for output folders that are cleared, or undefined: it is the `workspace`
 * (the repository's checkout) or contains it, or it lies in the workspace's `.git`. Links are
 * followed, so another name for the same folder is refused too. The reason reads after the folder's
 * name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outPlaceProblem } from "./out_dir.ts";
 * await outPlaceProblem("/w", "/w"); // "is the workspace (/w) or contains it: ..."
 * assert.equal(await outPlaceProblem("/w/tailgate-out", "/w"), undefined);
 * ```
 */
export async function outPlaceProblem(dir: string, workspace: string): Promise<string | undefined> {
  const target = await realPathOf(resolve(dir));
  const root = await realPathOf(resolve(workspace));
  const fix = "tailgate clears the folders it writes into, so name a folder of its own, " +
    "e.g. tailgate-out";
  if (isWithin(target, root)) return `is the workspace (${root}) or contains it: ${fix}`;
  if (isWithin(join(root, ".git"), target)) return `lies in the repository's .git: ${fix}`;
  return undefined;
}

/**
 * Why tailgate may not clear `dir` and write there, or undefined: it may when `dir` does not exist,
 * is an empty folder, or carries the {@linkcode OUT_MARKER}. A link, a file, or a folder holding
 * files without the marker (someone else's) is refused. The reason reads after the folder's name.
 */
export async function ownOutDirProblem(dir: string): Promise<string | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(dir);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    return `cannot be used (${(e as Error).message})`;
  }
  if (info.isSymlink) return "is a link: tailgate writes only into a folder of its own";
  if (!info.isDirectory) return "is not a folder: name a folder for the reports";
  if (await isMarked(dir)) return undefined;
  for await (const _ of Deno.readDir(dir)) {
    return `holds files tailgate did not write (no ${OUT_MARKER} marker in it), and tailgate ` +
      "clears its output folders: name a new or empty folder, or delete this one";
  }
  return undefined;
}

/**
 * Makes `dir` tailgate's output folder: creates it (and its parents) with the
 * {@linkcode OUT_MARKER}, and with `clear` removes everything else a marked folder holds (what an
 * earlier run wrote), so nothing stale is read as this run's. Refuses, touching nothing, a folder
 * {@linkcode ownOutDirProblem} refuses; returns the problem, or undefined.
 */
export async function claimOutDir(
  dir: string,
  options: { clear: boolean },
): Promise<string | undefined> {
  const problem = await ownOutDirProblem(dir);
  if (problem) return problem;
  try {
    await Deno.mkdir(dir, { recursive: true });
    if (options.clear) {
      const names = [];
      for await (const entry of Deno.readDir(dir)) names.push(entry.name);
      for (const name of names.filter((n) => n !== OUT_MARKER)) {
        // A link is removed itself, never what it points to.
        await Deno.remove(join(dir, name), { recursive: true });
      }
    }
    await Deno.writeTextFile(join(dir, OUT_MARKER), MARKER_TEXT);
  } catch (e) {
    return `cannot be prepared (${(e as Error).message})`;
  }
  return undefined;
}

async function isMarked(dir: string): Promise<boolean> {
  try {
    return (await Deno.lstat(join(dir, OUT_MARKER))).isFile;
  } catch {
    return false;
  }
}

/** Whether `inner` is `outer` or lies below it. */
function isWithin(outer: string, inner: string): boolean {
  const path = relative(outer, inner);
  return path === "" || (path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}

/** `path` with the links of its nearest existing ancestor resolved. */
async function realPathOf(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realPathOf(parent), path.slice(parent.length));
  }
}
