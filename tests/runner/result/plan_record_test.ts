import assert from "node:assert/strict";
import { planRecord } from "../../../runner/result/plan_record.ts";
import { MINIMAL_PLAN, parseText } from "../../_helpers/plan_fixtures.ts";
import { grpcPlan } from "../../_helpers/grpc_result_fixtures.ts";

Deno.test("planRecord() never stores a secret header value, only its template", () => {
  const text = MINIMAL_PLAN.replace(
    "requests:",
    'defaults:\n  headers:\n    Authorization: "Bearer ${env.TOKEN}"\n    Accept: text/plain\nrequests:',
  );
  const { plan } = parseText(text, { env: { TOKEN: "hunter2-secret" } });
  assert.ok(plan);
  const stored = JSON.stringify(planRecord(plan));
  assert.ok(!stored.includes("hunter2-secret"), "the secret leaked into the record");
  const headers = planRecord(plan).requests[0].headers;
  assert.deepEqual(headers, [
    { name: "Authorization", value: "Bearer ${env.TOKEN}", secret: true },
    { name: "Accept", value: "text/plain", secret: false },
  ]);
});

Deno.test("planRecord() stores constant stages with equal from and to rates", () => {
  const { plan } = parseText(MINIMAL_PLAN.replace(
    "    - { rate: 1k/s, duration: 10s }",
    "    - { rate: 1k/s, duration: 10s }\n    - { ramp: 1k/s -> 3k/s, over: 1m }",
  ));
  assert.ok(plan);
  const stages = planRecord(plan).load.stages.map((s) => [s.kind, s.fromPerSec, s.toPerSec]);
  assert.deepEqual(stages, [["constant", 1000, 1000], ["ramp", 1000, 3000]]);
});

Deno.test("planRecord() never stores a secret read inside a templated path, header or body", () => {
  const { plan } = parseText(
    `name: t
target: http://127.0.0.1:8080
vars: { id: uuid }
requests:
  - name: r
    method: POST
    path: "/u/\${env.TENANT}/{{id}}"
    headers: { Authorization: "Bearer \${env.TOKEN} {{id}}" }
    body: { json: { key: "\${env.TOKEN}", id: "{{id}}" } }
load: { stages: [{ rate: 10/s, duration: 1s }] }
`,
    { env: { TENANT: "acme-secret-tenant", TOKEN: "s3cr3t-token" } },
  );
  const stored = JSON.stringify(planRecord(plan!));
  assert.ok(!stored.includes("s3cr3t-token") && !stored.includes("acme-secret-tenant"), stored);
  assert.match(stored, /\/u\/\$\{env\.TENANT\}\/\{\{id\}\}/);
  // The wire gets the values: they are in the template's secret parts.
  const parts = JSON.stringify(plan!.requests[0].template);
  assert.ok(parts.includes("s3cr3t-token") && parts.includes("acme-secret-tenant"));
});

Deno.test("planRecord() keeps `allow_errors: true`, so a stored result is judged the same way", () => {
  const allowed = parseText(MINIMAL_PLAN + "allow_errors: true\n").plan;
  assert.ok(allowed);
  assert.equal(planRecord(allowed).allowErrors, true);
  const plain = parseText(MINIMAL_PLAN).plan;
  assert.ok(plain);
  assert.equal("allowErrors" in planRecord(plain), false, "absent means false");
});

Deno.test("planRecord() leaves the service out: its env may be secret, and it is not the load", () => {
  const served = MINIMAL_PLAN +
    'service: { start: "npm start", ready: 3917, env: { DB_PASSWORD: "${env.DB_PASSWORD}" } }\n';
  const { plan } = parseText(served, { env: { DB_PASSWORD: "hunter2-secret" } });
  assert.ok(plan?.service, "the plan has its service");
  const { plan: bare } = parseText(MINIMAL_PLAN);
  assert.ok(bare);
  assert.ok(!JSON.stringify(planRecord(plan)).includes("hunter2-secret"));
  // The history's plan fingerprint digests the record: a plan that gains a service keeps it.
  assert.deepEqual(planRecord(plan), planRecord(bare));
});

Deno.test("planRecord() stores the run's seed, and whether the run drew it", () => {
  const { plan } = parseText(MINIMAL_PLAN);
  assert.ok(plan);
  const drawn = planRecord({ ...plan, load: { ...plan.load, seed: 31337 } }).load;
  assert.deepEqual([drawn.seed, drawn.seedPerRun], [31337, true]);
  const { plan: fixed } = parseText(MINIMAL_PLAN.replace("load:", "load:\n  seed: 7"));
  assert.ok(fixed);
  assert.deepEqual([planRecord(fixed).load.seed, "seedPerRun" in planRecord(fixed).load], [
    7,
    false,
  ]);
});

Deno.test("planRecord() stores a plan's journeys, a step's secret header by its template", () => {
  const { plan } = parseText(
    `name: t
target: http://127.0.0.1:8080
requests:
  - journey: order
    weight: 2
    steps:
      - { name: a, path: /a, headers: { Authorization: "Bearer \${env.TOKEN}" } }
      - { name: b, path: /b, think: 10ms..20ms }
load: { stages: [{ rate: 10/s, duration: 1s }] }
`,
    { env: { TOKEN: "hunter2-secret" } },
  );
  assert.ok(plan);
  const record = planRecord(plan);
  assert.ok(!JSON.stringify(record).includes("hunter2-secret"), "the secret leaked");
  const [order] = record.journeys!;
  assert.deepEqual([order.name, order.weight, order.steps.map((s) => s.label)], [
    "order",
    2,
    ["order / a", "order / b"],
  ]);
  assert.deepEqual(order.steps[0].headers.find((h) => h.name === "Authorization"), {
    name: "Authorization",
    value: "Bearer ${env.TOKEN}",
    secret: true,
  });
  assert.deepEqual(order.steps[1].think, { minMs: 10, maxMs: 20 });
  assert.equal(planRecord(parseText(MINIMAL_PLAN).plan!).journeys, undefined);
});

Deno.test("planRecord() stores a gRPC request's call as a plan names it, its deadline and message", () => {
  const stored = planRecord(grpcPlan()).requests;
  assert.deepEqual(stored.map((r) => [r.label, r.grpc, r.body?.kind, r.expect]), [
    [
      "Greeter/SayHello",
      { call: "helloworld.Greeter/SayHello", deadlineMs: 500 },
      "grpc",
      { codes: [1000], classes: [] },
    ],
    [
      "RouteGuide/ListFeatures",
      {
        call: "routeguide.RouteGuide/ListFeatures",
        serverStreaming: true,
      },
      "grpc",
      {
        codes: [1000],
        classes: [],
      },
    ],
  ]);
  const http = parseText(MINIMAL_PLAN).plan;
  assert.ok(http);
  assert.equal("grpc" in planRecord(http).requests[0], false, "an HTTP request stores no call");
});

Deno.test("planRecord() records trace context, with its tracestate, only when it was on", () => {
  const traced = parseText(`${MINIMAL_PLAN}trace: { tracestate: "acme=1" }\n`).plan;
  assert.ok(traced);
  assert.deepEqual(planRecord(traced).trace, { tracestate: "acme=1" });
  const on = parseText(`${MINIMAL_PLAN}trace: true\n`).plan;
  assert.ok(on);
  assert.deepEqual(planRecord(on).trace, {});
  const off = parseText(MINIMAL_PLAN).plan;
  assert.ok(off);
  assert.equal("trace" in planRecord(off), false);
});
