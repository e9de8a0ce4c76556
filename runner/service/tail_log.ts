/**
 * A log that keeps the last bytes of an output of any length: a started service's `service.log`.
 * The output goes into a file in place of the log's name (runner/model/atomic_write.ts: never
 * through a link); once that file would pass the limit, a new one takes the name and the old one
 * is kept open, unnamed, as the previous part. Closing it writes the final log: the previous
 * part's tail and the current part, headed by a line saying how many bytes were cut. So the disk
 * holds at most twice the limit while the output runs, and memory one part of it at a time.
 *
 * @module
 */
import { newFileInPlace, writeAll, writeFileAtomic } from "../model/mod.ts";

/** How much of a started service's output its log keeps unless told otherwise: the last 16 MiB. */
export const DEFAULT_LOG_MAX_BYTES = 16 * 1024 * 1024;

/** What is copied at a time when the final log is written. */
const COPY_BYTES = 64 * 1024;

/** One part of the output: a file and how much it holds. */
interface Part {
  file: Deno.FsFile;
  bytes: number;
}

/**
 * The first line of a log that was cut: how many bytes of the output are missing and how much the
 * log keeps.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cutLine } from "./tail_log.ts";
 * assert.equal(
 *   cutLine(1000, 16 * 1024 * 1024),
 *   "[tailgate: the first 1000 bytes of the service's output were cut; this log keeps its last 16 MiB]\n",
 * );
 * ```
 */
export function cutLine(cutBytes: number, maxBytes: number): string {
  const kept = maxBytes % (1024 * 1024) === 0
    ? `${maxBytes / (1024 * 1024)} MiB`
    : `${maxBytes} bytes`;
  return `[tailgate: the first ${cutBytes} bytes of the service's output were cut; this log ` +
    `keeps its last ${kept}]\n`;
}

/** A log at a path that keeps the last `maxBytes` of what is written into it. */
export class TailLog {
  #previous: Part | undefined;
  #total = 0;

  private constructor(
    readonly path: string,
    readonly maxBytes: number,
    private current: Part,
  ) {}

  /** A new, empty log in place of `path` (a link there is replaced, never written through). */
  static async create(path: string, maxBytes = DEFAULT_LOG_MAX_BYTES): Promise<TailLog> {
    if (!(Number.isSafeInteger(maxBytes) && maxBytes > 0)) {
      throw new RangeError(`maxBytes must be a positive integer, not ${maxBytes}`);
    }
    return new TailLog(path, maxBytes, { file: await newFileInPlace(path), bytes: 0 });
  }

  /** How many bytes of the output the log no longer holds (the head). */
  get cutBytes(): number {
    const previousKept = Math.min(this.#previous?.bytes ?? 0, this.maxBytes - this.current.bytes);
    return this.#total - this.current.bytes - previousKept;
  }

  /** Appends `chunk`; past the limit, the head of the output is let go. */
  async write(chunk: Uint8Array): Promise<void> {
    this.#total += chunk.length;
    if (this.current.bytes + chunk.length > this.maxBytes) {
      this.#previous?.file.close();
      this.#previous = this.current;
      this.current = { file: await newFileInPlace(this.path), bytes: 0 };
      if (chunk.length > this.maxBytes) {
        this.#previous.file.close();
        this.#previous = undefined;
        chunk = chunk.subarray(chunk.length - this.maxBytes);
      }
    }
    await writeAll(this.current.file, chunk);
    this.current.bytes += chunk.length;
  }

  /**
   * Finishes the log: when its head was cut, the final log (the line saying so, the previous
   * part's tail and the current part) replaces the current part. Returns the bytes cut.
   */
  async close(): Promise<number> {
    const cut = this.cutBytes;
    const previous = this.#previous;
    try {
      if (cut > 0) {
        const fromPrevious = Math.min(previous?.bytes ?? 0, this.maxBytes - this.current.bytes);
        await writeFileAtomic(this.path, async (out) => {
          await writeAll(out, new TextEncoder().encode(cutLine(cut, this.maxBytes)));
          if (previous) await copy(previous.file, previous.bytes - fromPrevious, out);
          await copy(this.current.file, 0, out);
        });
      }
    } finally {
      previous?.file.close();
      this.current.file.close();
      this.#previous = undefined;
    }
    return cut;
  }
}

/** Copies `from` from byte `start` to its end into `to`, a part at a time. */
async function copy(from: Deno.FsFile, start: number, to: Deno.FsFile): Promise<void> {
  await from.seek(start, Deno.SeekMode.Start);
  const buffer = new Uint8Array(COPY_BYTES);
  for (;;) {
    const n = await from.read(buffer);
    if (n === null) return;
    await writeAll(to, buffer.subarray(0, n));
  }
}
