/**
 * The `tailgate` command: argv in, exit code out. The only place that prints errors and chooses
 * the exit code (docs/cli.md lists them).
 *
 * @module
 */
import { inertLines, noWorkflowCommands } from "./runner/plan/printable.ts";
import { EXIT_CODES, type ExitCode } from "./runner/model/exit_codes.ts";
import type { CommandOutcome } from "./runner/cli/command.ts";
import { findCommand, unknownCommand } from "./runner/cli/commands.ts";

/** Where the command writes: standard output and standard error, one line or block per call. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const CONSOLE_IO: CliIo = {
  stdout: (text) => console.log(text),
  stderr: (text) => console.error(text),
};

/**
 * Runs the `tailgate` command with `args` (without the program name) and returns its exit code.
 *
 * @example
 * ```ts
 * import { main } from "./cli.ts";
 * const lines: string[] = [];
 * const code = await main(["version"], { stdout: (t) => lines.push(t), stderr: (t) => lines.push(t) });
 * // code === 0, lines[0] === "tailgate 0.1.0 (deno ...)"
 * ```
 */
export async function main(
  args: string[],
  io: CliIo = CONSOLE_IO,
  signal?: AbortSignal,
): Promise<ExitCode> {
  const [name = "help", ...rest] = args;
  const command = findCommand(name);
  if (command === undefined) {
    io.stderr(`tailgate: ${inertLines(unknownCommand(name))}`);
    return EXIT_CODES.usage;
  }
  if (command.name !== "help" && (rest.includes("--help") || rest.includes("-h"))) {
    io.stdout(command.usage);
    return EXIT_CODES.ok;
  }
  const progress = progressWriter(io);
  // Progress lines and early output carry plan values too (stage names, notices).
  const outcome = await command.run(rest, {
    progress: (line) => progress(noWorkflowCommands(line)),
    stdout: (line) => io.stdout(noWorkflowCommands(line)),
    ...(signal ? { signal } : {}),
  });
  return report(command.name, outcome, io);
}

/** Prints an outcome, the same way for every command, and returns its exit code. */
function report(name: string, outcome: CommandOutcome, io: CliIo): ExitCode {
  if (io === CONSOLE_IO && Deno.stderr.isTerminal()) {
    Deno.stderr.writeSync(new TextEncoder().encode("\r\x1b[2K"));
  }
  // Errors, notes and issues quote plan values and paths: made inert. The output's plan values
  // are escaped by its renderer (it may carry colour).
  for (const e of outcome.errors) io.stderr(inertLines(`tailgate ${name}: ${e}`));
  for (const note of outcome.notes) io.stderr(inertLines(note));
  if (outcome.output) io.stdout(noWorkflowCommands(outcome.output));
  return outcome.exitCode;
}

/**
 * Progress lines: rewritten in place on a terminal, one every 10 s otherwise (CI logs).
 */
function progressWriter(io: CliIo): (line: string) => void {
  if (io !== CONSOLE_IO || !Deno.stderr.isTerminal()) {
    let last = -Infinity;
    return (line) => {
      const now = performance.now();
      if (!line.startsWith("[") || now - last >= 10_000) {
        io.stderr(line);
        last = line.startsWith("[") ? now : last;
      }
    };
  }
  const encoder = new TextEncoder();
  return (line) => {
    if (line.startsWith("[")) Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${line}`));
    else Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${line}\n`));
  };
}

if (import.meta.main) {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  const code = await main(Deno.args, CONSOLE_IO, controller.signal);
  Deno.removeSignalListener("SIGINT", onSignal);
  Deno.removeSignalListener("SIGTERM", onSignal);
  Deno.exit(code);
}
