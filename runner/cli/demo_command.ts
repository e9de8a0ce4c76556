/**
 * `tailgate demo`: starts the built-in target in stall mode as a child process (so it does not
 * share the generator's thread), runs plans/demo.yaml against it, and stops the target by its
 * PID. Shows coordinated omission: corrected p99 near the stall length, service time near zero.
 *
 * @module
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { type RunOutcome, runPlanCommand } from "./run_command.ts";

/** The stall the demo target is started with: frozen for 1 s in every 5 s. */
export const DEMO_TARGET_ARGS = ["--mode", "stall", "--stall", "1s", "--period", "5s"];

const CLI = fromFileUrl(new URL("../../cli.ts", import.meta.url));
const DEMO_PLAN = fromFileUrl(new URL("../../plans/demo.yaml", import.meta.url));

/**
 * Runs the demo; `say` receives the explanation and the progress lines.
 *
 * @example
 * ```ts
 * import { runDemo } from "./demo_command.ts";
 * // const outcome = await runDemo("tailgate-out/demo", console.error);
 * ```
 */
export async function runDemo(
  outDir: string,
  say: (line: string) => void,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-env",
      CLI,
      "target",
      ...DEMO_TARGET_ARGS,
      "--port",
      "0",
    ],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  try {
    const url = await readListeningUrl(child.stdout);
    say(
      `tailgate demo: the built-in target at ${url} freezes for 1 s in every 5 s, like a server ` +
        "holding a lock.\nRequests keep arriving on schedule while it is frozen, so about a fifth " +
        "of them wait up to a second.\nWatch the corrected response time (from the intended send " +
        "time) against the service time (from the actual send).\n",
    );
    return await runPlanCommand(
      { planPath: DEMO_PLAN, outDir, target: url, caCertFiles: [] },
      say,
      signal,
    );
  } finally {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
  }
}

async function readListeningUrl(stdout: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    const m = /listening on (http:\/\/\S+?)\/? /.exec(text);
    if (m) {
      reader.releaseLock();
      // Keep draining so the child never blocks on a full pipe.
      stdout.pipeTo(new WritableStream()).catch(() => {});
      return m[1];
    }
  }
  throw new Error(`the demo target did not start: ${text.trim() || "no output"}`);
}
