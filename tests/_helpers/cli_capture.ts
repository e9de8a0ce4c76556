/**
 * Captures what the CLI prints, for tests that call `main()` in-process.
 *
 * @module
 */
import type { CliIo } from "../../cli.ts";

/**
 * An output sink for `main()` that keeps each line printed to stdout and stderr.
 *
 * @example
 * ```ts
 * import { capture } from "./cli_capture.ts";
 * const io = capture();
 * io.stdout("hello");
 * io.out; // ["hello"]
 * ```
 */
export function capture(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
}
