import assert from "node:assert/strict";
import { parseText } from "../../../_helpers/plan_fixtures.ts";
import { notYetRun } from "../../../../runner/plan/requests/mod.ts";

const HEAD = "name: j\ntarget: http://127.0.0.1:8080\n";
const LOAD = "load: { stages: [{ rate: 10/s, duration: 2s }] }\n";

/** The issue's plan, exactly as issue 44 writes it. */
const ISSUE_PLAN = `${HEAD}vars: { item_id: uuid }
requests:
  - { name: GET /health, path: /health, weight: 1 }
  - journey: order
    weight: 3
    steps:
      - name: create
        method: POST
        path: /items
        body: { json: { id: "{{item_id}}", state: open } }
        capture: { created: { json: /id } }
        check: { status: 201, json: { /state: open } }
      - name: read
        path: /items/{{created}}
        think: 50ms
        check: { status: 200, json: { /id: exists }, body: { contains: open } }
${LOAD}slo:
  - p99 < 50ms for "order / read"
  - journey.p99 < 200ms for "order"
  - ttfb.p99 < 20ms
`;

/** Each error as `line:col message`. */
function errors(text: string): string[] {
  return parseText(text).issues.filter((i) => i.severity === "error").map((i) =>
    `${i.line}:${i.col} ${i.message}`
  );
}

/** A plan with one journey whose steps are `steps` (YAML lines at 6 spaces). */
function journey(steps: string, slo = ""): string {
  return `${HEAD}requests:\n  - journey: order\n    steps:\n${steps}${LOAD}${slo}`;
}

Deno.test("the issue's plan reads: labels, captures, think, checks and the new SLO forms", () => {
  const { plan, issues } = parseText(ISSUE_PLAN);
  assert.deepEqual(issues.filter((i) => i.severity === "error"), []);
  assert.deepEqual(plan!.requests.map((r) => r.label), ["GET /health"]);
  const [order] = plan!.journeys!;
  assert.equal(order.name, "order");
  assert.equal(order.weight, 3);
  assert.deepEqual(order.steps.map((s) => s.label), ["order / create", "order / read"]);
  assert.deepEqual(order.steps[0].captures, [
    { name: "created", from: { kind: "json", pointer: "/id" } },
  ]);
  assert.equal(order.steps[0].think, undefined);
  assert.deepEqual(order.steps[1].think, { minMs: 50, maxMs: 50 });
  assert.deepEqual(order.steps[0].checks!.map((c) => c.text), ["status 201", "/state == open"]);
  assert.deepEqual(
    order.steps[1].checks!.map((c) => c.text),
    ["status 200", "/id exists", "body contains open"],
  );
  assert.deepEqual(plan!.slos.map((s) => [s.label, s.series]), [
    ["order / read", undefined],
    ["order", "journey"],
    [undefined, "ttfb"],
  ]);
});

Deno.test("the issue's plan runs whole: nothing of it is refused", () => {
  const { plan } = parseText(ISSUE_PLAN);
  assert.deepEqual(notYetRun(plan!), []);
});

Deno.test("a plan without journeys, checks or new SLOs is not refused", () => {
  const { plan } = parseText(`${HEAD}requests: [{ path: / }]\n${LOAD}slo: ["p99 < 1s"]\n`);
  assert.deepEqual(notYetRun(plan!), []);
});

Deno.test("a time to first byte SLO is run and judged, not refused", () => {
  const { plan } = parseText(
    `${HEAD}requests: [{ path: / }]\n${LOAD}slo: ["ttfb.p99 < 20ms", 'ttfb.max < 1s for "GET /"']\n`,
  );
  assert.deepEqual(plan!.slos.map((s) => s.series), ["ttfb", "ttfb"]);
  assert.deepEqual(notYetRun(plan!), []);
});

Deno.test("checks on a request and a check_rate SLO run: they are not refused", () => {
  const { plan } = parseText(
    `${HEAD}requests: [{ path: /, check: { json: { /s: open } } }]\n${LOAD}` +
      `slo: ['check_rate("/s == open") < 1%']\n`,
  );
  assert.deepEqual(notYetRun(plan!), []);
});

