/**
 * tls_target_main.ts in a child process, on a free loopback port; stopped by its PID.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { TargetProcess } from "../../runner/target/spawn_target.ts";

const MAIN = fileURLToPath(new URL("./tls_target_main.ts", import.meta.url));

/** Starts the TLS target with `args` and resolves once it listens (30 s at most). */
export async function startTlsTarget(args: string[]): Promise<TargetProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", "--allow-read", MAIN, ...args],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await reader.cancel().catch(() => {});
    await child.status;
  };
  let text = "";
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    const m = /listening on (https:\/\/\S+) /.exec(text);
    if (m) return { url: m[1], pid: child.pid, stop, [Symbol.asyncDispose]: stop };
  }
  await stop();
  throw new Error(`the TLS target did not start: ${text.trim() || "no output"}`);
}
