/**
 * The service under test of `tailgate run` and `tailgate search`: the plan's `service`, which
 * `--start CMD` replaces, `--ready` and `--ready-timeout` override and `--no-start` skips. It is
 * started by runner/api (`startRunService`): its output's last 16 MiB in `service.log` in the
 * out folder, the wait said as progress lines. A service that fails before it is ready (or exits
 * 0 leaving nothing running, or is not ready in time) ends the command with exit 4 (3 when Ctrl-C
 * stopped the wait), its log's last lines printed; a service lost during the run aborts the run,
 * whose result is still written, and turns it into exit 4. After the stop, an address that still
 * answers is an error line naming its holder.
 *
 * @module
 */
import { DEFAULT_READY_TIMEOUT_MS } from "../../service/mod.ts";
import {
  type RunService,
  type ServiceFailure,
  type ServiceToStart,
  startRunService,
} from "../../api/mod.ts";
import { EXIT_CODES } from "../../model/mod.ts";
import { type CommandOutcome, failed } from "../command.ts";
import { parseDurationMs } from "../../plan/mod.ts";
import type { ResolvedPlan } from "../../plan/mod.ts";
import { err, ok, problem, problemText, type Result } from "../../model/mod.ts";

export type { RunService };

/** The options `parseArgs` reads for a started service (every one is in the help). */
export const START_OPTIONS = {
  start: { type: "string" },
  "no-start": { type: "boolean" },
  ready: { type: "string" },
  "ready-timeout": { type: "string" },
} as const;

/** The help lines of {@linkcode START_OPTIONS}. */
export const START_HELP =
  `  --start CMD          start the service under test with this command (sh -c, a process group
                       of its own, the last 16 MiB of its output in <out>/service.log) instead
                       of the plan's service, and stop afterwards every process it left, a
                       daemon's too (SIGTERM, SIGKILL after 5 s, also on Ctrl-C); exiting 0
                       while its service runs is a daemon's start; failing before it is ready
                       or during the run ends the command with exit 4 and its last log lines
  --no-start           do not start the plan's service: it is already running
  --ready URL|PORT     the service is ready once this URL answers 2xx, or once 127.0.0.1:PORT
                       accepts a connection (default: the plan's service's ready, else once
                       the target's port accepts)
  --ready-timeout DUR  how long the service may take to be ready (default: the plan's
                       service's timeout, else 60s); Ctrl-C while waiting stops it and exits 3`;

/** What the command line says of the service: each flag, when given. */
export interface StartFlags {
  /** `--start`: the command (run by `sh -c`) that replaces the plan's service. */
  command?: string;
  /** `--ready URL`. */
  readyUrl?: string;
  /** `--ready PORT`. */
  readyPort?: number;
  /** `--ready-timeout` (ms). */
  readyTimeoutMs?: number;
  /** `--no-start`: the plan's service is already running. */
  noStart?: boolean;
}

/**
 * Reads `--start`, `--no-start`, `--ready` and `--ready-timeout`: what they say (undefined when
 * none is given) or the problems, each naming its flag. Whether they have a service to act on is
 * known once the plan is read ({@linkcode serviceToStart}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readStartArgs } from "./start_args.ts";
 * assert.deepEqual(readStartArgs({ start: "npm start", "ready-timeout": "30s" }), {
 *   ok: true,
 *   value: { command: "npm start", readyTimeoutMs: 30000 },
 * });
 * ```
 */
export function readStartArgs(
  v: { start?: string; "no-start"?: boolean; ready?: string; "ready-timeout"?: string },
): Result<StartFlags | undefined> {
  const errors: string[] = [];
  const flags: StartFlags = {};
  if (v.start !== undefined) {
    if (v.start.trim() === "") errors.push("--start: give the command that starts the service");
    else flags.command = v.start;
  }
  if (v["no-start"]) {
    if (v.start !== undefined) {
      errors.push("--start and --no-start contradict each other: give one");
    } else flags.noStart = true;
  }
  if (v.ready !== undefined) {
    if (/^\d+$/.test(v.ready)) {
      const port = Number(v.ready);
      if (port >= 1 && port <= 65535) flags.readyPort = port;
      else errors.push(`--ready ${v.ready}: a port is 1 to 65535`);
    } else if (/^https?:\/\/[^/]/.test(v.ready) && URL.canParse(v.ready)) {
      flags.readyUrl = v.ready;
    } else {
      errors.push(
        `--ready \`${v.ready}\` is neither an http(s) URL nor a port: e.g. ` +
          "http://127.0.0.1:8080/health, or 8080",
      );
    }
  }
  if (v["ready-timeout"] !== undefined) {
    const timeout = parseDurationMs(v["ready-timeout"]);
    if (!timeout.ok) {
      const { message, hint } = timeout.problems[0];
      errors.push(`--ready-timeout: ${message}${hint ? `; ${hint}` : ""}`);
    } else if (timeout.value <= 0) errors.push("--ready-timeout: give a duration above zero");
    else flags.readyTimeoutMs = timeout.value;
  }
  if (errors.length) return err(errors.map((e) => problem(e)));
  return ok(Object.keys(flags).length ? flags : undefined);
}

