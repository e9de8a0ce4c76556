/**
 * The `tailgate` command table: every command's name, help and function, each returning one
 * {@linkcode CommandOutcome}. cli.ts looks a command up here, runs it and prints the outcome; the
 * top-level help is made from this table, so a command cannot be missing from it.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { EXIT_CODES } from "../model/mod.ts";
import { didYouMean, loadGrpcSupport } from "../plan/mod.ts";
import { TAILGATE_VERSION } from "../version.ts";
import { RESULT_SCHEMA, RESULT_VERSION } from "../model/mod.ts";
import { SEARCH_SCHEMA, SEARCH_VERSION } from "../model/mod.ts";
import { AB_SCHEMA, AB_VERSION } from "../model/mod.ts";
import { HISTORY_FILE_SCHEMA, HISTORY_FILE_VERSION } from "../history/mod.ts";
import { SEARCH_HISTORY_SCHEMA, SEARCH_HISTORY_VERSION } from "../history/mod.ts";
import { HISTORY_SCHEMA, HISTORY_VERSION } from "../model/mod.ts";
import { AB_HELP, abCommand } from "./ab_command.ts";
import { CHECK_HELP, checkPlans } from "./check_command.ts";
import type { Command, CommandOutcome } from "./command.ts";
import { failed } from "./command.ts";
import { COMPARE_HELP, compareCommand } from "./compare_command.ts";
import { DEMO_HELP, parseDemoArgs, runDemo } from "./demo_command.ts";
import { HISTORY_HELP, historyCommand } from "./history_command.ts";
import { MERGE_HELP, mergeCommand } from "./merge_command.ts";
import { REPORT_HELP, reportCommand } from "./report_command.ts";
import { SEARCH_HELP, searchCommand } from "./search_command.ts";
import { RUN_HELP, runPlanCommand } from "./run_command.ts";
import { parseRunArgs } from "./run_args.ts";
import { parseTargetArgs, runTargetCommand, TARGET_HELP } from "./target_command.ts";
import { TARGET_MODES } from "../target/mod.ts";

const done = (output?: string): CommandOutcome => ({
  exitCode: EXIT_CODES.ok,
  errors: [],
  notes: [],
  ...(output === undefined ? {} : { output }),
});

/** Every command, in the order the help lists them. */
export const COMMANDS: readonly Command[] = [
  {
    name: "check",
    synopsis: [
      "check <plan.yaml|dir>...",
      "validate plans; every problem with file:line:col and a fix",
    ],
    usage: CHECK_HELP,
    run: (args) => checkPlans(args),
  },
  {
    name: "target",
    synopsis: [
      "target [--mode M] ...",
      `serve known-truth latency on loopback (${TARGET_MODES.join(", ")}) to calibrate a ` +
      "pipeline",
    ],
    usage: TARGET_HELP,
    run: async (args, { stdout, signal }) => {
      const parsed = parseTargetArgs(args);
      if (!parsed.ok) return failed(parsed.problems);
      try {
        await runTargetCommand(parsed.value, { stdout }, signal);
      } catch (e) {
        return failed((e as Error).message);
      }
      return done();
    },
  },
  {
    name: "run",
    synopsis: [
      "run <plan.yaml> [options]",
      "run a plan with corrected timing; writes result.json and the " +
      "reports (HTML, JUnit, Markdown; .hlog on request)",
    ],
    usage: RUN_HELP,
    run: async (args, { progress, signal }) => {
      // An ad-hoc gRPC call's plan is validated as its flags are read: gRPC support first.
      if (args.some((a) => /^grpcs?:\/\//i.test(a))) await loadGrpcSupport();
      const parsed = parseRunArgs(args);
      if (!parsed.ok) return failed(parsed.problems);
      return await runPlanCommand(parsed.value, progress, signal);
    },
  },
  {
    name: "search",
    synopsis: [
      "search <plan.yaml> [options]",
      "find the highest rate at which the plan's SLOs hold (its `search` " +
      "section): doubling, bisection, a soak; writes search.json",
    ],
    usage: SEARCH_HELP,
    run: (args, { progress, signal }) => searchCommand(args, progress, signal),
  },
  {
    name: "ab",
    synopsis: [
      "ab <plan.yaml> --base URL --head URL",
      "compare two builds on this machine: rounds of base and head in " +
      "random order, a paired decision per metric; writes ab.json",
    ],
    usage: AB_HELP,
    run: (args, { progress, signal }) => abCommand(args, progress, signal),
  },
  {
    name: "demo",
    synopsis: [
      "demo [--out DIR]",
      "the stall target and plans/demo.yaml: coordinated omission shown",
    ],
    usage: DEMO_HELP,
    run: (args, { progress, signal }) => {
      const parsed = parseDemoArgs(args);
      return parsed.ok
        ? runDemo(parsed.value, progress, signal)
        : Promise.resolve(failed(parsed.problems));
    },
  },
  {
    name: "report",
    synopsis: ["report <result.json>", "re-render a stored result: --format html,junit,md,hlog"],
    usage: REPORT_HELP,
    run: (args) => reportCommand(args),
  },
  {
    name: "merge",
    synopsis: [
      "merge <shard.json>...",
      "merge the results of `run --shard I/N` on N machines, then judge",
    ],
    usage: MERGE_HELP,
    run: (args, { signal }) => mergeCommand(args, signal),
  },
  {
    name: "compare",
    synopsis: [
      "compare <a.json> <b.json>",
      "two results side by side, with regression verdicts and KS distance",
    ],
    usage: COMPARE_HELP,
    run: (args) => compareCommand(args),
  },
  {
    name: "history",
    synopsis: [
      "history <plan.yaml|dir>... [options]",
      "find the commits where latency, throughput or errors changed over the " +
      "stored runs; writes history.json, history.md and history.html",
    ],
    usage: HISTORY_HELP,
    run: (args, { signal }) => historyCommand(args, signal),
  },
  {
    name: "version",
    aliases: ["--version", "-V"],
    synopsis: ["version", "print the version"],
    usage: "Usage: tailgate version",
    run: () => Promise.resolve(done(versionText())),
  },
  {
    name: "help",
    aliases: ["--help", "-h"],
    synopsis: ["help [command]", "this text, or a command's"],
    usage: "Usage: tailgate help [command]",
    run: (args) => {
      const topic = args[0];
      if (topic === undefined) return Promise.resolve(done(helpText()));
      const command = findCommand(topic);
      return Promise.resolve(
        command ? done(command.usage) : failed(unknownCommand(topic)),
      );
    },
  },
];

/**
 * The command called `name` (or one of its aliases), or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findCommand } from "./commands.ts";
 * assert.equal(findCommand("--version")?.name, "version");
 * ```
 */
export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name || (c.aliases?.includes(name) ?? false));
}

