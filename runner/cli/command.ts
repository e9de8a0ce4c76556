/**
 * The one shape every `tailgate` command returns, and the table entry that names a command. cli.ts
 * prints an outcome the same way for every command: each of `errors` as
 * `tailgate <command>: <error>` and each of `notes` as it is (standard error), then `output`
 * (standard output), and exits with `exitCode`.
 *
 * @module
 */
import type { Outcome } from "../api/mod.ts";

export { failed } from "../api/mod.ts";

/** What a command produced: the run's lifecycle's outcome (runner/api/outcome.ts). */
export type CommandOutcome = Outcome;

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
