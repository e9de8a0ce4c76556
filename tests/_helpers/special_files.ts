/**
 * Files a reader must refuse without reading: a FIFO with no writer (an open for reading blocks
 * forever) and a link to /dev/zero (read without end). A test bounds the reader's wait, and frees
 * a reader stuck on the FIFO so nothing is left pending.
 *
 * @module
 */

/**
 * Makes a FIFO at `path` (mkfifo).
 *
 * @example
 * ```ts
 * import { makeFifo } from "./special_files.ts";
 * await makeFifo("/tmp/x/result.json");
 * ```
 */
export async function makeFifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path], stderr: "piped" }).output();
  if (!made.success) throw new Error(`mkfifo ${path}: ${new TextDecoder().decode(made.stderr)}`);
}

/**
 * Waits for `work` at most `ms`; if it has not settled by then, opens `fifo` for writing and closes
 * it (a reader blocked on it then sees its end) and throws, saying what blocked.
 *
 * @example
 * ```ts
 * import { settlesWithin } from "./special_files.ts";
 * await settlesWithin(Promise.resolve(1), 2_000, "/tmp/x/fifo"); // 1
 * ```
 */
export async function settlesWithin<T>(work: Promise<T>, ms: number, fifo: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = Symbol("late");
  const timeout = new Promise<typeof late>((resolve) =>
    timer = setTimeout(() => resolve(late), ms)
  );
  const first = await Promise.race([work, timeout]);
  clearTimeout(timer);
  if (first !== late) return first as T;
  // The reader opened the FIFO and waits for a writer: be one, then leave, so it reads its end.
  const writer = await Deno.open(fifo, { write: true });
  writer.close();
  await work.catch(() => {});
  throw new Error(`still blocked after ${ms} ms on the FIFO ${fifo}`);
}
