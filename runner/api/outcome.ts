/**
 * What a call of the run's lifecycle produced, however it ended: the exit code the verdict (or the
 * failure) earns, the messages, and the summary. A failure before the verdict (a folder that
 * cannot be written, an unreachable target) is an outcome too, never an exception: only the CLI
 * prints it.
 *
 * @module
 */
import type { ExitCode } from "../model/mod.ts";
import { EXIT_CODES, type Problem, problemText } from "../model/mod.ts";

/** What a lifecycle call (and so a `tailgate` command) produced. */
export interface Outcome {
  /** The exit code `tailgate` exits with (runner/model/exit_codes.ts). */
  exitCode: ExitCode;
  /** Its own messages (problems, warnings), without the `tailgate <command>:` prefix. */
  errors: string[];
  /** Text printed as it is on standard error: located plan issues, the gates' notes. */
  notes: string[];
  /** What it produced for standard output (a summary, a report). */
  output?: string;
}

/**
 * The outcome of a call that ended on `error` before it produced anything: exit 2 (usage)
 * unless `exitCode` says otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failed } from "./outcome.ts";
 * assert.deepEqual(failed("name a plan"), { exitCode: 2, errors: ["name a plan"], notes: [] });
 * assert.equal(failed(["a", "b"], 4).errors.length, 2);
 * ```
 */
export function failed(
  error: string | Problem | readonly (string | Problem)[],
  exitCode: ExitCode = EXIT_CODES.usage,
): Outcome {
  const list = Array.isArray(error) ? error : [error as string | Problem];
  return {
    exitCode,
    errors: list.map((e: string | Problem) => typeof e === "string" ? e : problemText(e)),
    notes: [],
  };
}
