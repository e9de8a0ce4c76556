/**
 * The service under test, started for a run (`tailgate run`, `tailgate search`): the plan's
 * `service`, or the command line's `--start`, started through runner/service with its output's
 * last 16 MiB in `service.log` in the out folder, ready once its readiness URL answers 2xx or
 * its port (else the target's) accepts, the wait said as it goes. While the load runs, a command
 * that fails (or a service none of whose processes is left) aborts the run; afterwards every
 * process it left is stopped and an address that still answers is named. A command that exits 0
 * while processes it started still run is a daemon's start.
 *
 * @module
 */
import { join } from "node:path";
import { DEFAULT_LOG_MAX_BYTES, ServiceStartError, startService } from "../service/mod.ts";
import { printable } from "../plan/mod.ts";
import type { PlanService } from "../plan/mod.ts";
import { err, ok, type Problem, type Result } from "../model/mod.ts";

/** A service to start before the load: the plan's, or `--start`'s. */
export interface ServiceToStart extends Omit<PlanService, "cwd" | "line"> {
  /** The folder it runs in (default: tailgate's). */
  cwd?: string;
  /** Where it was given: the plan's `service`, or `--start` (messages name it). */
  origin: "plan" | "--start";
}

/** Why a service did not get ready. */
export interface ServiceFailure extends Problem {
  /** The caller's signal stopped the wait (else the service failed, or was not ready in time). */
  stopped: boolean;
  /** The last lines of its log, oldest first (none when it wrote nothing, or never ran). */
  lastLines: string[];
  /** The log with all of its output. */
  logPath: string;
}

/** A started service while the run goes on; disposing it stops it. */
export interface RunService extends AsyncDisposable {
  /** Aborts when the caller's signal does, or when the service ends before it is stopped. */
  readonly signal: AbortSignal;
  /** Why the run lost its service (exit status and last log lines), once it ended; else undefined. */
  death(): string | undefined;
  /** Its process group, whose processes' wait for a CPU the run measures (`measureRun`'s `service`). */
  readonly pgid: number;
  /**
   * Stops it (every process it left, also one in a session of its own), then says what the stop
   * found: an address that still answers (an error line) and a log cut at its head (a note).
   */
  stop(): Promise<{ errors: string[]; notes: string[] }>;
}

/** Options of {@linkcode startRunService}. */
export interface StartRunServiceOptions {
  /** The folder `service.log` goes in (made when missing). */
  outDir: string;
  /** Stops the wait (and the service). */
  signal?: AbortSignal;
  /** Progress lines: the start, the wait going on, the service ready. */
  onProgress?: (line: string) => void;
  /** How often a wait says it goes on (ms; default 10 s). */
  waitNoticeMs?: number;
}

const WAIT_NOTICE_MS = 10_000;

/** How messages name where the service was given: a prefix, and its subject. */
function names(origin: ServiceToStart["origin"]): { label: string; subject: string } {
  return origin === "plan"
    ? { label: "the plan's service", subject: "the plan's service" }
    : { label: "--start", subject: "the service (--start)" };
}

/**
 * Starts `service` in front of `targetUrl` and waits for it to be ready, saying so through
 * `onProgress` (`starting … (waiting for …)`, every 10 s `still waiting …`, `ready after 4.2s`):
 * the running service, or why it is not (its log's last lines with it). What it started is
 * stopped by then.
 */
