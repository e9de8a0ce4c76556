/**
 * The built-in target in a process of its own (so it shares neither the event loop nor the timers
 * of the engine measuring it), on a free loopback port; stopped by its PID.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

/** This tailgate's cli.ts: a file, or a URL when tailgate was installed from one. */
const CLI = new URL("../../cli.ts", import.meta.url);

/** A target running in a child process. */
export interface TargetProcess extends AsyncDisposable {
  url: string;
  pid: number;
  /** Stops the process (SIGTERM) and waits for it. */
  stop(): Promise<void>;
}

/**
 * Starts `tailgate target` with `args` (mode and parameters) on port 0 and resolves once it
 * listens; rejects with its output when it exits first or takes over 30 s.
 */
export function spawnTarget(args: string[]): Promise<TargetProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-env",
      ...(CLI.protocol === "file:" ? [fileURLToPath(CLI)] : ["--allow-import", CLI.href]),
      "target",
      ...args,
      "--port",
      "0",
    ],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  return awaitListening(child, /listening on (http:\/\/\S+?)\/? /, "the target");
}

/**
 * The target `child` (spawned with stdout piped) once it prints `urlPattern` (its first group the
 * URL): resolves then, or stops the child and rejects with what it printed when it exits first
 * or takes over 30 s. `name` names it in that error.
 */
export async function awaitListening(
  child: Deno.ChildProcess,
  urlPattern: RegExp,
  name: string,
): Promise<TargetProcess> {
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
  try {
    while (Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      const m = urlPattern.exec(text);
      if (m) return { url: m[1], pid: child.pid, stop, [Symbol.asyncDispose]: stop };
    }
  } catch { /* reported below */ }
  await stop();
  throw new Error(`${name} did not start: ${text.trim() || "no output"}`);
}
