import assert from "node:assert/strict";
import { readRunResult } from "../../../runner/result/read_run_result.ts";
import { RESULT_SCHEMA, RESULT_VERSION } from "../../../runner/model/run_result.ts";

const SECTIONS = [
  "run",
  "plan",
  "environment",
  "histograms",
  "totals",
  "stages",
  "intervals",
  "health",
  "verdicts",
];

function doc(overrides: Record<string, unknown> = {}): string {
  const base: Record<string, unknown> = { schema: RESULT_SCHEMA, version: RESULT_VERSION };
  for (const k of SECTIONS) base[k] = {};
  return JSON.stringify({ ...base, ...overrides });
}

Deno.test("readRunResult() accepts a document of this version with every section", () => {
  const r = readRunResult(doc());
  assert.equal(r.ok, true);
});

Deno.test("readRunResult() still reads a version 1 result (no stored run verdict)", () => {
  const r = readRunResult(doc({ version: 1 }));
  assert.ok(r.ok);
  assert.equal(r.result.verdict, undefined);
});

Deno.test("readRunResult() refuses a newer format and says to upgrade", () => {
  const r = readRunResult(doc({ version: RESULT_VERSION + 1 }));
  assert.ok(!r.ok && /upgrade tailgate/.test(r.error));
});

Deno.test("readRunResult() refuses non-JSON, other documents and missing sections", () => {
  const notJson = readRunResult("{ nope");
  assert.ok(!notJson.ok && notJson.error.startsWith("not JSON"));
  const other = readRunResult(JSON.stringify({ schema: "k6/summary" }));
  assert.ok(!other.ok && other.error.startsWith("not a tailgate result"));
  const partial = JSON.parse(doc());
  delete partial.stages;
  const missing = readRunResult(JSON.stringify(partial));
  assert.ok(!missing.ok && missing.error === "the result lacks `stages`");
});
