/**
 * The `tailgate` command: argv in, exit code out. The only place that prints errors and chooses
 * the exit code (docs/cli.md lists them).
 *
 * @module
 */
import { inertLines, noWorkflowCommands } from "./runner/plan/mod.ts";
import { EXIT_CODES, type ExitCode } from "./runner/model/mod.ts";
import { type CommandOutcome, findCommand, helpText, unknownCommand } from "./runner/cli/mod.ts";
import { killStartedServices } from "./runner/service/mod.ts";

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
 * import assert from "node:assert/strict";
 * import { main } from "./cli.ts";
 * const lines: string[] = [];
 * const code = await main(["version"], { stdout: (t) => lines.push(t), stderr: (t) => lines.push(t) });
 * assert.equal(code, 0);
 * assert.match(lines[0], /^tailgate \d+\.\d+\.\d+ \(deno /);
 * ```
 */
export async function main(
  args: string[],
  io: CliIo = CONSOLE_IO,
  signal?: AbortSignal,
): Promise<ExitCode> {
  // Like `git`: no command is a usage error, the help on standard error.
  if (args.length === 0) {
    io.stderr(helpText());
    return EXIT_CODES.usage;
  }
  const [name, ...rest] = args;
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

/**
 * How long a command may take to finish after the first SIGINT or SIGTERM: a run's 2 s grace for
 * requests in flight, a started service's 5 s to stop (`ab`), then the result and the reports
 * (2 s with 1000 busy labels). Past it, something is stuck: the process ends.
 */
const WRAP_UP_MS = 15_000;

/**
 * Turns the first SIGINT or SIGTERM into `controller.abort()`, so the command stops and still
 * writes what it measured; ends the process (exit 3, saying why on stderr) at a second signal, or
 * when the command is still busy `wrapUpMs` after the first. Returns a function that removes the
 * listeners and the deadline.
 */
export function abortOnSignals(controller: AbortController, wrapUpMs = WRAP_UP_MS): () => void {
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const end = (why: string) => {
    // Results, reports and baselines are written atomically: a file is whole or not there.
    // A started service (--start, ab's --base-start) is not left behind: its processes are killed.
    const killed = killStartedServices();
    console.error(
      `tailgate: ${why}: stopped at once; files written so far are kept, the others are not ` +
        "written" + (killed.length ? `; every process of the started service was killed` : ""),
    );
    Deno.exit(EXIT_CODES.invalidRun);
  };
  const listeners = (["SIGINT", "SIGTERM"] as const).map((signal) => {
    const listener = () => {
      if (controller.signal.aborted) return end(`${signal} again`);
      controller.abort();
      deadline = setTimeout(
        () => end(`still busy ${wrapUpMs / 1000} s after ${signal}`),
        wrapUpMs,
      );
    };
    Deno.addSignalListener(signal, listener);
    return { signal, listener };
  });
  return () => {
    clearTimeout(deadline);
    for (const { signal, listener } of listeners) Deno.removeSignalListener(signal, listener);
  };
}

if (import.meta.main) {
  const controller = new AbortController();
  // The listeners stay until the process ends: removed first, a SIGTERM in the instant before
  // `Deno.exit` would take the default action and end the process 143, whatever `code` was.
  abortOnSignals(controller);
  const code = await main(Deno.args, CONSOLE_IO, controller.signal);
  Deno.exit(code);
}