/**
 * What to say about a command name that is not one: the nearest command, or where the list is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unknownCommand } from "./commands.ts";
 * assert.equal(unknownCommand("serach"), "unknown command `serach`; did you mean `search`?");
 * ```
 */
export function unknownCommand(name: string): string {
  const guess = didYouMean(name, COMMANDS.map((c) => c.name), { bench: "search", test: "run" });
  return `unknown command \`${name}\`; ` +
    (guess ? `did you mean \`${guess}\`?` : "see `tailgate help`");
}

/** The top-level help's width: descriptions are wrapped to it. */
const HELP_WIDTH = 100;

/**
 * The top-level help, made from the table: each command's call, then its description in one
 * column two spaces past the longest call, wrapped to the help's width.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { helpText } from "./commands.ts";
 * assert.equal(helpText().split("\n")[0], "tailgate: tail-latency gates for CI");
 * ```
 */
export function helpText(commands: readonly Pick<Command, "synopsis">[] = COMMANDS): string {
  const column = 2 + Math.max(...commands.map(({ synopsis: [call] }) => call.length)) + 2;
  const rows = commands.flatMap(({ synopsis: [call, what] }) =>
    wrapWords(what, Math.max(HELP_WIDTH - column, 20)).map((line, i) =>
      `  ${(i === 0 ? call : "").padEnd(column - 2)}${line}`
    )
  );
  return `tailgate: tail-latency gates for CI

Usage: tailgate <command> [options]

Commands:
${rows.join("\n")}

${wrapWords(EXIT_CODES_LINE, HELP_WIDTH).join("\n")}`;
}

const EXIT_CODES_LINE = "Exit codes: 0 pass, 1 a gate failed, 2 invalid plan or usage, 3 a gate " +
  "inconclusive or the run invalid, 4 target unreachable (also when it stopped answering " +
  `mid-run). Docs: plan.md, cli.md, result-format.md in ${docsLocation()}`;

/**
 * Where the documentation is: the `docs/` folder beside this code, which a checkout, the npm
 * package and a tag's files all hold, as a path, or as a URL when tailgate runs from one
 * (`deno install` from a tag's raw files).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { docsLocation } from "./commands.ts";
 * assert.equal(docsLocation("file:///opt/tailgate/runner/cli/commands.ts"), "/opt/tailgate/docs/");
 * assert.equal(
 *   docsLocation("https://example.com/tailgate/v0.1.0/runner/cli/commands.ts"),
 *   "https://example.com/tailgate/v0.1.0/docs/",
 * );
 * ```
 */
export function docsLocation(moduleUrl: string = import.meta.url): string {
  const docs = new URL("../../docs/", moduleUrl);
  return docs.protocol === "file:" ? fileURLToPath(docs) : docs.href;
}

/** `text` in lines of at most `width` characters, broken between words. */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/**
 * What `tailgate --version` prints: the version, the Deno it runs on, and the version of every
 * document format it writes (a reader of an older tailgate's files needs them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { versionText } from "./commands.ts";
 * assert.match(versionText().split("\n")[0], /^tailgate \d+\.\d+\.\d+\S* \(deno \d+\.\d+\.\d+\)$/);
 * ```
 */
export function versionText(): string {
  return `tailgate ${TAILGATE_VERSION} (deno ${Deno.version.deno})\n` +
    `formats: ${RESULT_SCHEMA} ${RESULT_VERSION}, ${SEARCH_SCHEMA} ${SEARCH_VERSION}, ` +
    `${AB_SCHEMA} ${AB_VERSION}, ${HISTORY_FILE_SCHEMA} ${HISTORY_FILE_VERSION}, ` +
    `${SEARCH_HISTORY_SCHEMA} ${SEARCH_HISTORY_VERSION}, ${HISTORY_SCHEMA} ${HISTORY_VERSION}`;
}
