/**
 * A service tailgate starts, waits for and stops. tailgate starts a keeper (service_keeper.ts: a
 * Deno process in a session of its own, a child subreaper), which runs the command by `sh -c` in a
 * process group of its own, writes its output into a log that keeps the last 16 MiB (never piped
 * into tailgate, never written through a link), and stays the ancestor of every process the
 * command leaves: one under `setsid`, a daemon that forks and exits. The service is ready once its
 * URL accepts a TCP connection (or its readiness URL answers 2xx); a command that exits 0 while
 * processes of it still run is a daemon starting, not a failure. Stopping it ends every process
 * below the keeper (SIGTERM, SIGKILL after the grace), then checks that nothing answers on its
 * address any more, naming the process that still does. A port something else already answers on
 * is refused, so a stale server cannot pass for the one just started. `tailgate ab` starts its
 * targets with it, `run` and `search` their `--start`.
 *
 * @module
 */
import { checkReachable } from "../engine/preflight.ts";
import { listeningHolders, processNames } from "./find_service.ts";
import { killKeptServices, startKeeper } from "./keeper_link.ts";
import { DEFAULT_LOG_MAX_BYTES } from "./tail_log.ts";

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
  /** The log the service's standard output and error go to (a new file in its place). */
  logPath: string;
  /** How much of the output the log keeps: its last bytes (default 16 MiB). */
  logMaxBytes?: number;
  /** How long the service may take to answer (ms; default 60 s). */
  readyTimeoutMs?: number;
  /** How long a stopped service may take to exit before its processes are killed (ms; default 5 s). */
  stopGraceMs?: number;
  /** Stops waiting for the service to answer (and stops it). */
  signal?: AbortSignal;
}

/** What stopping a service found. */
export interface ServiceStop {
  /** How many bytes of its output the log cut from its head (0: the log holds all of it). */
  logCutBytes: number;
  /**
   * When its address still answers after the stop: which process holds it, in words; a process
   * tailgate did not start (or could not see), which it leaves alone.
   */
  stillAnswering?: string;
}

/** A started service; disposing it stops it. */
export interface ServiceProcess extends AsyncDisposable {
  /** Its command's process group: the id of the process the command started in. */
  readonly pgid: number;
  /** Resolves with the command's exit status once its first process exits (stopped or not). */
  readonly exited: Promise<Deno.CommandStatus>;
  /** Resolves once no process of the service is left (on its own, or stopped). */
  readonly ended: Promise<void>;
  /** The last lines of its log, on one line (at most 600 characters; "(none)" when empty). */
  logTail(): Promise<string>;
  /**
   * Ends every process of the service: SIGTERM, then SIGKILL to what is left after the grace,
   * whatever the command's first process did; then looks whether its address still answers.
   * Resolves within the grace and about two seconds; calling it again waits for the same stop.
   */
  stop(): Promise<ServiceStop>;
}

/** How long a started service may take to be ready unless told otherwise (run, search, ab). */
export const DEFAULT_READY_TIMEOUT_MS = 60_000;
const DEFAULT_STOP_GRACE_MS = 5_000;
/** How long the keeper may take past the grace to end the service before tailgate kills it all. */
const KEEPER_SLACK_MS = 5_000;
/** How much of a log's end is read for its last lines. */
const TAIL_READ_BYTES = 8 * 1024;

/**
 * SIGKILLs every process of every service {@linkcode startService} started that is not yet stopped,
 * at once and synchronously: for a process about to end without its usual stop (a second Ctrl-C).
 * Each keeper, its input ended with tailgate, then writes its log and exits. Returns the services'
 * process groups.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { killStartedServices } from "./service_process.ts";
 * assert.deepEqual(killStartedServices(), []); // when nothing is running
 * ```
 */
export function killStartedServices(): number[] {
  return killKeptServices();
}

