/**
 * One side of an A/B comparison: a target given as a URL, or as a command that starts it. A
 * command is started in a process group of its own (`setsid sh -c …`) just before its run, its
 * output kept in a log file, ready once its URL accepts a TCP connection, and stopped after the
 * run (SIGTERM to the group, SIGKILL after 5 s): the two targets never run at the same time, and
 * tailgate ends only what it started. A port something else already listens on is refused, so a
 * stale server cannot pass for the one just started.
 *
 * @module
 */
import { checkReachable } from "../engine/preflight.ts";

/** A target as given on the command line. */
export interface AbTargetSpec {
  /** The base URL the plan's requests go to. */
  url: string;
  /** The command that starts it (run by `sh -c`), when tailgate should start it. */
  start?: string;
}

/** A started (or already running) target; disposing it stops what was started. */
export interface RunningTarget extends AsyncDisposable {
  /** Stops the command (nothing for a URL-only target). */
  stop(): Promise<void>;
}

/** How long a stopped target may take to exit before it is killed. */
const STOP_GRACE_MS = 5_000;

/**
 * Makes `spec` ready: checks a URL-only target answers, or starts its command and waits for its
 * port. Throws with what went wrong (the command's log tail included).
 *
 * @example
 * ```ts
 * import { startAbTarget } from "./ab_target.ts";
 * // await using target = await startAbTarget({ url: "http://127.0.0.1:9001", start: "./server --port 9001" }, { logPath: "base.log" });
 * ```
 */
export async function startAbTarget(
  spec: AbTargetSpec,
  options: { logPath: string; readyTimeoutMs?: number; signal?: AbortSignal },
): Promise<RunningTarget> {
  const url = new URL(spec.url);
  if (spec.start === undefined) {
    const problem = await checkReachable(url);
    if (problem) throw new Error(`${spec.url} does not answer: ${problem}`);
    return { stop: async () => {}, [Symbol.asyncDispose]: async () => {} };
  }
  if ((await checkReachable(url, 500)) === undefined) {
    throw new Error(
      `something already listens on ${url.host}, before \`${spec.start}\` started: stop it, or ` +
        "give its URL without a start command",
    );
  }
  const log = await Deno.open(options.logPath, { write: true, create: true, truncate: true });
  const child = new Deno.Command("setsid", {
    args: ["sh", "-c", spec.start],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = log.writable.getWriter();
  const drain = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeTo(
      new WritableStream({ write: (chunk) => writer.write(chunk) }),
    ).catch(() => {});
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  let exited: Deno.CommandStatus | undefined;
  const status = child.status.then((s) => (exited = s));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (exited === undefined) {
      signalGroup(child.pid, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child.pid, "SIGKILL"), STOP_GRACE_MS);
      await status;
      clearTimeout(timer);
    }
    await drained;
    await writer.close().catch(() => {});
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while ((await checkReachable(url, 500)) !== undefined) {
    if (exited !== undefined || Date.now() > deadline || options.signal?.aborted) {
      const why = exited !== undefined
        ? `exited with code ${exited.code} before ${url.host} answered`
        : options.signal?.aborted
        ? "was stopped"
        : `did not answer on ${url.host} within ${(options.readyTimeoutMs ?? 30_000) / 1000} s`;
      await stop();
      throw new Error(`\`${spec.start}\` ${why}; its output: ${await tail(options.logPath)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { stop, [Symbol.asyncDispose]: stop };
}

function signalGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

async function tail(path: string): Promise<string> {
  const text = await Deno.readTextFile(path).catch(() => "");
  const last = text.trim().split("\n").slice(-5).join(" | ");
  return last === "" ? "(none)" : last.slice(-600);
}
