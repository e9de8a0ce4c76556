/**
 * Process exit codes of the `tailgate` command, documented in docs/cli.md.
 *
 * @example
 * ```ts
 * import { EXIT_CODES } from "./exit_codes.ts";
 * Deno.exitCode = EXIT_CODES.usage;
 * ```
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
} as const;

/** One of the values of {@linkcode EXIT_CODES}. */
export type ExitCode = typeof EXIT_CODES[keyof typeof EXIT_CODES];
