import assert from "node:assert/strict";
import { inertLines, noWorkflowCommands } from "../../../runner/plan/printable.ts";
import { commandLines, runnerCommand } from "../../_helpers/runner_commands.ts";

/** Plan-controlled text that a GitHub runner would read as a workflow command if printed raw. */
const HOSTILE = [
  "::error::plan-name-pwned ##[error]legacy-name",
  "[::error::stage-name ##[warning]at 1s",
  " ::error::one space",
  "\t\t::warning::tabs",
  "\u00a0\u3000\u2003::notice::unicode spaces",
  "\u2028::error::line separator",
  "\u0085::error::next line",
  "\u000b\u000c::error::vertical tab and form feed",
  "ok\r::error::after a carriage return",
  "ok\n  ::stop-commands::pwn",
  "x ##[set-output name=x;]y",
  "##[group]legacy",
  "###[error]three",
  "\u200b::error::zero-width first",
  ":\u200b:error::zero-width between",
  "#\u200b#[error]zero-width in the legacy prefix",
  "##\u2060[warning]word joiner",
  "\u001b\u200b::error::escape and zero-width first",
];

Deno.test("the runner-rules helper finds the commands the runner would run", () => {
  assert.equal(runnerCommand("  ::error file=a.yaml,line=3::boom")?.properties.line, "3");
  assert.equal(runnerCommand("text ##[warning]legacy")?.form, "legacy");
  assert.equal(runnerCommand("a ::error::not at the start"), undefined);
  assert.equal(runnerCommand("http://[::1]:8080/ ## [x]"), undefined);
  for (const text of HOSTILE) assert.equal(commandLines([text]).length, 1, JSON.stringify(text));
});

Deno.test("noWorkflowCommands() leaves no line the runner reads as a command: TrimStart, then ::, and ##[ anywhere", () => {
  for (const text of HOSTILE) {
    const out = noWorkflowCommands(text);
    assert.deepEqual(commandLines([out]), [], JSON.stringify([text, out]));
    const inert = inertLines(text);
    assert.deepEqual(commandLines([inert]), [], JSON.stringify([text, inert]));
  }
});

Deno.test("noWorkflowCommands() marks the break with a visible backslash and keeps the rest as written", () => {
  assert.equal(noWorkflowCommands("::error::x"), ":\\:error::x");
  assert.equal(noWorkflowCommands("  ::error::x\nok"), "  :\\:error::x\nok");
  assert.equal(noWorkflowCommands("[s ##[warning]y"), "[s #\\#[warning]y");
  assert.equal(noWorkflowCommands("\u001b[1mbold\u001b[0m"), "\u001b[1mbold\u001b[0m");
  for (const benign of ["a: b::c", "http://[::1]:8080/", "## heading", "p99 < 5ms, 12 # [1]"]) {
    assert.equal(noWorkflowCommands(benign), benign);
  }
  assert.equal(inertLines("::error::x\nok \u001b[2J"), ":\\:error::x\nok \\u001b[2J");
});
