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
import { checkReachable } from "../engine/mod.ts";
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
  /** When given, ready once 127.0.0.1 accepts a TCP connection on this port instead. */
  readyPort?: number;
  /** The folder the command runs in (default: tailgate's). */
  cwd?: string;
  /**
   * Variables set in the command's environment, beside tailgate's own. They reach the keeper
   * through its environment, never its arguments, which any user of the machine can read.
   */
  env?: Record<string, string>;
}

/**
 * A service that did not get ready: its command failed or left nothing running first, it did not
 * answer in time, or the wait was stopped. What it started is stopped by then. The message is
 * the reason and the log's last lines on one line; `lastLines` holds them as they were.
 */
export class ServiceStartError extends Error {
  /** Why it is not ready, without its output. */
  readonly reason: string;
  /** The last lines of its log (at most {@linkcode TAIL_LINES}), oldest first. */
  readonly lastLines: string[];
  /** Whether the caller's signal stopped the wait. */
  readonly stopped: boolean;

  constructor(reason: string, lastLines: string[], stopped: boolean) {
    super(`${reason}; its output: ${oneLine(lastLines)}`);
    this.name = "ServiceStartError";
    this.reason = reason;
    this.lastLines = lastLines;
    this.stopped = stopped;
  }
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
/** How many of a log's last lines a failure shows. */
export const TAIL_LINES = 10;
/** How many of a line's characters a failure shows (the line's end). */
const TAIL_LINE_CHARS = 300;

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
 * Starts `spec.command` and resolves once `spec.url` accepts a connection (or its readiness URL
 * or port answers). Throws a {@linkcode ServiceStartError}, with the last lines of its log, when
 * the command exits unsuccessfully (or exits leaving no process) first, does not answer in time
 * or `signal` aborts (what it started is stopped first); an Error when something already answers
 * there or the command cannot be started.
 */
export async function startService(
  spec: ServiceSpec,
  options: ServiceOptions,
): Promise<ServiceProcess> {
  const url = new URL(spec.url);
  const readyAddress = spec.readyPort === undefined
    ? undefined
    : new URL(`http://127.0.0.1:${spec.readyPort}/`);
  for (const address of [url, ...(readyAddress ? [readyAddress] : [])]) {
    if ((await checkReachable(address, 500)) === undefined) {
      throw new Error(
        `something already listens on ${address.host}, before \`${spec.command}\` started: stop ` +
          "it, or give its URL without a start command",
      );
    }
  }
  const stopGraceMs = options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;
  const keeper = await startKeeper({
    command: spec.command,
    logPath: options.logPath,
    logMaxBytes: options.logMaxBytes ?? DEFAULT_LOG_MAX_BYTES,
    stopGraceMs,
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
  }, spec.env ?? {}).catch((e: Error) => {
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
      const stillAnswering = await answeringAfterStop([
        url,
        ...(readyUrl ? [readyUrl] : []),
        ...(readyAddress ? [readyAddress] : []),
      ]);
      return { logCutBytes, ...(stillAnswering ? { stillAnswering } : {}) };
    })();
  const readyMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const deadline = Date.now() + readyMs;
  const accepting = readyAddress ?? url;
  let lastStatus: number | undefined;
  const ready = readyUrl === undefined
    ? async () => (await checkReachable(accepting, 500)) === undefined
    : async () => {
      lastStatus = await statusOf(readyUrl) ?? lastStatus;
      return lastStatus !== undefined && lastStatus >= 200 && lastStatus < 300;
    };
  const where = readyUrl === undefined ? accepting.host : `${readyUrl.href} (2xx)`;
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
        : `did not answer on ${where} within ${readyMs / 1000} s${
          lastStatus === undefined ? "" : `; it last answered ${lastStatus}`
        }`;
      const stopped = !failedExit && !ended && options.signal?.aborted === true;
      await stop();
      throw new ServiceStartError(
        `\`${spec.command}\` ${why}`,
        await lastLines(options.logPath),
        stopped,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pgid,
    exited: keeper.exited,
    ended: keeper.ended,
    logTail: async () => oneLine(await lastLines(options.logPath)),
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

/** The status `url` answers a GET with within 1 s (the body dropped); undefined for none. */
async function statusOf(url: URL): Promise<number | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000), redirect: "manual" });
    await res.body?.cancel();
    return res.status;
  } catch {
    return undefined;
  }
}

/**
 * The last {@linkcode TAIL_LINES} lines of a log (read from its last 8 KiB only), each at most
 * 300 characters (its end); none when there is no log or it is empty.
 */
async function lastLines(path: string): Promise<string[]> {
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
  // Colours and cursor moves (CSI sequences) say nothing in a message: dropped.
  // deno-lint-ignore no-control-regex -- ESC is what starts them
  const trimmed = text.replace(/\x1b\[[0-9;?]*[ -\/]*[@-~]/g, "").replace(/\s+$/, "");
  if (trimmed === "") return [];
  return trimmed.split("\n").slice(-TAIL_LINES).map((line) => {
    const text = line.replace(/\r$/, "");
    return text.length > TAIL_LINE_CHARS ? `…${text.slice(-TAIL_LINE_CHARS)}` : text;
  });
}

/** A log's last lines on one line, for an error message (at most 600 characters). */
function oneLine(lines: string[]): string {
  const last = lines.slice(-5).join(" | ").trim();
  return last === "" ? "(none)" : last.slice(-600);
}
