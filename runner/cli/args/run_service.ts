/**
 * `--start CMD` of `tailgate run` and `tailgate search`: the service under test started through
 * runner/service (the mechanism `tailgate ab` uses), its output's last 16 MiB in `service.log` in
 * the out folder, ready once `--ready URL` answers 2xx or else the target's port accepts. A command
 * that fails before the service is ready (or exits 0 leaving nothing running) ends the command with
 * exit 4 (3 when Ctrl-C stopped the wait); a service lost during the run (its command failed, or
 * none of its processes is left) aborts the run, whose result is still written, and turns it into
 * exit 4. After the stop, an address that still answers is an error line naming its holder.
 *
 * @module
 */
import { join } from "node:path";
import {
  DEFAULT_LOG_MAX_BYTES,
  DEFAULT_READY_TIMEOUT_MS,
  startService,
} from "../../service/mod.ts";
import { EXIT_CODES } from "../../model/exit_codes.ts";
import { type CommandOutcome, failed } from "../command.ts";
import { parseDurationMs } from "../../plan/units.ts";
import { err, ok, problems, type Result } from "../../model/result.ts";

/** The options `parseArgs` reads for a started service (every one is in the help). */
export const START_OPTIONS = {
  start: { type: "string" },
  ready: { type: "string" },
  "ready-timeout": { type: "string" },
} as const;

/** The help lines of {@linkcode START_OPTIONS}. */
export const START_HELP =
  `  --start CMD          start the service under test with this command (sh -c, a process group
                       of its own, the last 16 MiB of its output in <out>/service.log) and stop
                       afterwards every process it left, a daemon's too (SIGTERM, SIGKILL after
                       5 s, also on Ctrl-C); exiting 0 while its service runs is a daemon's start;
                       failing before it is ready or during the run ends the command with exit
                       4 and its last log lines
  --ready URL          with --start: ready once this URL answers 2xx (default: once the
                       target's port accepts a connection)
  --ready-timeout DUR  with --start: how long the service may take to be ready (default 60s);
                       Ctrl-C while waiting stops it and exits 3`;

/** A service to start before the load. */
export interface StartSpec {
  /** The command (run by `sh -c`). */
  command: string;
  /** Ready once this URL answers 2xx (default: the target's port accepts). */
  readyUrl?: string;
  /** How long it may take to be ready (ms). */
  readyTimeoutMs: number;
}

/**
 * Reads `--start`, `--ready` and `--ready-timeout`: the spec (undefined without `--start`) or
 * the problems, each naming its flag.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readStartArgs } from "./run_service.ts";
 * assert.deepEqual(readStartArgs({ start: "npm start", "ready-timeout": "30s" }), {
 *   ok: true,
 *   value: { command: "npm start", readyTimeoutMs: 30000 },
 * });
 * ```
 */
export function readStartArgs(
  v: { start?: string; ready?: string; "ready-timeout"?: string },
): Result<StartSpec | undefined> {
  const errors: string[] = [];
  if (v.start === undefined) {
    const stray = (["ready", "ready-timeout"] as const).filter((f) => v[f] !== undefined);
    if (stray.length) {
      errors.push(`${stray.map((f) => `--${f}`).join(", ")} need --start: the command to start`);
    }
    return errors.length ? err(problems(errors)) : ok(undefined);
  }
  if (v.start.trim() === "") errors.push("--start: give the command that starts the service");
  if (v.ready !== undefined && !/^https?:\/\/[^/]/.test(v.ready)) {
    errors.push(`--ready \`${v.ready}\` is not an http(s) URL`);
  }
  const timeout = v["ready-timeout"] === undefined
    ? { ok: true as const, value: DEFAULT_READY_TIMEOUT_MS }
    : parseDurationMs(v["ready-timeout"]);
  if (!timeout.ok) {
    const { message, hint } = timeout.problems[0];
    errors.push(`--ready-timeout: ${message}${hint ? `; ${hint}` : ""}`);
  } else if (timeout.value <= 0) errors.push("--ready-timeout: give a duration above zero");
  if (errors.length || !timeout.ok) return err(problems(errors));
  return ok({
    command: v.start,
    ...(v.ready === undefined ? {} : { readyUrl: v.ready }),
    readyTimeoutMs: timeout.value,
  });
}

