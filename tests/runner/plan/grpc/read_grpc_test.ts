import assert from "node:assert/strict";
import { errorLines, GREETER_PLAN, parseGrpc, routePlan } from "./_grpc_plan.ts";
import { notYetRun } from "../../../../runner/plan/mod.ts";

Deno.test("the issue's plan resolves to an HTTP/2 POST of the call, its message as JSON", async () => {
  const parse = await parseGrpc(GREETER_PLAN);
  assert.deepEqual(errorLines(parse), []);
  const plan = parse.plan!;
  assert.equal(plan.target, "grpc://127.0.0.1:50051");
  assert.equal(plan.load.http, "2");
  assert.deepEqual(plan.grpc!.files, ["helloworld.proto"]);
  assert.equal(plan.grpc!.tls, false);
  const [r] = plan.requests;
  assert.equal(r.label, "SayHello");
  assert.equal(r.method, "POST");
  assert.equal(r.url, "http://127.0.0.1:50051/helloworld.Greeter/SayHello");
  assert.equal(new URL(r.url).origin, "http://127.0.0.1:50051");
  assert.deepEqual(r.headers.map((h) => [h.name, h.value]), [
    ["content-type", "application/grpc"],
    ["te", "trailers"],
  ]);
  assert.deepEqual(r.body, { kind: "grpc", text: '{"name":"user-{{n}}"}' });
  assert.deepEqual(r.expect, { codes: [1000], classes: [] });
  assert.deepEqual(r.grpc, {
    service: "helloworld.Greeter",
    method: "SayHello",
    path: "/helloworld.Greeter/SayHello",
    requestType: "helloworld.HelloRequest",
    responseType: "helloworld.HelloReply",
    serverStreaming: false,
  });
  // The message draws a value per request: its body renders as JSON text, `n` unquoted inside.
  assert.deepEqual(r.template!.target, [{ kind: "text", text: "/helloworld.Greeter/SayHello" }]);
  assert.equal(r.template!.body![0].kind, "text");
  assert.equal(r.template!.body![1].kind, "ref");
});

Deno.test("a call is labelled Service/Method, metadata and deadline become headers", async () => {
  const parse = await parseGrpc(
    GREETER_PLAN.replace(
      "grpc: { proto: [helloworld.proto] }",
      "grpc: { proto: [helloworld.proto], deadline: 2s }",
    )
      .replace("- { name: SayHello, call", "- { deadline: 500ms, call")
      .replace("message: {", 'metadata: { x-tenant: "${env.TENANT}" }, message: {') +
      "defaults: { headers: { authorization: Bearer t } }\n",
    { TENANT: "acme" },
  );
  assert.deepEqual(errorLines(parse), []);
  const [r] = parse.plan!.requests;
  assert.equal(r.label, "Greeter/SayHello");
  assert.equal(r.grpc!.deadlineMs, 500);
  assert.deepEqual(r.headers.map((h) => [h.name, h.value, h.secret]), [
    ["authorization", "Bearer t", false],
    ["x-tenant", "acme", true],
    ["content-type", "application/grpc", false],
    ["te", "trailers", false],
    ["grpc-timeout", "500m", false],
  ]);
});

Deno.test("the plan's deadline is every call's, `pkg.Service.Method` names a call too", async () => {
  const parse = await parseGrpc(
    routePlan("{ call: routeguide.RouteGuide.GetFeature, message: { latitude: 1 } }")
      .replace("[route_guide.proto] }", "[route_guide.proto], deadline: 1s }"),
  );
  assert.deepEqual(errorLines(parse), []);
  const [r] = parse.plan!.requests;
  assert.equal(r.label, "RouteGuide/GetFeature");
  assert.equal(r.grpc!.deadlineMs, 1000);
  assert.ok(r.headers.some((h) => h.name === "grpc-timeout" && h.value === "1000m"));
  assert.equal(r.template, undefined);
});

