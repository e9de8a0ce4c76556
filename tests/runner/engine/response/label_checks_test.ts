import assert from "node:assert/strict";
import { LabelChecks, ResponseView } from "../../../../runner/engine/response/mod.ts";
import type { PlanCheck } from "../../../../runner/plan/types.ts";
import type { ResponseOutcome } from "../../../../runner/engine/types.ts";

const OK = { codes: [], classes: [2] };
const at = (line: number) => ({ text: `check ${line}`, line });

function outcome(status: number, body: string, more: Partial<ResponseOutcome> = {}) {
  const bytes = new TextEncoder().encode(body);
  return { status, body: bytes, bodyBytes: bytes.length, ...more } as ResponseOutcome;
}

Deno.test("a response is parsed as JSON once, however many JSON checks read it", () => {
  const checks: PlanCheck[] = [
    { kind: "json", pointer: "/a", test: { op: "exists" }, ...at(1) },
    { kind: "json", pointer: "/b", test: { op: "eq", json: "2" }, ...at(2) },
    { kind: "json", pointer: "/c", test: { op: "absent" }, ...at(3) },
  ];
  const label = new LabelChecks(checks, OK);
  const parse = JSON.parse;
  let parses = 0;
  JSON.parse = (text: string) => (parses++, parse(text));
  try {
    assert.equal(label.evaluate(outcome(200, '{"a":1,"b":2}')), false);
    assert.equal(label.evaluate(outcome(200, '{"a":1,"b":3}')), true);
  } finally {
    JSON.parse = parse;
  }
  assert.equal(parses, 2);
  assert.deepEqual([...label.failed], [0, 1, 0]);
});

Deno.test("an unexpected status is not check_failed; the status check is marked failed", () => {
  const label = new LabelChecks([
    { kind: "status", expect: { codes: [201], classes: [] }, ...at(1) },
    { kind: "body_contains", contains: "ok", ...at(2) },
  ], { codes: [201], classes: [] });
  assert.equal(label.evaluate(outcome(500, "nope")), false);
  assert.deepEqual([...label.failed], [1, 1]);
  assert.equal(label.evaluate(outcome(201, "nope")), true);
  assert.deepEqual([...label.failed], [0, 1]);
});

Deno.test("a cut body fails max_bytes by its whole length, and a JSON check as unread", () => {
  const label = new LabelChecks([
    { kind: "max_bytes", bytes: 4096, ...at(1) },
    { kind: "json", pointer: "/a", test: { op: "exists" }, ...at(2) },
    { kind: "body_contains", contains: "{", ...at(3) },
  ], OK);
  const cut = outcome(200, '{"a":', { bodyCut: true, bodyBytes: 2_000_000 });
  assert.equal(label.evaluate(cut), true);
  assert.deepEqual([...label.failed], [1, 1, 0]);
});

Deno.test("the view reads the last response only: text and JSON are not carried over", () => {
  const view = new ResponseView();
  assert.deepEqual(view.of(outcome(200, '{"x":1}')).json(), { value: { x: 1 } });
  const next = view.of(outcome(200, "plain"));
  assert.deepEqual([next.bodyText, next.json(), next.header("a"), next.names()], [
    "plain",
    undefined,
    [],
    "no headers",
  ]);
});
