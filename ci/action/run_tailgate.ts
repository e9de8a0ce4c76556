/**
 * Runs the `tailgate` command of this checkout (cli.ts beside ci/) as a child process: its output
 * goes to the job log as it comes, and standard error is also kept for the annotations.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { ENGINE_V8_FLAGS } from "../../runner/engine/mod.ts";

/** cli.ts of the tailgate checkout these scripts belong to. */
export const TAILGATE_CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));

/** The kept part of standard error: plan problems come first, so the start is what matters. */
const KEEP_STDERR_CHARS = 256 * 1024;

/** How a `tailgate` process ended. */
export interface TailgateExit {
  code: number;
  /** Its standard error, at most the first 256 KiB. */
  stderr: string;
}

/**
 * Runs `tailgate <args>` in `cwd` and waits for it; standard output and error are passed through.
 */
export async function runTailgate(args: readonly string[], cwd: string): Promise<TailgateExit> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", `--v8-flags=${ENGINE_V8_FLAGS}`, "--allow-all", TAILGATE_CLI, ...args],
    cwd,
    stdin: "null",
    stdout: "inherit",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stderr) {
    for (let n = 0; n < chunk.length;) n += await Deno.stderr.write(chunk.subarray(n));
    if (stderr.length < KEEP_STDERR_CHARS) {
      stderr += decoder.decode(chunk, { stream: true }).slice(0, KEEP_STDERR_CHARS - stderr.length);
    }
  }
  const status = await child.status;
  return { code: status.code, stderr };
}
