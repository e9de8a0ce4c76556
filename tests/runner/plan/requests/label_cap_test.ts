import assert from "node:assert/strict";
import { parseText } from "../../../_helpers/plan_fixtures.ts";

/** A plan whose `requests:` key is on line 3, with `n` requests of distinct names. */
function planWith(n: number, style: "block" | "flow" = "block", stages = 1): string {
  const items = Array.from({ length: n }, (_, i) => `{ name: item ${i}, path: /items/${i} }`);
  const requests = style === "block"
    ? `requests:\n${items.map((i) => `  - ${i}\n`).join("")}`
    : `requests: [${items.join(", ")}]\n`;
  return `name: t\ntarget: http://127.0.0.1:8080\n${requests}` +
    `load: { stages: [${Array(stages).fill("{ rate: 10/s, duration: 1s }").join(", ")}] }\n`;
}

Deno.test("more than 1000 request labels is an error at the `requests:` key, with a hint", () => {
  for (const style of ["block", "flow"] as const) {
    const p = parseText(planWith(1001, style));
    assert.equal(p.plan, undefined, style);
    const errors = p.issues.filter((i) => i.severity === "error");
    assert.equal(errors.length, 1, errors.map((e) => e.message).join("\n"));
    const [e] = errors;
    assert.deepEqual([e.line, e.col, e.length, e.path], [3, 1, "requests".length, "requests"]);
    assert.match(e.message, /^1001 requests, each its own label: at most 1000/);
    assert.match(e.hint!, /one `name`/);
    assert.match(e.hint!, /\{\{/, "the hint shows a template varying the path");
  }
});

Deno.test("a few hundred request labels run; from 500 on, a warning names the memory", () => {
  const few = parseText(planWith(300));
  assert.ok(few.plan);
  assert.deepEqual(few.issues, []);
  const near = parseText(planWith(1000));
  assert.equal(near.plan?.requests.length, 1000);
  assert.deepEqual(near.issues.map((i) => [i.severity, i.line, i.col, i.path]), [
    ["warning", 3, 1, "requests"],
  ]);
  assert.match(
    near.issues[0].message,
    /^1000 requests, each its own label, near the limit of 1000/,
  );
  assert.match(near.issues[0].message, /up to 1900 MB when every label is busy$/);
  assert.equal(parseText(planWith(500)).issues.length, 1);
  assert.equal(parseText(planWith(499)).issues.length, 0);
});

Deno.test("a few hundred labels in many stages are no warning: a stage over keeps no histograms", () => {
  const many = parseText(planWith(300, "block", 30));
  assert.equal(many.plan?.load.stages.length, 30);
  assert.deepEqual(many.issues, []);
});

Deno.test("a journey counts toward the label cap once and once per step", () => {
  // 995 requests and a journey of 5 steps: 995 + 1 + 5 = 1001 labels.
  const steps = Array.from({ length: 5 }, (_, i) => `{ name: s${i}, path: /s/${i} }`).join(", ");
  const text = planWith(995).replace(
    "load:",
    `  - { journey: checkout, weight: 1, steps: [${steps}] }\nload:`,
  );
  const errors = parseText(text).issues.filter((i) => i.severity === "error");
  assert.equal(errors.length, 1, errors.map((e) => e.message).join("\n"));
  assert.match(errors[0].message, /^1001 requests, each its own label/);
  assert.deepEqual(
    parseText(
      planWith(994).replace(
        "load:",
        `  - { journey: checkout, weight: 1, steps: [${steps}] }\nload:`,
      ),
    ).issues.filter((i) => i.severity === "error"),
    [],
  );
});
