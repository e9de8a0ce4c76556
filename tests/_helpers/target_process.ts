/**
 * The built-in target in its own process, so that it shares neither the event loop nor the
 * timers of the engine under test. Stopped by its PID when disposed.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));

/** A running target process. */
export interface TargetProcess extends AsyncDisposable {
  url: string;
  pid: number;
}

/**
 * Starts `tailgate target` with `args` on a free loopback port.
 *
 * @example
 * ```ts
 * await using target = await startTargetProcess(["--mode", "stall", "--stall", "400ms"]);
 * ```
 */
export async function startTargetProcess(args: string[]): Promise<TargetProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-env",
      CLI,
      "target",
      ...args,
      "--port",
      "0",
    ],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the target exited: ${text}`);
      text += value;
      const m = /listening on (http:\/\/\S+?)\/? /.exec(text);
      if (m) {
        return {
          url: m[1],
          pid: child.pid,
          async [Symbol.asyncDispose]() {
            child.kill("SIGTERM");
            await reader.cancel().catch(() => {});
            await child.status;
          },
        };
      }
    }
  } catch (e) {
    child.kill("SIGKILL");
    await reader.cancel().catch(() => {});
    await child.status;
    throw e;
  }
}
