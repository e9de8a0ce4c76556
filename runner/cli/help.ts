/**
 * Help texts of the `tailgate` command and its subcommands.
 *
 * @module
 */
import { COMPARE_HELP } from "./compare_command.ts";
import { MERGE_HELP } from "./merge_command.ts";
import { REPORT_HELP } from "./report_command.ts";
import { RUN_HELP } from "./run_command.ts";
import { TARGET_HELP } from "./target_command.ts";

/**
 * The top-level help.
 *
 * @example
 * ```ts
 * import { HELP } from "./help.ts";
 * console.log(HELP);
 * ```
 */
export const HELP = `tailgate: tail-latency gates for CI

Usage: tailgate <command> [options]

Commands:
  check <plan.yaml|dir>...   validate plans; every problem with file:line:col and a fix
  target [--mode M] ...      serve known-truth latency on loopback (hello, fixed, stall,
                             bimodal, trend, first-n, faults) to calibrate a pipeline
  run <plan.yaml> [options]  run a plan with corrected timing; writes result.json and the
                             reports (HTML, JUnit, Markdown; .hlog on request)
  demo [out-dir]             the stall target and plans/demo.yaml: coordinated omission shown
  report <result.json>       re-render a stored result: --format html,junit,md,hlog
  merge <shard.json>...      merge the results of \`run --shard I/N\` on N machines, then judge
  compare <a.json> <b.json>  two results side by side, with regression verdicts and KS distance
  version                    print the version
  help [command]             this text, or a command's

Exit codes: 0 pass, 1 a gate failed, 2 invalid plan or usage, 3 a gate inconclusive or the run
invalid, 4 target unreachable (also when it stopped answering mid-run). Docs: docs/plan.md, docs/cli.md, docs/result-format.md.`;

const CHECK_HELP = `Usage: tailgate check <plan.yaml|dir>...

Validates each plan (a folder: every .yaml/.yml below it) and prints every problem as
file:line:col with the offending line, a caret and a hint. Unset \${env.X} variables are warnings
here and errors before a run; so are percentiles the planned request count cannot support.
Exit 0 when every plan is valid, 2 otherwise.`;

/**
 * The help text of one command, or undefined for an unknown command.
 *
 * @example
 * ```ts
 * import { usageFor } from "./help.ts";
 * console.log(usageFor("check"));
 * ```
 */
export function usageFor(command: string): string | undefined {
  if (command === "check") return CHECK_HELP;
  if (command === "target") return TARGET_HELP;
  if (command === "version") return "Usage: tailgate version";
  if (command === "help") return HELP;
  if (command === "run") return RUN_HELP;
  if (command === "demo") {
    return "Usage: tailgate demo [out-dir]\n\nStarts the built-in target in stall mode, runs " +
      "plans/demo.yaml against it and writes the result and every report (default tailgate-out/demo).";
  }
  if (command === "compare") return COMPARE_HELP;
  if (command === "report") return REPORT_HELP;
  if (command === "merge") return MERGE_HELP;
  return undefined;
}
