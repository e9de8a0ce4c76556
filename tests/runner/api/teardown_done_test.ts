import assert from "node:assert/strict";
import { withTeardown } from "../../../runner/api/teardown_done.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";

const step = (label: string) => ({ phase: "teardown", label }) as never;

Deno.test("withTeardown() joins the teardown's steps and warnings to a copy, leaving the result", () => {
  const result = { ...sampleResult({}, { everyRequestAnswered: true }), steps: [step("login")] };
  const before = structuredClone(result);
  const done = { changed: true, stopped: false, records: [step("logout")], warnings: ["late"] };
  const written = withTeardown(result, done);
  assert.deepEqual(result, before);
  assert.deepEqual(written.steps, [step("login"), step("logout")]);
  assert.deepEqual(written.warnings, [...result.warnings ?? [], "late"]);
  // As the teardown's fields were always written: steps where they were, warnings after.
  const keys = Object.keys(written);
  assert.deepEqual(keys.slice(0, Object.keys(result).length), Object.keys(result));
  assert.equal(keys.at(-1), result.warnings ? "steps" : "warnings");
  assert.equal(
    withTeardown(result, { ...done, changed: false, records: [], warnings: [] }),
    result,
  );
});