Deno.test("a status check is the request's expect; both given is an error at `expect`", () => {
  const { plan } = parseText(`${HEAD}requests: [{ path: /, check: { status: 201 } }]\n${LOAD}`);
  assert.deepEqual(plan!.requests[0].expect, { codes: [201], classes: [] });
  const both = parseText(
    `${HEAD}requests: [{ path: /, expect: 200, check: { status: 201 } }]\n${LOAD}`,
  );
  assert.deepEqual(both.issues.filter((i) => i.severity === "error").map((i) => i.message), [
    "`expect` and `check: { status }` say the same: give one",
  ]);
});

Deno.test("a journey whose steps check only their status, and its journey SLO, are not refused", () => {
  const steps = "      - { path: /a, check: { status: 201 } }\n      - { path: /b, think: 5ms }\n";
  const { plan } = parseText(
    journey(steps, 'slo: ["journey.p99 < 1s", "p99 < 1s for \\"order / GET /b\\""]\n'),
  );
  assert.deepEqual(notYetRun(plan!), []);
  const windowed = parseText(journey(steps, 'slo: ["journey.p99 < 1s over 10s"]\n')).plan!;
  assert.deepEqual(notYetRun(windowed).map((i) => i.message), [
    "journey SLOs over a window (`over`) are not yet judged by this version",
  ]);
});

Deno.test("a think range is drawn between its ends; a list or a backwards range is refused", () => {
  const steps = (think: string) => `      - { path: /a }\n      - { path: /b, think: ${think} }\n`;
  const { plan } = parseText(journey(steps("100ms..500ms")));
  assert.deepEqual(plan!.journeys![0].steps[1].think, { minMs: 100, maxMs: 500 });
  assert.deepEqual(errors(journey(steps("[100ms, 500ms]"))), [
    "7:28 a think range is written as one value",
  ]);
  assert.deepEqual(errors(journey(steps("500ms..100ms"))), [
    "7:28 the range `500ms..100ms` runs backwards",
  ]);
  assert.equal(errors(journey(steps("5 sec"))).length, 1);
});

Deno.test("think on the first step is refused: it would move the journey's fire time", () => {
  assert.deepEqual(errors(journey("      - { path: /a, think: 1s }\n")), [
    "6:28 the first step is due when its journey starts: it has no think time",
  ]);
});

Deno.test("a capture used before its step, or captured twice, is located", () => {
  const early = journey(
    '      - { path: "/a/{{id}}" }\n      - { path: /b, capture: { id: { json: /id } } }\n',
  );
  assert.equal(errors(early).length, 1);
  assert.match(errors(early)[0], /^6:/);
  const twice = journey(
    "      - { path: /a, capture: { id: { json: /id } } }\n" +
      "      - { path: /b, capture: { id: { header: x-id } } }\n",
  );
  assert.deepEqual(errors(twice), ["7:32 `id` is captured twice"]);
});

Deno.test("a regex capture needs exactly one group; setup steps take no regex", () => {
  const one = journey(
    '      - { path: /a, capture: { id: { regex: "id=(\\\\d+)" } } }\n      - { path: "/b/{{id}}" }\n',
  );
  const { plan, issues } = parseText(one);
  assert.deepEqual(issues.filter((i) => i.severity === "error"), []);
  assert.deepEqual(plan!.journeys![0].steps[0].captures[0].from, {
    kind: "regex",
    pattern: "id=(\\d+)",
  });
  const none = journey(
    '      - { path: /a, capture: { id: { regex: "id=\\\\d+" } } }\n      - { path: "/b/{{id}}" }\n',
  );
  assert.match(errors(none)[0], /has 0 capture groups/);
  const bad = journey(
    '      - { path: /a, capture: { id: { regex: "(" } } }\n      - { path: "/b/{{id}}" }\n',
  );
  assert.match(errors(bad)[0], /is not a regular expression/);
  const setup = `${HEAD}setup:\n  - { path: /login, capture: { t: { regex: "(x)" } } }\n` +
    `requests: [{ path: "/{{t}}" }]\n${LOAD}`;
  assert.deepEqual(errors(setup), [
    "4:35 a capture takes its value from one place",
    "4:37 unknown key `regex` in `setup[0].capture.t`",
  ]);
});

