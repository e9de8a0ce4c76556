import assert from "node:assert/strict";
import { join } from "node:path";
import { problemText } from "../../../../runner/model/result.ts";
import { adHocGrpcPlanText } from "../../../../runner/cli/args/adhoc_grpc_plan.ts";
import { parseRunArgs } from "../../../../runner/cli/run_args.ts";
import { loadGrpcSupport, parsePlanText } from "../../../../runner/plan/mod.ts";

Deno.test("adHocGrpcPlanText(): a grpc:// URL with --proto and -d becomes a plan of one call", async () => {
  const made = adHocGrpcPlanText({
    url: "grpc://127.0.0.1:50051/helloworld.Greeter/SayHello",
    rate: "2k/s",
    proto: ["helloworld.proto"],
    message: '{"name": "a\u2028b"}',
    headers: ["x-tenant: acme"],
    slos: [],
  });
  assert.ok(made.ok);
  assert.equal(
    made.value.text,
    `# tailgate run grpc://127.0.0.1:50051/helloworld.Greeter/SayHello --rate 2k/s -H 'x-tenant: acme' --proto helloworld.proto -d $'{"name": "a\\u2028b"}'
name: "ad-hoc helloworld.Greeter/SayHello"
target: "grpc://127.0.0.1:50051"
grpc:
  proto:
    - "helloworld.proto"
requests:
  - call: "helloworld.Greeter/SayHello"
    message: {"name":"a\\u2028b"}
    metadata:
      "x-tenant": "acme"
load:
  stages:
    - name: steady
      rate: 2k/s
      duration: 10s # no --duration: 10s
`,
  );
  await loadGrpcSupport();
  const testdata = new URL("../../../testdata/grpc/", import.meta.url).pathname;
  const { plan, issues } = parsePlanText(made.value.text, { file: join(testdata, "x.yaml") });
  assert.deepEqual(issues.filter((i) => i.severity === "error"), []);
  assert.equal(plan!.requests[0].label, "Greeter/SayHello");
  assert.deepEqual(plan!.requests[0].body, { kind: "grpc", text: '{"name":"a\u2028b"}' });
  // ghz's `pkg.Service.Method` reads as the same call.
  const dotted = adHocGrpcPlanText({
    url: "grpcs://h:1/helloworld.Greeter.SayHello",
    rate: "1/s",
    duration: "1s",
    proto: ["p.proto"],
    slos: [],
    headers: [],
  });
  assert.ok(dotted.ok);
  assert.match(
    dotted.value.text,
    /target: "grpcs:\/\/h:1"\n[^]*call: "helloworld\.Greeter\/SayHello"/,
  );
  assert.match(dotted.value.text, /duration: 1s\n/);
});

Deno.test("adHocGrpcPlanText(): a gRPC call's flags are checked: proto, message, HTTP-only flags", () => {
  const bad = adHocGrpcPlanText({
    url: "grpc://127.0.0.1:50051/Greeter",
    slos: [],
    headers: [],
    method: "POST",
    message: "[1]",
    http2: true,
  });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.problems.map(problemText), [
    "`grpc://127.0.0.1:50051/Greeter` is not a gRPC call's URL: write " +
    "grpc://HOST:PORT/package.Service/Method, e.g. grpc://127.0.0.1:50051/helloworld.Greeter/SayHello",
    "an ad-hoc run needs --rate, e.g. --rate 1k/s",
    "a gRPC call needs its .proto file: --proto FILE, e.g. --proto helloworld.proto",
    `--method is for an HTTP URL; a gRPC call's message is -d '{"field": value}'`,
    "--http2 is for an HTTP URL; a gRPC call is always HTTP/2",
    `-d '[1]': give the message as a JSON object, e.g. -d '{"name":"a"}'`,
  ]);
});

Deno.test("parseRunArgs(): a grpc:// URL is an ad-hoc call; --proto and -d need one", async () => {
  await loadGrpcSupport();
  const dir = new URL("../../../testdata/grpc/", import.meta.url).pathname;
  const cwd = Deno.cwd();
  Deno.chdir(dir);
  try {
    const ok = parseRunArgs([
      "grpc://127.0.0.1:50051/helloworld.Greeter/SayHello",
      "--proto",
      "helloworld.proto",
      "-d",
      '{"name":"a"}',
      "--rate",
      "2k/s",
    ]);
    assert.ok(ok.ok, ok.ok ? "" : ok.problems.map(problemText).join("\n"));
    assert.match(ok.value.adHocPlan!.text, /message: \{"name":"a"\}/);
    const field = parseRunArgs([
      "grpc://127.0.0.1:50051/helloworld.Greeter/SayHello",
      "--proto",
      "helloworld.proto",
      "-d",
      '{"nam":"a"}',
      "--rate",
      "2k/s",
    ]);
    assert.ok(!field.ok);
    assert.match(
      problemText(field.problems[0]),
      /-d '\{"nam":"a"\}': helloworld\.HelloRequest has no field `nam`/,
    );
    const http = parseRunArgs([
      "http://127.0.0.1:8080/",
      "--proto",
      "x.proto",
      "--rate",
      "1/s",
      "--duration",
      "1s",
    ]);
    assert.ok(!http.ok);
    assert.match(
      problemText(http.problems[0]),
      /^--proto describe a gRPC call: give a grpc:\/\/ URL/,
    );
  } finally {
    Deno.chdir(cwd);
  }
});
