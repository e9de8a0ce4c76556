/**
 * The one way tailgate writes a file: a new file is made beside the target (never one that exists,
 * so never through a link), then renamed over the target's name, which replaces whatever was there
 * (a link included) instead of writing into it. A finished file is flushed first, so a reader sees
 * the old content or the new, never a torn one ({@linkcode writeFileAtomic}); a file written while
 * it grows (a started service's log) is put in place empty and written after
 * ({@linkcode newFileInPlace}).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/**
 * Atomically replaces `path` with `data`, creating its folder if needed. `data` may be a function
 * that writes the content into the new file itself (a long one, copied a part at a time).
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | ((file: Deno.FsFile) => Promise<void>),
): Promise<void> {
  const { file, tempPath } = await createBeside(path);
  try {
    try {
      if (typeof data === "function") await data(file);
      else await writeAll(file, typeof data === "string" ? new TextEncoder().encode(data) : data);
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.rename(tempPath, path);
  } catch (e) {
    await Deno.remove(tempPath).catch(() => {});
    throw e;
  }
}

/** Writes every byte of `bytes` into `file` at its position. */
export async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
}

/**
 * A new, empty file in place of `path` (its folder created if needed), open for reading and
 * writing: whatever `path` named before (a file, a link) is replaced, never written into.
 */
export async function newFileInPlace(path: string): Promise<Deno.FsFile> {
  const { file, tempPath } = await createBeside(path);
  try {
    await Deno.rename(tempPath, path);
  } catch (e) {
    file.close();
    await Deno.remove(tempPath).catch(() => {});
    throw e;
  }
  return file;
}

/**
 * A new file with a name of its own beside `path`, open for reading and writing: created
 * exclusively (`O_EXCL`), so it is never a file or link that was there.
 */
async function createBeside(path: string): Promise<{ file: Deno.FsFile; tempPath: string }> {
  const dir = dirname(path);
  await Deno.mkdir(dir, { recursive: true });
  const tempPath = join(
    dir,
    `.${basename(path)}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`,
  );
  const file = await Deno.open(tempPath, { read: true, write: true, createNew: true });
  return { file, tempPath };
}
