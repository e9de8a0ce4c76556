/**
 * The flags of the service under test for `tailgate run` and `tailgate search`: `--start CMD`,
 * `--no-start`, `--ready` and `--ready-timeout`, read into runner/api's `StartFlags`; which
 * service they start (`serviceToStart`) and its start, wait and stop (`withPreparedRun`) are the
 * run's lifecycle's (runner/api).
 *
 * @module
 */
import type { StartFlags } from "../../api/mod.ts";
import { parseDurationMs } from "../../plan/mod.ts";
import { err, ok, problem, type Result } from "../../model/mod.ts";

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
