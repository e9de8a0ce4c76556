/**
 * Process exit codes of the `tailgate` command, documented in docs/cli.md.
 */
export const EXIT_CODES = {
  /** Everything passed. */
  ok: 0,
  /** An SLO or regression gate failed. */
  gateFailed: 1,
  /** Invalid plan, bad arguments or unreadable input. */
  usage: 2,
  /** The run is invalid (tool-limited) or has too few samples to judge. */
  invalidRun: 3,
  /** The target could not be reached. */
  unreachable: 4,
  /**
   * A result, report or baseline could not be read or written (disk full, read-only folder,
   * history locked): see {@linkcode withIoFailures} for when it is the exit code.
   */
  ioFailed: 5,
} as const;

/** One of the values of {@linkcode EXIT_CODES}. */
export type ExitCode = typeof EXIT_CODES[keyof typeof EXIT_CODES];

/**
 * The exit code once a command's I/O failures are known, the one rule of their precedence: any
 * failure (a result, report or baseline not read or written) turns 0, 1 and 3 into
 * {@linkcode EXIT_CODES.ioFailed}, since a job must not pass, nor read as a failed gate, when its
 * files are missing (the gates' verdict is still printed, and stored when the result was
 * written); a usage error (2) and an unreachable target (4) stand.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EXIT_CODES, withIoFailures } from "./exit_codes.ts";
 * assert.equal(withIoFailures(EXIT_CODES.gateFailed, ["report.html not written: disk full"]), 5);
 * assert.equal(withIoFailures(EXIT_CODES.gateFailed, []), 1);
 * ```
 */
export function withIoFailures(code: ExitCode, failures: readonly string[]): ExitCode {
  if (failures.length === 0 || code === EXIT_CODES.usage || code === EXIT_CODES.unreachable) {
    return code;
  }
  return EXIT_CODES.ioFailed;
}
