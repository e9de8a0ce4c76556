import assert from "node:assert/strict";
import { parseText } from "../../../_helpers/plan_fixtures.ts";
import { loginPlan } from "../../../_helpers/login_server.ts";

/** The issue's plan, exactly as the contract writes it. */
const CONTRACT = loginPlan(
  "http://127.0.0.1:8080",
  "load: { stages: [{ rate: 10/s, duration: 2s }] }\n",
);

/** Each error as `line:col message`. */
function errors(text: string): string[] {
  return parseText(text).issues.filter((i) => i.severity === "error").map((i) =>
    `${i.line}:${i.col} ${i.message}`
  );
}

Deno.test("the issue's plan reads: setup with captures, a request and a teardown that use them", () => {
  const { plan, issues } = parseText(CONTRACT, { env: { API_PASSWORD: "pw-1" } });
  assert.deepEqual(issues, []);
  const [login] = plan!.setup!;
  assert.equal(login.label, "login");
  assert.equal(login.method, "POST");
  assert.equal(login.url, "http://127.0.0.1:8080/login");
  assert.deepEqual(login.expect, { codes: [200], classes: [] });
  assert.deepEqual(login.captures, [
    { name: "token", from: { kind: "json", pointer: "/access_token" } },
    { name: "session", from: { kind: "header", name: "set-cookie" } },
  ]);
  // The password is sent, and the plan keeps it among the values no message may show.
  assert.deepEqual(plan!.secretValues, ["pw-1"]);
  const auth = plan!.requests[0].headers.find((h) => h.name === "Authorization")!;
  assert.equal(auth.secret, true);
  assert.deepEqual(auth.parts, [
    { kind: "text", text: "Bearer " },
    { kind: "capture", name: "token", encoding: "raw" },
  ]);
  const [logout] = plan!.teardown!;
  assert.deepEqual(logout.template!.target, [
    { kind: "text", text: "/sessions/" },
    { kind: "capture", name: "session", encoding: "percent" },
  ]);
  assert.equal(logout.label, "DELETE /sessions/{{session}}");
});

Deno.test("a capture in a JSON body that is the whole string keeps the captured value's type", () => {
  const { plan } = parseText(
    CONTRACT.replace(
      "headers: { Authorization",
      'body: { json: { owner: "{{token}}", note: "by {{token}}" } }\n    headers: { Authorization',
    ),
    { env: { API_PASSWORD: "x" } },
  );
  assert.deepEqual(plan!.requests[0].template!.body, [
    { kind: "text", text: '{"owner":' },
    { kind: "capture", name: "token", encoding: "json_value" },
    { kind: "text", text: ',"note":"by ' },
    { kind: "capture", name: "token", encoding: "json_string" },
    { kind: "text", text: '"}' },
  ]);
});

Deno.test("a default header that reads a capture goes on the requests and the steps after the capture", () => {
  const { plan, issues } = parseText(
    `name: d
target: http://127.0.0.1:8080
defaults: { headers: { Authorization: "Bearer {{token}}", X-Team: ci } }
setup:
  - { path: /login, capture: { token: { json: /t } } }
  - { path: /me }
requests: [{ path: /orders }]
teardown: [{ method: DELETE, path: /session }]
load: { stages: [{ rate: 10/s, duration: 2s }] }
`,
  );
  assert.deepEqual(issues, []);
  const names = (h: { name: string }[]) => h.map((x) => x.name);
  assert.deepEqual(names(plan!.setup![0].headers), ["X-Team"], "the login goes without it");
  assert.deepEqual(names(plan!.setup![1].headers), ["Authorization", "X-Team"]);
  assert.deepEqual(names(plan!.requests[0].headers), ["Authorization", "X-Team"]);
  assert.deepEqual(names(plan!.teardown![0].headers), ["Authorization", "X-Team"]);
});

Deno.test("every mistake in setup and teardown is located, with a fix", () => {
  const e = errors(`name: bad
target: http://127.0.0.1:8080
vars: { n: counter }
setup:
  - path: "/a/{{token}}"
    weight: 2
    capture:
      token: { json: $.data.token }
      n: { header: x }
      both: { json: /x, header: y }
  - path: "/b/{{n}}"
    capture: { "a-b": { json: /x }, c: { header: "a b" }, d: { json: "x~2" } }
requests:
  - path: "/orders/{{n}}/{{gone}}"
teardown:
  - { method: DELETE, path: /s, capture: { gone: { header: x }, token: { json: /t } } }
load: { stages: [{ rate: 10/s, duration: 2s }] }
`);
  assert.deepEqual(e, [
    "5:15 `{{token}}` is captured by setup[0], which runs after this",
    "6:5 unknown key `weight` in `setup[0]`",
    "8:22 `$.data.token` is not a JSON pointer",
    "9:7 `n` is also a var or data source of this plan",
    "10:13 a capture takes its value from one place",
    "11:15 a setup step is sent once; `{{…}}` of a var or data column draws a value per measured request",
    "12:16 `a-b` is not a name a template can use",
    "12:50 `a b` is not a header name",
    "12:70 `x~2` is not a JSON pointer",
    "14:26 `{{gone}}` is captured by teardown[0], which runs after this",
  ]);
  const hints = parseText(CONTRACT.replace("json: /access_token", "json: $.data.token")).issues
    .map((i) => i.hint);
  assert.ok(
    hints.includes("a JSON pointer (RFC 6901) names each step from the root: `/data/token`"),
  );
});

Deno.test("a name captured twice, or by teardown after setup, is an error at the second", () => {
  const e = errors(
    CONTRACT.replace("${env.API_PASSWORD}", "pw").replace(
      '- { method: DELETE, path: "/sessions/{{session}}" }',
      "- { method: DELETE, path: /s, capture: { token: { header: x } } }",
    ),
  );
  assert.deepEqual(e, ["16:44 `token` is captured twice"]);
});

Deno.test("a capture no template uses is a warning at its name, as an unused var is", () => {
  const text = CONTRACT.replace(
    "session: { header: set-cookie }",
    "session: { header: set-cookie }\n      spare: { json: /refresh_token }",
  );
  const { plan, issues } = parseText(text, { env: { API_PASSWORD: "pw" } });
  assert.ok(plan, "a warning, not an error");
  assert.deepEqual(
    issues.map((i) => `${i.severity} ${i.line}:${i.col} ${i.message}; ${i.hint}`),
    [
      "warning 12:7 capture `spare` is not used by any request or step; write `{{spare}}` in " +
      "a path, header or body, or remove it",
    ],
  );
  // Used by a request, a later step or the teardown: no warning (the contract uses both).
  assert.deepEqual(parseText(CONTRACT, { env: { API_PASSWORD: "pw" } }).issues, []);
});

Deno.test("a capture's JSON pointer without its leading slash is suggested as written", () => {
  const hintOf = (pointer: string) =>
    parseText(CONTRACT.replace("json: /access_token", `json: ${pointer}`)).issues
      .find((i) => i.message.includes("is not a JSON pointer"))?.hint;
  assert.equal(hintOf("accessToken"), "a JSON pointer starts with `/`: write `/accessToken`");
  assert.equal(
    hintOf(`"data.items[0].id"`),
    "a JSON pointer starts with `/`: write `/data/items/0/id`",
  );
  assert.equal(hintOf("data/token"), "a JSON pointer starts with `/`: write `/data/token`");
  assert.match(hintOf('"/x~2"')!, /`~0` is `~` and `~1` is `\/`/);
});
