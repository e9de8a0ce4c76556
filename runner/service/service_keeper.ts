/**
 * The keeper of a started service: the process tailgate starts (a Deno process in a session of its
 * own), which starts the command and stays its ancestor until the service has ended.
 *
 * - It is a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`), so a process the command leaves
 *   behind (one started under `setsid`, a daemon that forks and lets its parent exit) is adopted
 *   by the keeper instead of init: every process of the service stays below it, where
 *   process_tree.ts finds it. It reaps the orphans it adopts; the command itself is Deno's.
 * - The command runs by `sh -c` in a session and process group of its own, its standard output and
 *   error in one pipe the keeper copies into the log (tail_log.ts: the last 16 MiB by default).
 * - When its standard input ends (tailgate stops it, or is gone however it ended: killed outright
 *   too), it ends every process below it (SIGTERM, SIGKILL after the grace) and exits; it exits
 *   too once the command has exited and no process of the service is left.
 *
 * It tells tailgate what happens as JSON lines on its standard output ({@linkcode KeeperMessage}).
 * Without FFI (or off Linux) it adopts nothing: what leaves the command's tree is then out of its
 * reach, as it would be without a keeper, except through the process group.
 *
 * @module
 */
import { TailLog } from "./tail_log.ts";
import { endProcessTree, isAlive, liveServiceProcesses, readProcesses } from "./process_tree.ts";

/** What the keeper is given (one JSON argument). */
export interface KeeperArgs {
  /** The command, run by `sh -c`. */
  command: string;
  /** The log its output goes to. */
  logPath: string;
  /** How much of the output the log keeps (its last bytes). */
  logMaxBytes: number;
  /** How long the service's processes get after SIGTERM before SIGKILL (ms). */
  stopGraceMs: number;
  /** The folder the command runs in (default: the keeper's). */
  cwd?: string;
}

/** One line the keeper writes on its standard output. */
export type KeeperMessage =
  /** The command started: its process group; whether orphans are adopted. */
  | { started: { pgid: number; adopts: boolean } }
  /** The command's first process exited (its output up to then is in the log). */
  | { exited: { success: boolean; code: number; signal: Deno.Signal | null } }
  /** Every process of the service is gone and the log is final: the bytes cut from its head. */
  | { ended: { logCutBytes: number } }
  /** The keeper could not do its work. */
  | { failed: string };

/** `prctl` option: orphaned descendants are re-parented to this process, not to init. */
const PR_SET_CHILD_SUBREAPER = 36;
/** `waitpid` option: return at once when the child has not exited. */
const WNOHANG = 1;
/** How long the output may stay quiet before an exit is told (its last lines are then logged). */
const SETTLE_MS = 50;
/** How much of the output is read at a time. */
const READ_BYTES = 64 * 1024;
/** How long the output is read for, at most, once the service has ended or exited. */
const DRAIN_MS = 1_000;

const encoder = new TextEncoder();

/** Tells tailgate; a tailgate gone (the pipe broken) is not the keeper's end: it has work left. */
function send(message: KeeperMessage): void {
  const bytes = encoder.encode(JSON.stringify(message) + "\n");
  try {
    let written = 0;
    while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
  } catch {
    // Nobody listens any more.
  }
}

/** libc's `prctl` and `waitpid`, once the keeper is a subreaper; undefined when it cannot be. */
function becomeSubreaper(): ((pid: number) => void) | undefined {
  try {
    const libc = Deno.dlopen("libc.so.6", {
      prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
      waitpid: { parameters: ["i32", "pointer", "i32"], result: "i32" },
    });
    if (libc.symbols.prctl(PR_SET_CHILD_SUBREAPER, 1n, 0n, 0n, 0n) !== 0) return undefined;
    return (pid) => void libc.symbols.waitpid(pid, null, WNOHANG);
  } catch {
    return undefined;
  }
}