/**
 * Starts `spec.command` and resolves once `spec.url` accepts a connection. Throws, with the last
 * lines of its log, when the command exits unsuccessfully (or exits leaving no process) first,
 * does not answer in time or `signal` aborts (what it started is stopped first), or when something
 * already answers there.
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
  const stopGraceMs = options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;
  const keeper = await startKeeper({
    command: spec.command,
    logPath: options.logPath,
    logMaxBytes: options.logMaxBytes ?? DEFAULT_LOG_MAX_BYTES,
    stopGraceMs,
  }).catch((e: Error) => {
    throw new Error(`\`${spec.command}\` could not be started: ${e.message}`);
  });
  const { pgid } = keeper;
  let exited: Deno.CommandStatus | undefined;
  keeper.exited.then((s) => exited = s);
  let ended = false;
  keeper.ended.then(() => ended = true);
  const readyUrl = spec.readyUrl === undefined ? undefined : new URL(spec.readyUrl);
  let stopping: Promise<ServiceStop> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      const logCutBytes = await keeper.stop(stopGraceMs + KEEPER_SLACK_MS);
      const stillAnswering = await answeringAfterStop([url, ...(readyUrl ? [readyUrl] : [])]);
      return { logCutBytes, ...(stillAnswering ? { stillAnswering } : {}) };
    })();
  const readyMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const deadline = Date.now() + readyMs;
  const ready = readyUrl === undefined
    ? async () => (await checkReachable(url, 500)) === undefined
    : () => answers2xx(readyUrl);
  const where = readyUrl === undefined ? url.host : `${readyUrl.href} (2xx)`;
  while (!(await ready())) {
    const failedExit = exited !== undefined && !exited.success;
    if (failedExit || ended || Date.now() > deadline || options.signal?.aborted) {
      const why = failedExit || (ended && exited !== undefined)
        ? `exited with code ${exited!.code}${
          failedExit ? "" : " and left no process running"
        } before ${where} answered`
        : ended
        ? `ended before ${where} answered`
        : options.signal?.aborted
        ? "was stopped"
        : `did not answer on ${where} within ${readyMs / 1000} s`;
      await stop();
      throw new Error(`\`${spec.command}\` ${why}; its output: ${await logTail(options.logPath)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pgid,
    exited: keeper.exited,
    ended: keeper.ended,
    logTail: () => logTail(options.logPath),
    stop,
    [Symbol.asyncDispose]: async () => void await stop(),
  };
}

/**
 * After a stop: the first of `urls` whose host and port still accept a connection, with the
 * processes that hold its listening socket (loopback only), in words; undefined when none does.
 */
async function answeringAfterStop(urls: URL[]): Promise<string | undefined> {
  const seen = new Set<string>();
  for (const url of urls) {
    if (seen.has(url.host)) continue;
    seen.add(url.host);
    if ((await checkReachable(url, 500)) !== undefined) continue;
    const pids = listeningHolders(url);
    const who = pids.length === 0
      ? "no process tailgate can see holds it"
      : `${pids.length === 1 ? "PID" : "PIDs"} ${pids.join(", ")} (${processNames(pids)}) ${
        pids.length === 1 ? "holds" : "hold"
      } it`;
    return `${url.host} still answers after the service was stopped: ${who}, a process tailgate ` +
      "did not start or could not reach: stop it yourself, or the next start finds the port taken";
  }
  return undefined;
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

/** The last lines of a log (read from its last 8 KiB only), on one line, for an error message. */
async function logTail(path: string): Promise<string> {
  let text = "";
  try {
    if ((await Deno.lstat(path)).isFile) {
      using file = await Deno.open(path, { read: true });
      const size = (await file.stat()).size;
      const start = Math.max(0, size - TAIL_READ_BYTES);
      await file.seek(start, Deno.SeekMode.Start);
      const bytes = new Uint8Array(size - start);
      let length = 0;
      while (length < bytes.length) {
        const n = await file.read(bytes.subarray(length));
        if (n === null) break;
        length += n;
      }
      text = new TextDecoder().decode(bytes.subarray(0, length));
    }
  } catch {
    // No log: none shown.
  }
  const last = text.trim().split("\n").slice(-5).join(" | ");
  return last === "" ? "(none)" : last.slice(-600);
}
