import assert from "node:assert/strict";
import { parsePlanText } from "../../../../runner/plan/load_plan.ts";
import type { PlanIssue } from "../../../../runner/plan/types.ts";

const HEAD = `name: e
target: http://127.0.0.1:3917
requests: [{ path: /posts }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
`;

function parse(tail: string, env: Record<string, string> = {}, requireEnv = true) {
  return parsePlanText(HEAD + tail, { env: (name) => env[name], requireEnv });
}

function located(issues: PlanIssue[]): string[] {
  return issues.map((i) =>
    `${i.line}:${i.col} ${i.severity} ${i.path}: ${i.message}${i.hint ? ` (${i.hint})` : ""}`
  );
}

Deno.test("export: each exporter reads as its kind, URL, headers and line", () => {
  const { plan, issues } = parse(`export:
  - { prometheus: http://127.0.0.1:9090/api/v1/write }
  - otlp: http://127.0.0.1:4318
    headers: { X-Scope: team-a }
`);
  assert.deepEqual(issues, []);
  assert.deepEqual(plan?.export, [
    {
      kind: "prometheus",
      url: "http://127.0.0.1:9090/api/v1/write",
      urlText: "http://127.0.0.1:9090/api/v1/write",
      headers: [],
      line: 6,
    },
    {
      kind: "otlp",
      url: "http://127.0.0.1:4318",
      urlText: "http://127.0.0.1:4318",
      headers: [{ name: "X-Scope", value: "team-a", template: "team-a", secret: false }],
      line: 7,
    },
  ]);
});

Deno.test("export: a secret URL and header are sent, printed as written, and kept secret", () => {
  const { plan, issues } = parse(
    'export: [{ otlp: "${env.OTLP_URL}", headers: { Authorization: "Bearer ${env.TOKEN}" } }]\n',
    { OTLP_URL: "https://otlp.example/k=s3cret", TOKEN: "t0ken" },
  );
  assert.deepEqual(issues, []);
  const [target] = plan!.export!;
  assert.equal(target.url, "https://otlp.example/k=s3cret");
  assert.equal(target.urlText, "${env.OTLP_URL}");
  assert.equal(target.headers[0].value, "Bearer t0ken");
  assert.equal(target.headers[0].secret, true);
  assert.ok(plan!.secretValues!.includes("t0ken"));
  assert.ok(plan!.secretValues!.includes("https://otlp.example/k=s3cret"));
});

Deno.test("export: every problem is located, with its fix, and no exporter in error is kept", () => {
  const { plan, issues } = parse(`export:
  - { otlp: ftp://x, prometheus: http://y }
  - { prom: http://127.0.0.1:9 }
  - { prometheus: 127.0.0.1:9090 }
  - {}
`);
  assert.equal(plan, undefined);
  assert.deepEqual(located(issues), [
    "6:5 error export[0]: an exporter is `prometheus` or `otlp`, not both (give each its own item of the list)",
    "7:7 error export[1].prom: unknown key `prom` in `export[1]` (did you mean `prometheus`?)",
    "8:19 error export[2].prometheus: `127.0.0.1:9090` is not an http(s) URL for prometheus (write e.g. `http://127.0.0.1:9090/api/v1/write`)",
    "9:5 error export[3]: an exporter needs `prometheus` or `otlp` (e.g. `- { prometheus: http://127.0.0.1:9090/api/v1/write }`)",
  ]);
});

Deno.test("export: a bad secret URL is reported without its value", () => {
  const { issues } = parse('export: [{ prometheus: "${env.PROM}" }]\n', { PROM: "s3cret-host:9" });
  assert.equal(issues.length, 1);
  assert.doesNotMatch(JSON.stringify(issues), /s3cret/);
  assert.match(issues[0].message, /\$\{env\.PROM\}/);
});

Deno.test("export: a value drawn per request cannot go in an exporter", () => {
  const { issues } = parse(
    'vars: { id: uuid }\nexport: [{ otlp: http://127.0.0.1:4318, headers: { X-Id: "{{id}}" } }]\n',
  );
  assert.ok(
    issues.some((i) =>
      i.path === "export[0].headers.X-Id" && /once, after the run/.test(i.message)
    ),
    located(issues).join("\n"),
  );
});