/** The command, by `sh -c` in a session and process group of its own, its output piped. */
function spawnCommand(args: KeeperArgs): Deno.ChildProcess {
  return new Deno.Command("setsid", {
    // One pipe for both: the output's lines stay in the order they were written.
    args: ["sh", "-c", 'exec 2>&1; exec sh -c "$1"', "sh", args.command],
    ...(args.cwd === undefined ? {} : { cwd: args.cwd }),
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
}

/** Runs the keeper: starts `args.command` and keeps it until the service has ended. */
export async function keep(args: KeeperArgs): Promise<never> {
  const reap = becomeSubreaper();
  const log = await TailLog.create(args.logPath, args.logMaxBytes);
  let child: Deno.ChildProcess;
  try {
    child = spawnCommand(args);
  } catch (e) {
    throw new Error(
      `could not run \`sh\`${args.cwd === undefined ? "" : ` in ${args.cwd}`}: ${
        (e as Error).message
      }`,
    );
  }
  const pgid = child.pid;
  send({ started: { pgid, adopts: reap !== undefined } });

  // The output, copied into the log as it comes; a log that cannot be written drops it, so the
  // service never blocks on a full pipe.
  // One buffer, read into again and again: copying much output allocates nothing.
  const reader = child.stdout.getReader({ mode: "byob" });
  let buffer = new Uint8Array(READ_BYTES);
  let lastOutputMs = performance.now();
  let logFailed = false;
  const copying = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read(buffer);
        if (done || value === undefined) return;
        lastOutputMs = performance.now();
        if (!logFailed) await log.write(value).catch(() => logFailed = true);
        buffer = new Uint8Array(value.buffer);
      }
    } catch {
      // Cancelled: the keeper is done.
    }
  })();
  let copied = false;
  copying.then(() => copied = true);
  const settled = async () => {
    const deadline = performance.now() + DRAIN_MS;
    while (!copied && performance.now() < deadline) {
      if (performance.now() - lastOutputMs >= SETTLE_MS) return;
      await new Promise((r) => setTimeout(r, SETTLE_MS / 2));
    }
  };

  /** Reaps the adopted orphans that exited (never the command: Deno reaps it). */
  const reapAdopted = () => {
    if (reap === undefined) return;
    for (const p of readProcesses() ?? []) {
      if (p.ppid === Deno.pid && p.pid !== child.pid && !isAlive(p)) reap(p.pid);
    }
  };

  let finishing: Promise<never> | undefined;
  const finish = () =>
    finishing ??= (async () => {
      await Promise.race([copying, new Promise((r) => setTimeout(r, DRAIN_MS))]);
      await reader.cancel().catch(() => {});
      await copying;
      const logCutBytes = await log.close().catch(() => 0);
      send({ ended: { logCutBytes } });
      Deno.exit(0);
    })();

  let commandExited = false;
  const endedByItself = () => {
    reapAdopted();
    if (commandExited && liveServiceProcesses(Deno.pid, pgid).length === 0) finish();
  };
  child.status.then(async ({ success, code, signal }) => {
    await settled();
    send({ exited: { success, code, signal } });
    commandExited = true;
    endedByItself();
  });
  // An adopted orphan's exit is a SIGCHLD here; without adopting, the orphans are looked for.
  if (reap !== undefined) Deno.addSignalListener("SIGCHLD", endedByItself);
  else setInterval(endedByItself, 1_000);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await endProcessTree(Deno.pid, pgid, args.stopGraceMs, reapAdopted);
    reapAdopted();
    await finish();
  };
  Deno.addSignalListener("SIGTERM", stop);
  for await (const _ of Deno.stdin.readable) {
    // Nothing is read: the end of the input is the word.
  }
  await stop();
  return await finish();
}

if (import.meta.main) {
  try {
    await keep(JSON.parse(Deno.args[0] ?? "{}") as KeeperArgs);
  } catch (e) {
    send({ failed: (e as Error).message });
    Deno.exit(1);
  }
}
