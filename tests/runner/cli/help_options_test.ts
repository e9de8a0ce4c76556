import assert from "node:assert/strict";
import { problemText } from "../../../runner/model/result.ts";
import { AB_HELP, AB_OPTIONS } from "../../../runner/cli/ab_command.ts";
import { COMPARE_HELP, COMPARE_OPTIONS } from "../../../runner/cli/compare_command.ts";
import { DEMO_HELP, DEMO_OPTIONS, parseDemoArgs } from "../../../runner/cli/demo_command.ts";
import { HISTORY_HELP, HISTORY_OPTIONS } from "../../../runner/cli/history_command.ts";
import { MERGE_HELP } from "../../../runner/cli/merge_command.ts";
import { REPORT_HELP, REPORT_OPTIONS } from "../../../runner/cli/report_command.ts";
import { RESULT_ARG_OPTIONS } from "../../../runner/cli/args/result_args.ts";
import { RUN_HELP } from "../../../runner/cli/run_command.ts";
import { RUN_OPTIONS } from "../../../runner/cli/run_args.ts";
import { SEARCH_HELP, SEARCH_OPTIONS } from "../../../runner/cli/search_command.ts";
import { COMMANDS as COMMAND_TABLE, helpText } from "../../../runner/cli/commands.ts";
import { TARGET_HELP } from "../../../runner/cli/target_command.ts";
import { TARGET_MODES } from "../../../runner/target/mod.ts";

/** Old names kept working but not advertised. */
const UNLISTED = new Set(["allow-insufficient"]);

const COMMANDS: Array<[string, string, Record<string, unknown>]> = [
  ["run", RUN_HELP, RUN_OPTIONS],
  ["search", SEARCH_HELP, SEARCH_OPTIONS],
  ["ab", AB_HELP, AB_OPTIONS],
  ["report", REPORT_HELP, REPORT_OPTIONS],
  ["merge", MERGE_HELP, RESULT_ARG_OPTIONS],
  ["compare", COMPARE_HELP, COMPARE_OPTIONS],
  ["demo", DEMO_HELP, DEMO_OPTIONS],
  ["history", HISTORY_HELP, HISTORY_OPTIONS],
];

/** The `--flags` a text names, less those of another command it mentions (`tailgate run --shard`). */
const flagsIn = (text: string, command: string) =>
  new Set(
    [...text.matchAll(/--([a-z][a-z0-9-]*)/g)].filter((m) => {
      const before = text.slice(Math.max(0, m.index! - 20), m.index);
      const other = /tailgate (\w+)[^`]*$/.exec(before)?.[1];
      return other === undefined || other === command;
    }).map((m) => m[1]),
  );

Deno.test("every option a command reads is in its --help, and its --help names no other", () => {
  for (const [name, help, options] of COMMANDS) {
    const helped = flagsIn(help, name);
    const read = Object.keys(options).filter((k) => !UNLISTED.has(k));
    for (const k of read) assert.ok(helped.has(k), `${name} --help lacks --${k}`);
    for (const k of helped) {
      assert.ok(k in options, `${name} --help names --${k}, which it does not read`);
    }
  }
});

Deno.test("docs/cli.md's section of each command names the options its --help does", async () => {
  const docs = await Deno.readTextFile(new URL("../../../docs/cli.md", import.meta.url));
  for (const [name, help, options] of COMMANDS) {
    const start = docs.indexOf(`## \`tailgate ${name}\``);
    if (start < 0) continue; // documented in the command table only
    const end = docs.indexOf("\n## ", start + 1);
    const section = docs.slice(start, end < 0 ? undefined : end);
    const documented = flagsIn(section, name);
    for (const k of flagsIn(help, name)) {
      assert.ok(documented.has(k), `docs/cli.md's tailgate ${name} lacks --${k}`);
    }
    for (const k of documented) {
      assert.ok(
        k in options,
        `docs/cli.md's tailgate ${name} names --${k}, which it does not read`,
      );
    }
  }
});

Deno.test("tailgate demo takes its folder as an argument or --out, and refuses other flags", () => {
  assert.deepEqual(parseDemoArgs([]), { ok: true, value: "tailgate-out/demo" });
  assert.deepEqual(parseDemoArgs(["x"]), { ok: true, value: "x" });
  assert.deepEqual(parseDemoArgs(["--out", "y"]), { ok: true, value: "y" });
  const typo = parseDemoArgs(["--ot", "y"]);
  assert.equal(typo.ok, false);
  assert.match(!typo.ok ? problemText(typo.problems[0]) : "", /`--ot`.*did you mean `--out`/);
  assert.equal(parseDemoArgs(["x", "--out", "y"]).ok, false);
});

/** The top-level help's command rows: each call, and the column its description starts at. */
function commandRows(help: string): Array<{ call: string; column: number }> {
  const block = help.slice(
    help.indexOf("Commands:\n") + 10,
    help.indexOf("\n\n", help.indexOf("Commands:")),
  );
  return block.split("\n").filter((line) => /^ {2}\S/.test(line)).map((line) => {
    const gap = /\S {2,}(?=\S)/.exec(line);
    return {
      call: line.slice(2, gap ? gap.index + 1 : line.length),
      column: gap ? gap.index + gap[0].length : -1,
    };
  });
}

Deno.test("tailgate --help sets every command's description apart from its call, in one column", () => {
  const long = "ab <plan.yaml> --base URL --head URL --and-a-much-longer-call-than-any";
  for (
    const commands of [COMMAND_TABLE, [...COMMAND_TABLE, {
      synopsis: [long, "a made-up command"] as const,
    }]]
  ) {
    const rows = commandRows(helpText(commands));
    assert.deepEqual(rows.map((r) => r.call), commands.map((c) => c.synopsis[0]));
    const columns = new Set(rows.map((r) => r.column));
    assert.equal(columns.size, 1, `one description column, not ${[...columns]}`);
    assert.ok(rows.every((r) => r.column >= r.call.length + 4), "two spaces at least after a call");
  }
  for (const line of helpText().split("\n")) assert.ok(line.length <= 100, line);
});

Deno.test("the help names every mode of the built-in target", () => {
  const target = helpText().slice(helpText().indexOf("  target "), helpText().indexOf("  run "));
  const modes = TARGET_HELP.slice(TARGET_HELP.indexOf("Modes:"), TARGET_HELP.indexOf("Options:"));
  for (const mode of TARGET_MODES) {
    assert.match(target, new RegExp(`\\b${mode}\\b`), `tailgate --help lacks ${mode}`);
    assert.match(modes, new RegExp(`^  ${mode} `, "m"), `tailgate target --help lacks ${mode}`);
  }
});
