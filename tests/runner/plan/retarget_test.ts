import assert from "node:assert/strict";
import { retarget } from "../../../runner/plan/retarget.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";

const plan = (target: string, path: string) =>
  parseText(`name: t
target: ${target}
vars: { n: counter }
requests:
  - { name: r, path: "${path}" }
load:
  stages: [{ rate: 10/s, duration: 1s }]
`).plan!;

Deno.test("retarget() keeps a plain request's path and query under the new base", () => {
  const p = parseText(`name: t
target: http://127.0.0.1:8080/api
requests: [{ path: /a?b=1 }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
`).plan!;
  assert.equal(
    retarget(p, "http://127.0.0.1:9000/v2/").requests[0].url,
    "http://127.0.0.1:9000/v2/a?b=1",
  );
});

Deno.test("retarget() keeps a templated URL as written and moves its request-target to the new base path", () => {
  const p = plan("http://127.0.0.1:8080/api", "/users/{{n}}?x=1");
  assert.deepEqual(p.requests[0].template!.target[0], { kind: "text", text: "/api/users/" });
  const moved = retarget(p, "http://127.0.0.1:9000/v2").requests[0];
  assert.equal(moved.url, "http://127.0.0.1:9000/v2/users/{{n}}?x=1");
  assert.deepEqual(moved.template!.target, [
    { kind: "text", text: "/v2/users/" },
    { kind: "ref", ref: { kind: "var", name: "n" }, encoding: "percent" },
    { kind: "text", text: "?x=1" },
  ]);
  const root = retarget(plan("http://127.0.0.1:8080", "/u/{{n}}"), "http://127.0.0.1:9000");
  assert.deepEqual(root.requests[0].template!.target[0], { kind: "text", text: "/u/" });
});

Deno.test("retarget() moves the setup and teardown steps sent to the requests' origin, not others", () => {
  const p = parseText(`name: t
target: http://127.0.0.1:8080/api
setup:
  - { path: /login, capture: { token: { json: /t } } }
  - { url: http://127.0.0.1:9999/auth/refresh }
requests: [{ path: /orders, headers: { Authorization: "Bearer {{token}}" } }]
teardown: [{ method: DELETE, path: "/sessions/{{token}}" }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
`).plan!;
  const moved = retarget(p, "http://127.0.0.1:9000/v2");
  assert.deepEqual(moved.setup!.map((s) => s.url), [
    "http://127.0.0.1:9000/v2/login",
    "http://127.0.0.1:9999/auth/refresh",
  ]);
  assert.equal(moved.teardown![0].url, "http://127.0.0.1:9000/v2/sessions/{{token}}");
  assert.deepEqual(moved.teardown![0].template!.target[0], { kind: "text", text: "/v2/sessions/" });
  assert.equal(moved.requests[0].template!.target[0].kind, "text");
});

Deno.test("retarget() moves a journey's steps too, templated or not, in a plan of journeys alone", () => {
  const p = parseText(`name: t
target: http://127.0.0.1:8080/api
vars: { n: counter }
requests:
  - journey: order
    weight: 1
    steps: [{ name: a, path: /a }, { name: b, path: "/b/{{n}}" }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
`).plan!;
  const [a, b] = retarget(p, "http://127.0.0.1:9000/v2").journeys![0].steps;
  assert.equal(a.url, "http://127.0.0.1:9000/v2/a");
  assert.deepEqual(b.template!.target[0], { kind: "text", text: "/v2/b/" });
});

Deno.test("retarget() moves a gRPC plan's calls to a grpc:// or grpcs:// base, TLS with grpcs", async () => {
  const { GREETER_PLAN, parseGrpc } = await import("./grpc/_grpc_plan.ts");
  const { plan: p } = await parseGrpc(GREETER_PLAN);
  const tls = retarget(p!, "grpcs://10.0.0.2:443/");
  assert.equal(tls.target, "grpcs://10.0.0.2:443");
  assert.equal(tls.requests[0].url, "https://10.0.0.2:443/helloworld.Greeter/SayHello");
  assert.equal(tls.grpc!.tls, true);
  assert.deepEqual(tls.requests[0].template!.target, p!.requests[0].template!.target);
  const plain = retarget(tls, "http://127.0.0.1:50052");
  assert.equal(plain.target, "grpc://127.0.0.1:50052");
  assert.equal(plain.requests[0].url, "http://127.0.0.1:50052/helloworld.Greeter/SayHello");
  assert.equal(plain.grpc!.tls, false);
  assert.equal(p!.grpc!.tls, false, "the plan given is not changed");
});
