/**
 * The `tailgate` command: argv in, exit code out. The only place that prints errors and chooses
 * the exit code (docs/cli.md lists them).
 *
 * @module
 */
import { inertLines, noWorkflowCommands } from "./runner/plan/printable.ts";
import { checkPlans } from "./runner/cli/check_command.ts";
import { EXIT_CODES, type ExitCode } from "./runner/model/exit_codes.ts";
import { compareCommand } from "./runner/cli/compare_command.ts";
import { runDemo } from "./runner/cli/demo_command.ts";
import { HELP, usageFor } from "./runner/cli/help.ts";
import { parseRunArgs, type RunOutcome, runPlanCommand } from "./runner/cli/run_command.ts";
import { parseTargetArgs, runTargetCommand } from "./runner/cli/target_command.ts";
import { mergeCommand } from "./runner/cli/merge_command.ts";
import { reportCommand } from "./runner/cli/report_command.ts";
import { TAILGATE_VERSION } from "./runner/version.ts";

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
  const [command, ...rest] = args;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    const topic = command === "help" ? rest[0] : undefined;
    const text = topic ? usageFor(topic) : HELP;
    if (text === undefined) {
      io.stderr(`tailgate help: unknown command \`${topic}\`; see \`tailgate help\``);
      return EXIT_CODES.usage;
    }
    io.stdout(text);
    return EXIT_CODES.ok;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    const text = usageFor(command);
    if (text !== undefined) {
      io.stdout(text);
      return EXIT_CODES.ok;
    }
  }
  switch (command) {
    case "version":
    case "--version":
    case "-V":
      io.stdout(`tailgate ${TAILGATE_VERSION} (deno ${Deno.version.deno})`);
      return EXIT_CODES.ok;
    case "check": {
      const outcome = await checkPlans(rest);
      for (const block of outcome.issues) io.stderr(inertLines(block) + "\n");
      for (const line of outcome.lines) io.stdout(inertLines(line));
      return outcome.exitCode;
    }
    case "run": {
      const parsed = parseRunArgs(rest);
      if (!parsed.ok) {
        for (const e of parsed.errors) io.stderr(`tailgate run: ${e}`);
        return EXIT_CODES.usage;
      }
      return report(await runPlanCommand(parsed.options, progressWriter(io), signal), io);
    }
    case "merge":
      return report(await mergeCommand(rest), io);
    case "report": {
      const outcome = await reportCommand(rest);
      for (const e of outcome.errors) io.stderr(inertLines(e));
      if (outcome.output) io.stdout(noWorkflowCommands(outcome.output));
      return outcome.exitCode;
    }
    case "compare": {
      const outcome = await compareCommand(rest);
      for (const e of outcome.errors) io.stderr(inertLines(`tailgate compare: ${e}`));
      if (outcome.output) io.stdout(noWorkflowCommands(outcome.output));
      return outcome.exitCode;
    }
    case "demo": {
      const out = rest[0] ?? "tailgate-out/demo";
      return report(await runDemo(out, progressWriter(io), signal), io);
    }
    case "target": {
      const parsed = parseTargetArgs(rest);
      if (!parsed.ok) {
        for (const e of parsed.errors) io.stderr(`tailgate target: ${e}`);
        return EXIT_CODES.usage;
      }
      try {
        await runTargetCommand(parsed.options, io, signal);
      } catch (e) {
        io.stderr(`tailgate target: ${(e as Error).message}`);
        return EXIT_CODES.usage;
      }
      return EXIT_CODES.ok;
    }
  }
  io.stderr(`tailgate: unknown command \`${command}\`; see \`tailgate help\``);
  return EXIT_CODES.usage;
}

function report(outcome: RunOutcome, io: CliIo): ExitCode {
  if (io === CONSOLE_IO && Deno.stderr.isTerminal()) {
    Deno.stderr.writeSync(new TextEncoder().encode("\r\x1b[2K"));
  }
  // Notes and errors quote plan values; the summary's plan values are escaped by its reporter.
  for (const e of outcome.errors) io.stderr(inertLines(e));
  if (outcome.summary) io.stdout(noWorkflowCommands(outcome.summary));
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