/** A started service while the run goes on; disposing it stops it. */
export interface RunService extends AsyncDisposable {
  /** Aborts when the caller's signal does, or when the service ends before it is stopped. */
  readonly signal: AbortSignal;
  /** Why the run lost its service (exit status and last log lines), once it ended; else undefined. */
  death(): string | undefined;
  /** Its process group, whose processes' wait for a CPU the run measures (`runPlan`'s `service`). */
  readonly pgid: number;
  /**
   * Stops it (every process it left, also one in a session of its own), then says what the stop
   * found: an address that still answers (an error line) and a log cut at its head (a note).
   */
  stop(): Promise<{ errors: string[]; notes: string[] }>;
}

/**
 * Starts `start` in front of `targetUrl`, its log `service.log` in `outDir`, and waits for it to be
 * ready: the running service, or the outcome to return (exit 4; 3 when `signal` stopped the wait).
 * A command that exits 0 while processes it started still run is a daemon's start: the service
 * is lost only when its command fails or none of its processes is left.
 */
export async function startRunService(
  start: StartSpec,
  targetUrl: string,
  outDir: string,
  signal?: AbortSignal,
): Promise<{ service: RunService } | { outcome: CommandOutcome }> {
  const logPath = join(outDir, "service.log");
  let process;
  try {
    await Deno.mkdir(outDir, { recursive: true });
    process = await startService(
      {
        command: start.command,
        url: targetUrl,
        ...(start.readyUrl ? { readyUrl: start.readyUrl } : {}),
      },
      { logPath, readyTimeoutMs: start.readyTimeoutMs, ...(signal ? { signal } : {}) },
    );
  } catch (e) {
    const message = `--start: ${(e as Error).message} (all of it in ${logPath})`;
    return {
      outcome: failed(message, signal?.aborted ? EXIT_CODES.invalidRun : EXIT_CODES.unreachable),
    };
  }
  const died = new AbortController();
  let stopping = false;
  let losing = false;
  let death: string | undefined;
  const lost = async (how: string) => {
    if (stopping || losing) return;
    losing = true;
    // The command is not repeated: it may carry a secret, and this goes into the result.
    const tail = await process.logTail();
    death = `the service (--start) ${how}; its last lines: ${tail} (all of it in ${logPath})`;
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
        errors: stillAnswering ? [`--start: ${stillAnswering}`] : [],
        notes: logCutBytes > 0
          ? [
            `${logPath} keeps the service's last ${formatBytes(DEFAULT_LOG_MAX_BYTES)}: ` +
            `its first ${logCutBytes} bytes were cut`,
          ]
          : [],
      };
    })();
  return {
    service: {
      signal: signal ? AbortSignal.any([signal, died.signal]) : died.signal,
      death: () => death,
      pgid: process.pgid,
      stop,
      [Symbol.asyncDispose]: async () => void await stop(),
    },
  };
}

/**
 * Runs `work` while `service` (when there is one) runs, then stops it: the outcome gains what the
 * stop found (an address that still answers, a log cut at its head). A `work` that throws stops
 * the service too.
 */
export async function withRunService<T extends CommandOutcome>(
  service: RunService | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (service === undefined) return await work();
  let outcome: T;
  try {
    outcome = await work();
  } catch (e) {
    await service.stop();
    throw e;
  }
  const { errors, notes } = await service.stop();
  return {
    ...outcome,
    errors: [...outcome.errors, ...errors],
    notes: [...outcome.notes, ...notes],
  };
}

/** 16 MiB, 300 bytes: a size in words. */
function formatBytes(bytes: number): string {
  const mib = 1024 * 1024;
  return bytes % mib === 0 ? `${bytes / mib} MiB` : `${bytes} bytes`;
}
