/**
 * `--start CMD` of `tailgate run` and `tailgate search`: the service under test started through
 * runner/service (the mechanism `tailgate ab` uses), its output in `service.log` in the out
 * folder, ready once `--ready URL` answers 2xx or else the target's port accepts. A service that
 * exits before it is ready ends the command with exit 4 (3 when Ctrl-C stopped the wait); one that
 * exits during the run aborts the run, whose result is still written, and turns it into exit 4.
 *
 * @module
 */
import { join } from "node:path";
import { DEFAULT_READY_TIMEOUT_MS, startService } from "../../service/mod.ts";
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
                       of its own, output in <out>/service.log) and stop it afterwards (SIGTERM,
                       SIGKILL after 5 s, also on Ctrl-C); it exiting before it is ready or during
                       the run ends the command with exit 4 and its last log lines
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
  /** Aborts when the caller's signal does, or when the service exits before it is stopped. */
  readonly signal: AbortSignal;
  /** Why the run lost its service (exit status and last log lines), once it exited; else undefined. */
  death(): string | undefined;
  /** Its process group, whose processes' wait for a CPU the run measures (`runPlan`'s `service`). */
  readonly pgid: number;
}

/**
 * Starts `start` in front of `targetUrl`, its log `service.log` in `outDir`, and waits for it to be
 * ready: the running service, or the outcome to return (exit 4; 3 when `signal` stopped the wait).
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
  let death: string | undefined;
  process.exited.then(async (status) => {
    if (stopping) return;
    const how = status.signal
      ? `was killed by ${status.signal}`
      : `exited with code ${status.code}`;
    // The command is not repeated: it may carry a secret, and this goes into the result.
    const tail = await process.logTail();
    death = `the service (--start) ${how} during the run; its last lines: ${tail} (all of it in ` +
      `${logPath})`;
    died.abort();
  });
  const stop = async () => {
    stopping = true;
    await process.stop();
  };
  return {
    service: {
      signal: signal ? AbortSignal.any([signal, died.signal]) : died.signal,
      death: () => death,
      pgid: process.pgid,
      [Symbol.asyncDispose]: stop,
    },
  };
}
