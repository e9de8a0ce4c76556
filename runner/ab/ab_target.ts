/**
 * One side of an A/B comparison: a target given as a URL, or as a command that starts it. A
 * command is started just before its run and stopped after it (runner/service: a process group of
 * its own, its output's tail in a log file, ready once its URL accepts a TCP connection, every
 * process it left ended on stop: SIGTERM, SIGKILL after 5 s): the two targets never run at the same
 * time, and tailgate ends only what it started.
 *
 * @module
 */
import { checkTarget } from "../engine/mod.ts";
import { type ServiceStop, startService } from "../service/mod.ts";

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
  /**
   * Stops the command and says what the stop found (an address that still answers); nothing for a
   * URL-only target.
   */
  stop(): Promise<ServiceStop | undefined>;
}

/**
 * Makes `spec` ready: checks a URL-only target as a run's pre-flight does (reached, its TLS
 * trusted, not HTTP/2 only), or starts its command, waits for its port and checks it the same way.
 * Throws with what went wrong (the command's log tail included).
 */
export async function startAbTarget(
  spec: AbTargetSpec,
  options: {
    logPath: string;
    readyTimeoutMs?: number;
    signal?: AbortSignal;
    /** The plan's `load.http`: what the target must speak. */
    http?: "1.1" | "2";
  },
): Promise<RunningTarget> {
  if (spec.start === undefined) {
    const problem = await checkTarget(new URL(spec.url), [], undefined, options.http);
    if (problem) throw new Error(`ab target ${spec.url}: ${problem}`);
    return { stop: () => Promise.resolve(undefined), [Symbol.asyncDispose]: async () => {} };
  }
  const started = await startService({
    command: spec.start,
    url: spec.url,
    ...(spec.ready === undefined ? {} : { readyUrl: spec.ready }),
  }, options);
  // Ready once its port accepts; it must also speak HTTP/1.1 (and TLS as the run makes it).
  const problem = await checkTarget(new URL(spec.url), [], undefined, options.http);
  if (problem) {
    await started.stop();
    throw new Error(`${spec.url}, started by \`${spec.start}\`: ${problem}`);
  }
  return {
    pgid: started.pgid,
    stop: () => started.stop(),
    [Symbol.asyncDispose]: async () => void await started.stop(),
  };
}
