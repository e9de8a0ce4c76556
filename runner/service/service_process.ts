/**
 * A service tailgate starts, waits for and stops: a command run by `sh -c` in a process group of
 * its own, its output appended to a log file (never piped into tailgate, so nothing waits on a
 * pipe a leftover child still holds), ready once its URL accepts a TCP connection (or its readiness
 * URL answers 2xx), and stopped by ending its whole group (SIGTERM, SIGKILL after the grace). A
 * port something else already answers on is refused, so a stale server cannot pass for the one
 * just started. `tailgate ab` starts its targets with it, `run` and `search` their `--start`.
 *
 * @module
 */
import { checkReachable } from "../engine/preflight.ts";
import { endProcessGroup, signalGroup } from "./process_group.ts";

/** What to start and where it answers. */
export interface ServiceSpec {
  /** The command that starts the service, run by `sh -c`. */
  command: string;
  /** The service's base URL: ready once its host and port accept a TCP connection. */
  url: string;
  /** When given, ready once this URL answers a GET with a 2xx status instead. */
  readyUrl?: string;
}

/** Options of {@linkcode startService}. */
export interface ServiceOptions {
  /** The file the service's standard output and error go to (created or emptied). */
  logPath: string;
  /** How long the service may take to answer (ms; default 60 s). */
  readyTimeoutMs?: number;
  /** How long a stopped service may take to exit before its group is killed (ms; default 5 s). */
  stopGraceMs?: number;
  /** Stops waiting for the service to answer (and stops it). */
  signal?: AbortSignal;
}

/** A started service; disposing it stops it. */
export interface ServiceProcess extends AsyncDisposable {
  /** Its process group: the id of the process the command started in. */
  readonly pgid: number;
  /** Resolves with the command's exit status once its first process exits (stopped or not). */
  readonly exited: Promise<Deno.CommandStatus>;
  /** The last lines of its log, on one line (at most 600 characters; "(none)" when empty). */
  logTail(): Promise<string>;
  /**
   * Ends every process of the group: SIGTERM, then SIGKILL to what is left after the grace,
   * whatever the first process did. Resolves within the grace and about a second; calling it again
   * waits for the same stop.
   */
  stop(): Promise<void>;
}

/** How long a started service may take to be ready unless told otherwise (run, search, ab). */
export const DEFAULT_READY_TIMEOUT_MS = 60_000;
const DEFAULT_STOP_GRACE_MS = 5_000;
/** The process groups started and not yet stopped, for {@linkcode killStartedServices}. */
const STARTED_GROUPS = new Set<number>();

/**
 * SIGKILLs every group {@linkcode startService} started that is not yet stopped, at once and
 * synchronously: for a process about to end without its usual stop (a second Ctrl-C). Returns
 * the groups' ids.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { killStartedServices } from "./service_process.ts";
 * assert.deepEqual(killStartedServices(), []); // when nothing is running
 * ```
 */
export function killStartedServices(): number[] {
  const pgids = [...STARTED_GROUPS];
  for (const pgid of pgids) signalGroup(pgid, "SIGKILL");
  STARTED_GROUPS.clear();
  return pgids;
}

/**
 * Starts `spec.command` and resolves once `spec.url` accepts a connection. Throws, with the last
 * lines of its log, when the command exits first, does not answer in time or `signal` aborts (what
 * it started is stopped first), or when something already answers there.
 */
export async function startService(
  spec: ServiceSpec,
  options: ServiceOptions,
): Promise<ServiceProcess> {
  const url = new URL(spec.url);
  if ((await checkReachable(url, 500)) === undefined) {
    throw new Error(
      `something already listens on ${url.host}, before \`${spec.command}\` started: stop it, or ` +
        "give its URL without a start command",
    );
  }
  await Deno.writeFile(options.logPath, new Uint8Array());
  // setsid: a group of its own. The shell sends its output to the log, then becomes the command.
  const child = new Deno.Command("setsid", {
    args: ["sh", "-c", 'exec >>"$0" 2>&1; exec sh -c "$1"', options.logPath, spec.command],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  STARTED_GROUPS.add(child.pid);
  const watcher = watchForOwnEnd(child.pid);
  let exited: Deno.CommandStatus | undefined;
  const status = child.status.then((s) => (exited = s));
  let stopping: Promise<void> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      await endProcessGroup(child.pid, options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
      STARTED_GROUPS.delete(child.pid);
      signalGroup(watcher.pid, "SIGKILL");
      watcher.ref(); // its end is awaited now
      await Promise.all([status, watcher.status]);
    })();
  const readyMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const deadline = Date.now() + readyMs;
  const readyUrl = spec.readyUrl === undefined ? undefined : new URL(spec.readyUrl);
  const ready = readyUrl === undefined
    ? async () => (await checkReachable(url, 500)) === undefined
    : () => answers2xx(readyUrl);
  const where = readyUrl === undefined ? url.host : `${readyUrl.href} (2xx)`;
  while (!(await ready())) {
    if (exited !== undefined || Date.now() > deadline || options.signal?.aborted) {
      const why = exited !== undefined
        ? `exited with code ${exited.code} before ${where} answered`
        : options.signal?.aborted
        ? "was stopped"
        : `did not answer on ${where} within ${readyMs / 1000} s`;
      await stop();
      throw new Error(`\`${spec.command}\` ${why}; its output: ${await logTail(options.logPath)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pgid: child.pid,
    exited: status,
    logTail: () => logTail(options.logPath),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/**
 * A watcher in a session of its own that ends group `pgid` (SIGTERM, SIGKILL after 5 s) once this
 * process is gone without stopping it: a tailgate killed outright (SIGKILL, the OOM killer) leaves
 * no service behind. A normal stop kills the watcher first. (`kill "-PGID"` without `--`: dash,
 * Debian's sh, takes no `--` there.)
 */
function watchForOwnEnd(pgid: number): Deno.ChildProcess {
  const script = 'while kill -0 "$0" 2>/dev/null; do sleep 1; done; ' +
    'kill -TERM "-$1" 2>/dev/null; sleep 5; kill -KILL "-$1" 2>/dev/null';
  const watcher = new Deno.Command("setsid", {
    args: ["sh", "-c", script, String(Deno.pid), String(pgid)],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  watcher.unref();
  return watcher;
}

/** Whether `url` answers a GET with a 2xx status within 1 s (the body is read and dropped). */
async function answers2xx(url: URL): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000), redirect: "manual" });
    await res.body?.cancel();
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  }
}

/** The last lines of a log, on one line, for an error message. */
async function logTail(path: string): Promise<string> {
  const text = await Deno.readTextFile(path).catch(() => "");
  const last = text.trim().split("\n").slice(-5).join(" | ");
  return last === "" ? "(none)" : last.slice(-600);
}