Deno.test("every check form reads, named by its own text", () => {
  const plan = parseText(journey(
    "      - path: /a\n        check:\n          status: [200, 201]\n" +
      "          header: { Content-Type: json }\n" +
      "          json: { /n: { lt: 5, gt: 0 }, /s: { matches: ^o }, /e: absent, /q: { eq: exists } }\n" +
      '          body: { matches: "^\\\\{" }\n          max_bytes: 4096\n',
  )).plan!;
  assert.deepEqual(plan.journeys![0].steps[0].checks!.map((c) => c.text), [
    "status [200, 201]",
    "content-type ~ json",
    "/n < 5",
    "/n > 0",
    "/s ~ ^o",
    "/e absent",
    "/q == exists",
    "body ~ ^\\{",
    "max_bytes 4096",
  ]);
});

Deno.test("a wrong check is located, with did-you-mean and the pointer meant", () => {
  const check = (c: string) => errors(journey(`      - { path: /a, check: ${c} }\n`));
  assert.deepEqual(check("{ stauts: 200 }"), [
    "6:30 unknown key `stauts` in `requests[0].steps[0].check`",
  ]);
  assert.deepEqual(check("{ json: { state: open } }"), ["6:38 `state` is not a JSON pointer"]);
  assert.deepEqual(check('{ body: { matches: "[" } }'), [
    "6:47 `[` is not a regular expression (/[/: Unterminated character class)",
  ]);
  assert.deepEqual(check("{ max_bytes: -1 }").length, 1);
  assert.deepEqual(check("{ json: { /n: { lt: five } } }").length, 1);
  const hint = parseText(journey("      - { path: /a, check: { stauts: 200 } }\n")).issues[0].hint;
  assert.equal(hint, "did you mean `status`?");
});

Deno.test("a journey's keys are checked: request keys belong on a step, names are distinct", () => {
  const misplaced =
    `${HEAD}requests:\n  - { journey: order, path: /a, steps: [{ path: /a }] }\n${LOAD}`;
  const issue = parseText(misplaced).issues.find((i) => i.severity === "error")!;
  assert.equal(issue.message, "unknown key `path` in `requests[0]`");
  assert.equal(issue.hint, "`path` goes on a step under `steps`");
  const noSteps = `${HEAD}requests:\n  - { journey: order }\n${LOAD}`;
  assert.deepEqual(errors(noSteps), ["4:5 the journey has no `steps`"]);
  const twice = `${HEAD}requests:\n  - { journey: a, steps: [{ path: /x }] }\n` +
    `  - { journey: a, steps: [{ path: /y }] }\n${LOAD}`;
  assert.deepEqual(errors(twice), ["5:5 two journeys are named `a`"]);
  const sameLabel = journey("      - { name: x, path: /a }\n      - { name: x, path: /b }\n");
  assert.deepEqual(errors(sameLabel), ["4:5 two requests have the label `order / x`"]);
  const clash =
    `${HEAD}requests:\n  - { name: order, path: /o }\n  - { journey: order, steps: [{ path: /x }] }\n${LOAD}`;
  assert.deepEqual(errors(clash), ["4:5 `order` is both a journey and a label"]);
});

Deno.test("vars are drawn per journey, so a step may use them; an unused one still warns", () => {
  const text =
    `${HEAD}vars: { id: uuid }\nrequests:\n  - journey: o\n    steps: [{ path: "/a/{{id}}" }]\n${LOAD}`;
  const { issues } = parseText(text);
  assert.deepEqual(issues, []);
});

Deno.test("journey SLOs name a journey; a step label is `for` a step; check_rate names a check", () => {
  const steps = "      - { path: /a, check: { json: { /s: open } } }\n";
  const slo = (line: string) => errors(journey(steps, `slo: ['${line}']\n`));
  assert.deepEqual(slo('journey.p99 < 1s for "order"'), []);
  assert.deepEqual(slo("journey.p99 < 1s"), []);
  assert.deepEqual(slo('journey.p99 < 1s for "ordre"'), ["8:7 no journey is named `ordre`"]);
  assert.deepEqual(slo('p99 < 1s for "order"'), [
    "8:7 `order` is a journey: `for` names a request or step label here",
  ]);
  assert.deepEqual(slo('p99 < 1s for "order / GET /a"'), []);
  assert.deepEqual(slo('check_rate("/s == open") < 0.1%'), []);
  assert.deepEqual(slo('check_rate("/s == opne") < 0.1%'), ["8:7 no check reads `/s == opne`"]);
  assert.deepEqual(slo("journey.error_rate < 1%"), [
    "8:16 `journey.` goes before a percentile, `max` or `mean`",
  ]);
  assert.deepEqual(slo("ttfb.max < 20ms"), []);
});
