/**
 * Which service a run starts: the plan's `service`, which a command line's `--start CMD`
 * replaces, `--ready` and `--ready-timeout` override and `--no-start` skips (a pure choice;
 * prepare_run.ts starts it).
 *
 * @module
 */
import { DEFAULT_READY_TIMEOUT_MS } from "../service/mod.ts";
import type { ServiceToStart } from "./run_service.ts";
import type { ResolvedPlan } from "../plan/mod.ts";
import { err, ok, problem, type Result } from "../model/mod.ts";

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
 * The service to start: `--start` (in tailgate's folder and environment, as a shell runs it),
 * else the plan's `service`, `--ready` and `--ready-timeout` overriding either's; none with
 * `--no-start` or without either. `--ready` or `--ready-timeout` with no service is a problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serviceToStart } from "./service_to_start.ts";
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