Deno.test("expect takes gRPC status names and codes, stored past GRPC_STATUS_BASE", async () => {
  const parse = await parseGrpc(
    routePlan("{ call: routeguide.RouteGuide/GetFeature, expect: [OK, not_found, 14] }"),
  );
  assert.deepEqual(errorLines(parse), []);
  assert.deepEqual(parse.plan!.requests[0].expect, { codes: [1000, 1005, 1014], classes: [] });
  const wrong = await parseGrpc(
    routePlan("{ call: routeguide.RouteGuide/GetFeature, expect: [OK, UNAVAILABEL] }"),
  );
  assert.deepEqual(errorLines(wrong), [
    "5:60 `UNAVAILABEL` is not a gRPC status: `expect` on a call takes status names or codes " +
    "(did you mean `UNAVAILABLE`?)",
  ]);
  const http = await parseGrpc(
    routePlan("{ call: routeguide.RouteGuide/GetFeature, expect: 2xx }"),
  );
  assert.equal(errorLines(http).length, 1);
});

Deno.test("a server-streaming method is a call; client and bidi streaming are refused at `call`", async () => {
  const stream = await parseGrpc(routePlan("{ call: routeguide.RouteGuide/ListFeatures }"));
  assert.deepEqual(errorLines(stream), []);
  assert.equal(stream.plan!.requests[0].grpc!.serverStreaming, true);
  assert.equal(stream.plan!.requests[0].body?.kind, "grpc");
  const client = await parseGrpc(routePlan("{ call: routeguide.RouteGuide/RecordRoute }"));
  assert.deepEqual(errorLines(client), [
    "5:13 `routeguide.RouteGuide/RecordRoute` is a client streaming method, which this version " +
    "does not call (call a unary or server-streaming method; request streams may come later)",
  ]);
  const bidi = await parseGrpc(routePlan("{ call: routeguide.RouteGuide/RouteChat }"));
  assert.match(errorLines(bidi)[0], /^5:13 .*RouteChat` is a bidirectional streaming method/);
});

Deno.test("a method or service not in the .proto is located with a did-you-mean", async () => {
  const method = await parseGrpc(GREETER_PLAN.replace("Greeter/SayHello", "Greeter/SayHelo"));
  assert.deepEqual(errorLines(method), [
    "6:29 no method `SayHelo` in helloworld.Greeter (did you mean `helloworld.Greeter/SayHello`?)",
  ]);
  const service = await parseGrpc(GREETER_PLAN.replace("helloworld.Greeter", "helloworld.Greter"));
  assert.deepEqual(errorLines(service), [
    "6:29 no service `helloworld.Greter` in the plan's .proto files (did you mean " +
    "`helloworld.Greeter/SayHello`?)",
  ]);
  const form = await parseGrpc(GREETER_PLAN.replace("helloworld.Greeter/SayHello", "SayHello"));
  assert.match(
    errorLines(form)[0],
    /^6:29 `SayHello` is not a call \(write `package.Service\/Method`/,
  );
});

Deno.test("a gRPC plan refuses HTTP/1.1, HTTP requests, setup calls and header checks", async () => {
  const h1 = await parseGrpc(GREETER_PLAN.replace("connections: 8,", "connections: 8, http: 1.1,"));
  assert.deepEqual(errorLines(h1), [
    "7:31 gRPC runs over HTTP/2: this plan cannot send HTTP/1.1 (remove `http` (a gRPC plan " +
    "sends HTTP/2) or write `http: 2`)",
  ]);
  const mixed = await parseGrpc(GREETER_PLAN.replace("load:", "  - { path: /health }\nload:"));
  assert.match(errorLines(mixed)[0], /^7:13 this plan's target is gRPC: each request is a `call`/);
  const setup = await parseGrpc(
    GREETER_PLAN.replace("requests:", "setup: [{ call: helloworld.Greeter/SayHello }]\nrequests:"),
  );
  assert.match(errorLines(setup)[0], /^5:17 setup and teardown steps of a gRPC plan are not yet/);
  const check = await parseGrpc(
    routePlan(
      "{ call: routeguide.RouteGuide/GetFeature, check: { status: 200, json: { /name: exists } } }",
    ),
  );
  assert.match(
    errorLines(check)[0],
    /^5:56 a gRPC call's `check` takes `json`.*not `status` \(say/,
  );
});

Deno.test("call keys without a call, a call without a gRPC target or proto, are located", async () => {
  const http = await parseGrpc(
    "name: h\ntarget: http://127.0.0.1:8080\nrequests: [{ path: /, message: { a: 1 } }]\n" +
      "load: { stages: [{ rate: 1/s, duration: 1s }] }\n",
  );
  assert.deepEqual(errorLines(http), [
    "3:32 `message` goes with `call` (a gRPC call) (add the `call`, or remove it)",
  ]);
  const noTarget = await parseGrpc(GREETER_PLAN.replace("grpc://", "http://"));
  assert.deepEqual(errorLines(noTarget), [
    "3:7 `grpc` goes with a gRPC target (write the target as `grpc://host:port` (or `grpcs://` " +
    "for TLS))",
    "6:29 a gRPC call needs a `grpc://` or `grpcs://` target (write the plan's target as " +
    "`grpc://host:port` (or `grpcs://` for TLS))",
  ]);
  const noProto = await parseGrpc(
    GREETER_PLAN.replace("grpc: { proto: [helloworld.proto] }\n", ""),
  );
  assert.deepEqual(errorLines(noProto), [
    "2:9 a gRPC target needs the services' `.proto` files (add e.g. `grpc: { proto: " +
    "[protos/helloworld.proto] }`)",
  ]);
  const tls = await parseGrpc(GREETER_PLAN.replace("grpc://", "grpcs://"));
  assert.equal(tls.plan!.grpc!.tls, true);
  assert.equal(tls.plan!.requests[0].url, "https://127.0.0.1:50051/helloworld.Greeter/SayHello");
  assert.equal(tls.plan!.target, "grpcs://127.0.0.1:50051");
});

