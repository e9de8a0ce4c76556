/**
 * One side of an A/B comparison: a target given as a URL, or as a command that starts it. A
 * command is started just before its run and stopped after it (runner/service: a process group of
 * its own, its output in a log file, ready once its URL accepts a TCP connection, the whole group
 * ended on stop: SIGTERM, SIGKILL after 5 s): the two targets never run at the same time, and
 * tailgate ends only what it started.
 *
 * @module
 */
import { checkReachable } from "../engine/preflight.ts";
import { startService } from "../service/mod.ts";

/** A target as given on the command line. */
export interface AbTargetSpec {
  /** The base URL the plan's requests go to. */
  url: string;
  /** The command that starts it (run by `sh -c`), when tailgate should start it. */
  start?: string;
  /** With `start`: ready once this URL answers 2xx (default: once the URL's port accepts). */
  ready?: string;
}

/** A started (or already running) target; disposing it stops what was started. */
export interface RunningTarget extends AsyncDisposable {
  /** The process group of a started command (none for a URL-only target). */
  readonly pgid?: number;
  /** Stops the command (nothing for a URL-only target). */
  stop(): Promise<void>;
}

/**
 * Makes `spec` ready: checks a URL-only target answers, or starts its command and waits for its
 * port. Throws with what went wrong (the command's log tail included).
 */
export async function startAbTarget(
  spec: AbTargetSpec,
  options: { logPath: string; readyTimeoutMs?: number; signal?: AbortSignal },
): Promise<RunningTarget> {
  if (spec.start === undefined) {
    const problem = await checkReachable(new URL(spec.url));
    if (problem) throw new Error(`${spec.url} does not answer: ${problem}`);
    return { stop: async () => {}, [Symbol.asyncDispose]: async () => {} };
  }
  return await startService({
    command: spec.start,
    url: spec.url,
    ...(spec.ready === undefined ? {} : { readyUrl: spec.ready }),
  }, options);
}
