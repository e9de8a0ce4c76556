/**
 * Writes a file so that a reader sees the old content or the new, never a torn one: the data goes
 * to a temporary file beside the target, is flushed, then renamed over it.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/**
 * Atomically replaces `path` with `data`, creating its folder if needed.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  await Deno.mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  try {
    const file = await Deno.open(tmp, { write: true, createNew: true });
    try {
      let written = 0;
      while (written < bytes.length) written += await file.write(bytes.subarray(written));
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}
