/**
 * tailgate's side of a service keeper (service_keeper.ts): starts it (a Deno process in a session
 * of its own), reads what it says (JSON lines), and stops it by ending its input; a keeper that
 * does not end in time is killed with every process below it. The keepers not yet stopped are
 * remembered, so a tailgate about to exit at once can kill their services
 * ({@linkcode killKeptServices}).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { signalService } from "./process_tree.ts";
import type { KeeperArgs, KeeperMessage } from "./service_keeper.ts";

/** The keeper's module: a file, or a URL when tailgate was installed from one. */
const KEEPER = new URL("./service_keeper.ts", import.meta.url);

/** The keepers started and not yet stopped, with their command's process group. */
const STARTED = new Map<number, { keeperPid: number; pgid: number }>();

/**
 * SIGKILLs every process of every service a keeper still keeps, at once and synchronously; returns
 * their process groups. Each keeper, its input ended with tailgate, then writes its log and exits.
 */
export function killKeptServices(): number[] {
  const started = [...STARTED.values()];
  for (const { keeperPid, pgid } of started) signalService(keeperPid, pgid, "SIGKILL");
  STARTED.clear();
  return started.map((s) => s.pgid);
}

/** A keeper under way: the command's group, its exit, the service's end, and how to stop it. */
export interface Keeper {
  pgid: number;
  exited: Promise<Deno.CommandStatus>;
  ended: Promise<void>;
  /** Ends the service (the keeper's input closed), waiting `waitMs` at most: the bytes cut. */
  stop(waitMs: number): Promise<number>;
}

/**
 * Starts the keeper of `args` (in a session of its own), `env` added to its environment (which
 * its command inherits), and resolves once its command started; throws with what the keeper said
 * when it could not start it (its log not writable, its folder missing).
 */
export async function startKeeper(
  args: KeeperArgs,
  env: Record<string, string> = {},
): Promise<Keeper> {
  const child = new Deno.Command("setsid", {
    args: [
      Deno.execPath(),
      "run",
      "--quiet",
      "--no-config",
      // It runs any command anyway; and Deno reads /proc (the service's processes) only so.
      "--allow-all",
      ...(KEEPER.protocol === "file:" ? [fileURLToPath(KEEPER)] : ["--allow-import", KEEPER.href]),
      JSON.stringify(args),
    ],
    // Not in the arguments: any user of the machine can read those, and a value may be secret.
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const input = child.stdin.getWriter();
  let started: (pgid: number | undefined) => void = () => {};
  const pgid = new Promise<number | undefined>((resolve) => started = resolve);
  let exited: (status: Deno.CommandStatus) => void = () => {};
  const exitedPromise = new Promise<Deno.CommandStatus>((resolve) => exited = resolve);
  let logCutBytes = 0;
  let failure = "";
  const reading = (async () => {
    for await (const message of keeperMessages(child.stdout)) {
      if ("started" in message) started(message.started.pgid);
      else if ("exited" in message) exited(message.exited);
      else if ("ended" in message) logCutBytes = message.ended.logCutBytes;
      else failure = message.failed;
    }
  })();
  const ended = Promise.all([child.status, reading]).then(([status]) => {
    started(undefined);
    // A keeper that ended without telling the command's exit: its own status stands for it.
    exited({ success: false, code: status.code, signal: status.signal });
  });
  const group = await pgid;
  if (group === undefined) {
    await input.close().catch(() => {});
    await ended;
    throw new Error(`tailgate's service keeper: ${failure || "it exited before it began"}`);
  }
  STARTED.set(child.pid, { keeperPid: child.pid, pgid: group });
  let stopping: Promise<number> | undefined;
  return {
    pgid: group,
    exited: exitedPromise,
    ended,
    stop: (waitMs) =>
      stopping ??= (async () => {
        await input.close().catch(() => {});
        let timer: ReturnType<typeof setTimeout> | undefined;
        const inTime = await Promise.race([
          ended.then(() => true),
          new Promise<boolean>((r) => timer = setTimeout(() => r(false), waitMs)),
        ]);
        clearTimeout(timer);
        if (!inTime) {
          // The keeper is stuck: tailgate ends the service itself, then the keeper.
          signalService(child.pid, group, "SIGKILL");
          child.kill("SIGKILL");
        }
        await ended;
        STARTED.delete(child.pid);
        return logCutBytes;
      })(),
  };
}

/** The keeper's JSON lines, parsed; a line that is not one is skipped. */
async function* keeperMessages(stdout: ReadableStream<Uint8Array>): AsyncGenerator<KeeperMessage> {
  let text = "";
  for await (const chunk of stdout.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    let newline;
    while ((newline = text.indexOf("\n")) >= 0) {
      const line = text.slice(0, newline);
      text = text.slice(newline + 1);
      try {
        yield JSON.parse(line) as KeeperMessage;
      } catch {
        // Not the keeper's.
      }
    }
  }
}