export async function startRunService(
  service: ServiceToStart,
  targetUrl: string,
  options: StartRunServiceOptions,
): Promise<Result<RunService, ServiceFailure>> {
  const { label, subject } = names(service.origin);
  const logPath = join(options.outDir, "service.log");
  const ready = service.ready;
  const awaited = ready === undefined
    ? `${new URL(targetUrl).host} to accept a connection`
    : "url" in ready
    ? ready.url
    : `127.0.0.1:${ready.port} to accept a connection`;
  const progress = options.onProgress ?? (() => {});
  progress(`starting \`${printable(service.command)}\` (waiting for ${printable(awaited)})`);
  const startedMs = performance.now();
  const timeoutS = service.readyTimeoutMs / 1000;
  const notices = setInterval(() => {
    const waitedS = Math.round((performance.now() - startedMs) / 1000);
    progress(`still waiting for ${printable(awaited)} (${waitedS}s of ${timeoutS}s)`);
  }, options.waitNoticeMs ?? WAIT_NOTICE_MS);
  let process;
  try {
    await Deno.mkdir(options.outDir, { recursive: true });
    process = await startService(
      {
        command: service.command,
        url: targetUrl,
        ...(ready && "url" in ready ? { readyUrl: ready.url } : {}),
        ...(ready && "port" in ready ? { readyPort: ready.port } : {}),
        ...(service.cwd === undefined ? {} : { cwd: service.cwd }),
        ...(Object.keys(service.env).length ? { env: service.env } : {}),
      },
      {
        logPath,
        readyTimeoutMs: service.readyTimeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
  } catch (e) {
    const started = e instanceof ServiceStartError;
    const reason = started ? e.reason : (e as Error).message;
    const taken = !started && reason.startsWith("something already listens");
    return err({
      message: `${label}: ${reason} (all of it in ${logPath})`,
      ...(taken && service.origin === "plan"
        ? { hint: "--no-start runs the plan against what already answers there" }
        : {}),
      stopped: started ? e.stopped : options.signal?.aborted === true,
      lastLines: started ? e.lastLines : [],
      logPath,
    });
  } finally {
    clearInterval(notices);
  }
  progress(`ready after ${((performance.now() - startedMs) / 1000).toFixed(1)}s`);
  return ok(watch(process, { subject, label, logPath, signal: options.signal }));
}

/** The running service watched: lost when its command fails or none of its processes is left. */
function watch(
  process: Awaited<ReturnType<typeof startService>>,
  { subject, label, logPath, signal }: {
    subject: string;
    label: string;
    logPath: string;
    signal: AbortSignal | undefined;
  },
): RunService {
  const died = new AbortController();
  let stopping = false;
  let losing = false;
  let death: string | undefined;
  const lost = async (how: string) => {
    if (stopping || losing) return;
    losing = true;
    // The command is not repeated: it may carry a secret, and this goes into the result.
    const tail = await process.logTail();
    death = `${subject} ${how}; its last lines: ${tail} (all of it in ${logPath})`;
    died.abort();
  };
  process.exited.then((status) => {
    if (status.success) return; // a daemon's start, or the service's own end: `ended` tells
    lost(
      `${status.signal ? `was killed by ${status.signal}` : `exited with code ${status.code}`} ` +
        "during the run",
    );
  });
  process.ended.then(() =>
    lost(
      "ended during the run: its command had exited with code 0 and none of its processes is left",
    )
  );
  let stopped: Promise<{ errors: string[]; notes: string[] }> | undefined;
  const stop = () =>
    stopped ??= (async () => {
      stopping = true;
      const { logCutBytes, stillAnswering } = await process.stop();
      return {
        errors: stillAnswering ? [`${label}: ${stillAnswering}`] : [],
        notes: logCutBytes > 0
          ? [
            `${logPath} keeps the service's last ${formatBytes(DEFAULT_LOG_MAX_BYTES)}: ` +
            `its first ${logCutBytes} bytes were cut`,
          ]
          : [],
      };
    })();
  return {
    signal: signal ? AbortSignal.any([signal, died.signal]) : died.signal,
    death: () => death,
    pgid: process.pgid,
    stop,
    [Symbol.asyncDispose]: async () => void await stop(),
  };
}

/** 16 MiB, 300 bytes: a size in words. */
function formatBytes(bytes: number): string {
  const mib = 1024 * 1024;
  return bytes % mib === 0 ? `${bytes / mib} MiB` : `${bytes} bytes`;
}
