import assert from "node:assert/strict";
import {
  escapeData,
  escapeProperty,
  formatAnnotation,
  formatGroup,
  formatOutputs,
  writeOutputs,
} from "../../ci/workflow_commands.ts";
import { executedCommands } from "../_helpers/runner_commands.ts";

Deno.test("escapeData() encodes %, CR and LF; escapeProperty() also : and ,", () => {
  assert.equal(escapeData("a%b\r\nc: d, e"), "a%25b%0D%0Ac: d, e");
  assert.equal(escapeProperty("a%b\r\nc: d, e"), "a%25b%0D%0Ac%3A d%2C e");
  // % first, so an existing escape is not decoded by the runner.
  assert.equal(escapeData("%0A"), "%250A");
});

Deno.test("formatAnnotation() writes only the properties given, in file, line, col, title order", () => {
  assert.equal(formatAnnotation({ level: "notice", message: "hi" }), "::notice::hi");
  assert.equal(
    formatAnnotation({
      level: "warning",
      file: "a,b.yaml",
      line: 3,
      col: 7,
      title: "t",
      message: "m",
    }),
    "::warning file=a%2Cb.yaml,line=3,col=7,title=t::m",
  );
});

Deno.test("formatGroup() keeps any title on one line that the runner reads back as written", () => {
  const title = "tailgate run plans/a\n::error title=X::y\r%0A.yaml";
  const line = formatGroup(title);
  assert.equal(line, "::group::tailgate run plans/a\\n::error title=X::y\\r%250A.yaml");
  assert.deepEqual(executedCommands([line]).map((c) => [c.command, c.data]), [
    ["group", "tailgate run plans/a\\n::error title=X::y\\r%0A.yaml"],
  ]);
});

Deno.test("formatOutputs() writes multiline values between a delimiter found in no value", () => {
  const delimiters = ["EOF", "EOF", "D2"];
  const text = formatOutputs(
    { verdict: "fail", "summary-file": "a\nEOF\nb" },
    () => delimiters.shift()!,
  );
  assert.equal(text, "verdict<<EOF\nfail\nEOF\nsummary-file<<D2\na\nEOF\nb\nD2\n");
  assert.throws(() => formatOutputs({ "bad name": "x" }), /output name/);
  assert.throws(() => formatOutputs({ a: "EOF" }, () => "EOF"), /every delimiter/);
});

Deno.test("writeOutputs() appends to $GITHUB_OUTPUT and does nothing without it", async () => {
  const file = await Deno.makeTempFile({ prefix: "tailgate-output-" });
  try {
    await Deno.writeTextFile(file, "earlier<<X\n1\nX\n");
    await writeOutputs({ verdict: "pass" }, file);
    await writeOutputs({ verdict: "ignored" }, undefined);
    const text = await Deno.readTextFile(file);
    assert.match(text, /^earlier<<X\n1\nX\nverdict<<(ghadelimiter_[0-9a-f-]{36})\npass\n\1\n$/);
  } finally {
    await Deno.remove(file);
  }
});
