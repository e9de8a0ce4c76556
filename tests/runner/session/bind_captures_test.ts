import assert from "node:assert/strict";
import { bindCaptures } from "../../../runner/session/mod.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { valueOf } from "../../_helpers/result_value.ts";

function plan(request: string, vars = "") {
  const { plan, issues } = parseText(`name: b
target: http://127.0.0.1:8080/api
${vars}
setup: [{ path: /login, capture: { token: { json: /t }, id: { json: /id } } }]
requests:
  - ${request}
load: { stages: [{ rate: 10/s, duration: 2s }] }
`);
  assert.deepEqual(issues.filter((i) => i.severity === "error"), []);
  return plan!;
}

const values = new Map([
  ["token", { text: "t k/1", json: '"t k/1"' }],
  ["id", { text: "42", json: "42" }],
]);

Deno.test("a request whose only capture is in a header is bound into a fixed request", () => {
  const r = plan('{ path: /orders, headers: { Authorization: "Bearer {{token}}" } }').requests[0];
  assert.ok(r.template, "a template until setup has run");
  const bound = valueOf(bindCaptures(r, values));
  assert.equal(bound.template, undefined, "sent as one fixed string");
  const h = bound.headers.find((x) => x.name === "Authorization")!;
  assert.deepEqual(h, {
    name: "Authorization",
    value: "Bearer t k/1",
    template: "Bearer {{token}}",
    secret: true,
  });
  assert.equal(bound.url, "http://127.0.0.1:8080/api/orders");
});

Deno.test("a capture in a path is percent-encoded, in a JSON body typed or escaped, kept secret", () => {
  const r = plan(
    '{ method: POST, path: "/o/{{token}}", body: { json: { id: "{{id}}", t: "x {{token}}" } } }',
  ).requests[0];
  const bound = valueOf(bindCaptures(r, values));
  assert.equal(bound.url, "http://127.0.0.1:8080/api/o/{{token}}", "the printable URL stays");
  assert.deepEqual(bound.template!.target, [
    { kind: "text", text: "/api/o/" },
    { kind: "secret", value: "t%20k%2F1", template: "{{token}}" },
  ]);
  assert.deepEqual(
    bound.template!.body!.map((p) =>
      p.kind === "text" ? p.text : p.kind === "secret" ? p.value : "?"
    )
      .join(""),
    '{"id":42,"t":"x t k/1"}',
  );
  assert.ok(bound.template!.body!.every((p) => p.kind !== "capture"));
});

Deno.test("a header that also draws a var keeps its parts, the capture bound among them", () => {
  const r = plan(
    '{ path: /o, headers: { X-Key: "{{token}}-{{n}}" } }',
    "vars: { n: counter }",
  ).requests[0];
  const bound = valueOf(bindCaptures(r, values));
  const h = bound.headers.find((x) => x.name === "X-Key")!;
  assert.deepEqual(h.parts, [
    { kind: "secret", value: "t k/1", template: "{{token}}" },
    { kind: "text", text: "-" },
    { kind: "ref", ref: { kind: "var", name: "n" }, encoding: "raw" },
  ]);
  assert.ok(bound.template);
});

Deno.test("a captured value a header cannot hold is refused, naming the capture and the header", () => {
  const r = plan('{ path: /o, headers: { Authorization: "Bearer {{token}}" } }').requests[0];
  const bound = bindCaptures(r, new Map([["token", { text: "a\r\nX-Evil: 1", json: '""' }]]));
  assert.ok(!bound.ok);
  assert.match(
    bound.problems[0].message,
    /^`token` cannot go in header `Authorization`: .*carriage return/,
  );
});

Deno.test("a journey step binds the setup's captures and leaves its journey's own to the engine", () => {
  const step = plan(`journey: order
    weight: 1
    steps:
      - { name: create, method: POST, path: /items, capture: { item: { json: /id } } }
      - { name: read, path: "/items/{{item}}", headers: { Authorization: "Bearer {{token}}", X-Item: "{{item}}" } }`)
    .journeys![0].steps[1];
  const bound = valueOf(bindCaptures(step, values, new Set(["item"])));
  const t = bound.template!;
  assert.deepEqual(
    t.target.filter((p) => p.kind === "capture").map((p) => p.kind === "capture" && p.name),
    ["item"],
  );
  const auth = t.headers.find((h) => h.name === "Authorization")!;
  assert.ok(auth.parts.some((p) => p.kind === "secret" && p.value === "t k/1"));
  const item = bound.headers.find((h) => h.name === "X-Item")!;
  assert.ok(item.parts?.some((p) => p.kind === "capture"), "kept for the engine");
});
