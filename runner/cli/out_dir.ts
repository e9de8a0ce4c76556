/**
 * The output folder, checked before any work: a run that measured for minutes must not then find
 * that `--out` names a file or a place where no folder can be made. Nothing is created here.
 *
 * @module
 */
import { dirname, resolve } from "node:path";

/**
 * Whether `outDir` is, or can become, a writable folder: it is a folder, or it does not exist and
 * its nearest existing ancestor is a folder this process can write in. Returns the problem in words
 * naming the option, or undefined.
 *
 * @example
 * ```ts
 * import { checkOutDir } from "./out_dir.ts";
 * // await checkOutDir("/dev/null/sub"); // "--out /dev/null/sub: /dev/null is not a folder; ..."
 * ```
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
