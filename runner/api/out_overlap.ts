/**
 * The one rule between results and histories: they never share a folder. The out folder (every
 * result, report, `.hlog`, shard and search output) must not be the baseline folder (every run
 * and search history), lie in it, or hold it: a result named like a history (`result.json`, the
 * history of a plan named `result`) would replace it, and clearing the results would delete the
 * histories. Checked before any work, on the folders as they are or will be (a link is followed).
 *
 * @module
 */
import { dirname, join, relative, resolve } from "node:path";
import { DEFAULT_HISTORY_DIR } from "../history/mod.ts";

/**
 * The problem in words, naming both folders, when `outDir` and `baselineDir` (by default
 * `.tailgate/baselines`, where histories live even when a run skips them) overlap; else undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outOverlap } from "./out_overlap.ts";
 * await outOverlap(".tailgate/baselines", ".tailgate/baselines");
 * // "--out .tailgate/baselines is the baseline folder .tailgate/baselines: results and …"
 * assert.equal(await outOverlap("tailgate-out", ".tailgate/baselines"), undefined);
 * ```
 */
export async function outOverlap(
  outDir: string,
  baselineDir: string = DEFAULT_HISTORY_DIR,
): Promise<string | undefined> {
  const out = await realFolder(outDir);
  const history = await realFolder(baselineDir);
  const relation = out === history
    ? "is"
    : inside(out, history)
    ? "lies in"
    : inside(history, out)
    ? "holds"
    : undefined;
  if (relation === undefined) return undefined;
  return `--out ${outDir} ${relation} the baseline folder ${baselineDir}: results and histories ` +
    "never share a folder (a result named like a history would replace it, and clearing the " +
    "results would delete the histories); give --out another folder, e.g. tailgate-out, or " +
    "--baseline another folder";
}

function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel !== "" && !rel.startsWith("..") && resolve(folder, rel) === path;
}

/** The absolute path, its nearest existing ancestor resolved through links. */
async function realFolder(path: string): Promise<string> {
  let head = resolve(path);
  const tail: string[] = [];
  for (;;) {
    try {
      return join(await Deno.realPath(head), ...tail);
    } catch {
      const parent = dirname(head);
      if (parent === head) return resolve(path);
      tail.unshift(head.slice(parent.length).replace(/^\//, ""));
      head = parent;
    }
  }
}
