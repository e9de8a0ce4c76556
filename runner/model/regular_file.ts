/**
 * The one rule for reading a file tailgate did not write itself (a plan, a baseline, a search
 * history, a result, a report): only a regular file is opened (a link is followed first), and at
 * most a stated number of bytes is read. A device such as /dev/zero would be read without end, a
 * FIFO with no writer would block forever (Ctrl-C included), and a huge file would exhaust memory.
 *
 * @module
 */
import { err, ok, type Problem, type Result } from "./result.ts";

/** Why a file was not read. */
export type RegularFileProblem = "missing" | "directory" | "special" | "too_large" | "unreadable";

/** A file not read: `message` is "<path> <reason>", `file` the path. */
export interface FileProblem extends Problem {
  file: string;
  kind: RegularFileProblem;
  /** Completes "<path> …": "is not a regular file (a device, pipe or socket)". */
  reason: string;
  /** For `too_large`: the size seen (at least `maxBytes + 1`). */
  sizeBytes?: number;
}

/** The bytes read, or why none were. */
export type RegularFileRead = Result<Uint8Array, FileProblem>;

/**
 * Reads `path` when it is a regular file of at most `maxBytes` bytes: its type is checked before
 * it is opened and again on the open handle (a file swapped meanwhile is refused), and no more
 * than `maxBytes + 1` bytes are ever read, so a file that grows is still bounded.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<RegularFileRead> {
  try {
    const before = await Deno.stat(path);
    const refusal = problemOf(path, before, maxBytes);
    if (refusal) return refusal;
    using handle = await Deno.open(path, { read: true });
    const opened = await handle.stat();
    if (!opened.isFile || (before.ino !== null && opened.ino !== before.ino)) {
      return refused(path, "unreadable", "changed while it was being opened; try again");
    }
    let out = new Uint8Array(Math.min(maxBytes, opened.size) + 1);
    let length = 0;
    for (;;) {
      if (length === out.length) {
        // The file grew since its size was read: room for more, up to one byte past the limit.
        if (length > maxBytes) return tooLarge(path, length, maxBytes, "grew past");
        const grown = new Uint8Array(Math.min(maxBytes + 1, out.length * 2));
        grown.set(out);
        out = grown;
      }
      const n = await handle.read(out.subarray(length));
      if (n === null) return ok(out.subarray(0, length));
      length += n;
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
      return refused(path, "missing", "does not exist");
    }
    if (e instanceof Deno.errors.PermissionDenied) {
      return refused(path, "unreadable", "cannot be read (permission denied)");
    }
    return refused(path, "unreadable", `cannot be read: ${(e as Error).message}`);
  }
}

function problemOf(path: string, info: Deno.FileInfo, maxBytes: number) {
  if (info.isDirectory) return refused(path, "directory", "is a directory");
  if (!info.isFile) {
    return refused(path, "special", "is not a regular file (a device, pipe or socket)");
  }
  return info.size > maxBytes ? tooLarge(path, info.size, maxBytes) : undefined;
}

function tooLarge(path: string, sizeBytes: number, maxBytes: number, grew?: "grew past") {
  const reason = grew
    ? `grew past ${maxBytes} bytes while it was read; at most ${maxBytes} are read`
    : `is ${sizeBytes} bytes; at most ${maxBytes} are read`;
  return refused(path, "too_large", reason, sizeBytes);
}

function refused(
  file: string,
  kind: RegularFileProblem,
  reason: string,
  sizeBytes?: number,
): RegularFileRead & { ok: false } {
  const problem: FileProblem = { message: `${file} ${reason}`, file, kind, reason };
  return err(sizeBytes === undefined ? problem : { ...problem, sizeBytes });
}
