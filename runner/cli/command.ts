/**
 * The one shape every `tailgate` command returns, and the table entry that names a command. cli.ts
 * prints an outcome the same way for every command: each of `errors` as
 * `tailgate <command>: <error>` and each of `notes` as it is (standard error), then `output`
 * (standard output), and exits with `exitCode`.
 *
 * @module
 */
import type { ExitCode } from "../model/mod.ts";
import { type Problem, problemText } from "../model/mod.ts";

/** What a command produced. */
export interface CommandOutcome {
  exitCode: ExitCode;
  /** The command's own messages (problems, warnings), without the `tailgate <command>:` prefix. */
  errors: string[];
  /** Text printed as it is on standard error: located plan issues, the gates' notes. */
  notes: string[];
  /** What the command produced for standard output (a summary, a report). */
  output?: string;
}

/** What a command may use besides its arguments. */
export interface CommandContext {
  /** Progress lines (standard error; rewritten in place on a terminal). */
  progress(line: string): void;
  /** A line for standard output printed at once (a server's address, before it runs). */
  stdout(line: string): void;
  /** Ctrl-C or SIGTERM: stop, keeping what was measured. */
  signal?: AbortSignal;
}

/** A row of the command table (commands.ts). */
export interface Command {
  name: string;
  /** Other names that run it (`--version`). */
  aliases?: readonly string[];
  /** The top-level help's line: how it is called, and what it does (wrapped by the help). */
  synopsis: readonly [string, string];
  /** Its own help (`tailgate help <name>`, `tailgate <name> --help`). */
  usage: string;
  run(args: string[], context: CommandContext): Promise<CommandOutcome>;
}

/**
 * An outcome with only errors (messages, or the problems of a failed `Result`, each one line): a
 * usage problem (exit 2) unless another code is given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failed } from "./command.ts";
 * assert.deepEqual(failed("name a plan"), { exitCode: 2, errors: ["name a plan"], notes: [] });
 * ```
 */
export function failed(
  error: string | Problem | readonly (string | Problem)[],
  exitCode: ExitCode = 2,
): CommandOutcome {
  const list = Array.isArray(error) ? error : [error as string | Problem];
  return {
    exitCode,
    errors: list.map((e: string | Problem) => typeof e === "string" ? e : problemText(e)),
    notes: [],
  };
}
