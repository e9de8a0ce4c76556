import assert from "node:assert/strict";
import { evaluate, interpolate, stepRuns } from "../../../bench/ci_action/action_expr.ts";
import { readAction } from "../../../bench/ci_action/action_job.ts";
import { REPO_ROOT } from "../../_helpers/source_files.ts";

const none = () => undefined;

Deno.test("every if: and ${{ }} in action.yml is one the study can evaluate", async () => {
  const action = await readAction(REPO_ROOT);
  const seen: string[] = [];
  const lookup = (path: string) => {
    seen.push(path);
    return "";
  };
  for (const step of action.steps) {
    if (!("run" in step)) continue;
    for (const failed of [false, true]) stepRuns(step.if, { lookup, failed });
    for (const value of Object.values(step.env)) interpolate(value, { lookup, failed: false });
  }
  assert.ok(seen.includes("inputs.fail-on"), "the run step's env reads the inputs");
  assert.ok(seen.includes("steps.settings.outputs.mode"), "and the settings step's outputs");
});

Deno.test("a step without if: runs only while nothing failed; !cancelled() runs after a failure", () => {
  assert.equal(stepRuns(undefined, { lookup: none, failed: false }), true);
  assert.equal(stepRuns(undefined, { lookup: none, failed: true }), false);
  assert.equal(stepRuns("${{ !cancelled() }}", { lookup: none, failed: true }), true);
  assert.equal(stepRuns("steps.x.outputs.y == ''", { lookup: none, failed: true }), false);
});

Deno.test("== compares strings as GitHub does, ignoring case; && and || yield their operands", () => {
  const lookup = (p: string) => ({ "inputs.mode": "Cache", "inputs.empty": "" })[p];
  const ctx = { lookup, failed: false };
  assert.equal(evaluate("inputs.mode == 'cache'", ctx), true);
  assert.equal(evaluate("inputs.mode != 'cache'", ctx), false);
  assert.equal(evaluate("inputs.empty && 'a' || 'b'", ctx), "b");
  assert.equal(evaluate("(inputs.mode == 'branch' || inputs.mode == 'CACHE') && true", ctx), true);
  assert.equal(evaluate("'it''s'", ctx), "it's");
});

Deno.test("an expression the study cannot read is refused by name, not misread", () => {
  assert.throws(
    () => evaluate("hashFiles('**/deno.lock') != ''", { lookup: none, failed: false }),
    /hashFiles/,
  );
  assert.throws(() => evaluate("inputs.a == ", { lookup: none, failed: false }), /ends early/);
  assert.throws(() => evaluate("(true", { lookup: none, failed: false }), /not closed/);
});