Deno.test("a gRPC plan is one this version runs: nothing refuses it before the run", async () => {
  const { plan } = await parseGrpc(GREETER_PLAN);
  assert.deepEqual(notYetRun(plan!), []);
});

Deno.test("a request's own grpc: its files join the plan's schema, its deadline is its calls'", async () => {
  const parse = await parseGrpc(
    GREETER_PLAN.replace(
      "grpc: { proto: [helloworld.proto] }",
      "grpc: { proto: [helloworld.proto], deadline: 2s }",
    )
      .replace(
        "load:",
        "  - { call: routeguide.RouteGuide/GetFeature, grpc: { proto: [route_guide.proto], deadline: 300ms } }\nload:",
      ),
  );
  assert.deepEqual(errorLines(parse), []);
  const plan = parse.plan!;
  assert.deepEqual(plan.grpc!.files, ["helloworld.proto", "route_guide.proto"]);
  assert.deepEqual(plan.requests.map((r) => [r.label, r.grpc!.deadlineMs]), [
    ["SayHello", 2000],
    ["RouteGuide/GetFeature", 300],
  ]);
  // Without a plan-level `grpc`, the requests' own make the schema.
  const own = await parseGrpc(
    routePlan("{ call: routeguide.RouteGuide/GetFeature, grpc: { proto: route_guide.proto } }")
      .replace("grpc: { proto: [route_guide.proto] }\n", ""),
  );
  assert.deepEqual(errorLines(own), []);
  assert.deepEqual(own.plan!.grpc!.files, ["route_guide.proto"]);
  const misplaced = await parseGrpc(
    "name: h\ntarget: http://127.0.0.1:8080\nrequests: [{ path: /, grpc: { proto: [a.proto] } }]\n" +
      "load: { stages: [{ rate: 1/s, duration: 1s }] }\n",
  );
  assert.deepEqual(errorLines(misplaced), [
    "3:29 `grpc` goes with `call` (a gRPC call) (add the `call`, or remove it)",
  ]);
  const missing = await parseGrpc(
    routePlan("{ call: routeguide.RouteGuide/GetFeature, grpc: { proto: [gone.proto] } }"),
  );
  assert.match(errorLines(missing)[0], /^5:63 proto file `gone\.proto` does not exist/);
});