/**
 * The service to start: `--start` (in tailgate's folder and environment, as a shell runs it),
 * else the plan's `service`, `--ready` and `--ready-timeout` overriding either's; none with
 * `--no-start` or without either. `--ready` or `--ready-timeout` with no service is a problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serviceToStart } from "./start_args.ts";
 * const plan = {
 *   service: { command: "npm start", readyTimeoutMs: 30_000, env: {}, cwd: "plans", line: 9 },
 * };
 * const started = serviceToStart({ readyPort: 8080 }, plan);
 * assert.ok(started.ok);
 * assert.deepEqual(started.value?.ready, { port: 8080 });
 * assert.equal(started.value?.readyTimeoutMs, 30_000);
 * ```
 */
export function serviceToStart(
  flags: StartFlags | undefined,
  plan: Pick<ResolvedPlan, "service">,
): Result<ServiceToStart | undefined> {
  const ready = flags?.readyUrl !== undefined
    ? { url: flags.readyUrl }
    : flags?.readyPort !== undefined
    ? { port: flags.readyPort }
    : undefined;
  const stray = [
    ...(ready ? ["--ready"] : []),
    ...(flags?.readyTimeoutMs === undefined ? [] : ["--ready-timeout"]),
  ];
  if (flags?.noStart) {
    return stray.length
      ? err(problem(`${stray.join(" and ")} with --no-start: no service is started`))
      : ok(undefined);
  }
  if (flags?.command !== undefined) {
    return ok({
      command: flags.command,
      ...(ready ? { ready } : {}),
      readyTimeoutMs: flags.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
      env: {},
      origin: "--start",
    });
  }
  const service = plan.service;
  if (service === undefined) {
    return stray.length
      ? err(problem(
        `${stray.join(" and ")} ${stray.length > 1 ? "need" : "needs"} --start, or a ` +
          "`service` in the plan: the service to start",
      ))
      : ok(undefined);
  }
  const { line: _, ready: planReady, ...rest } = service;
  return ok({
    ...rest,
    ...(ready ?? planReady ? { ready: ready ?? planReady } : {}),
    readyTimeoutMs: flags?.readyTimeoutMs ?? service.readyTimeoutMs,
    origin: "plan",
  });
}

/**
 * Starts `service` in front of `targetUrl`, its log `service.log` in `outDir`, saying the wait
 * through `progress`: the running service, or the outcome to return (exit 4, 3 when `signal`
 * stopped the wait), the service's last lines in its notes.
 */
export async function startCommandService(
  service: ServiceToStart,
  targetUrl: string,
  outDir: string,
  progress: (line: string) => void,
  signal?: AbortSignal,
): Promise<{ service: RunService } | { outcome: CommandOutcome }> {
  const started = await startRunService(service, targetUrl, {
    outDir,
    onProgress: progress,
    ...(signal ? { signal } : {}),
  });
  if (started.ok) return { service: started.value };
  const [why] = started.problems;
  return {
    outcome: {
      ...failed(problemText(why), why.stopped ? EXIT_CODES.invalidRun : EXIT_CODES.unreachable),
      notes: why.stopped ? [] : [lastLinesNote(why)],
    },
  };
}

/** The service's last lines, one a line, under what they are. */
function lastLinesNote(why: ServiceFailure): string {
  if (why.lastLines.length === 0) return `the service wrote nothing (${why.logPath} is empty)`;
  const count = why.lastLines.length;
  return `last ${count === 1 ? "line" : `${count} lines`} of ${why.logPath}:\n` +
    why.lastLines.map((line) => `  ${line}`).join("\n");
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
