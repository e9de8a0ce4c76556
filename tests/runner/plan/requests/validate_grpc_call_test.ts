import assert from "node:assert/strict";
import { errorLines, GREETER_PLAN, parseGrpc } from "../grpc/_grpc_plan.ts";

/** The greeter plan with its one request replaced by `requests` (YAML lines under `requests:`). */
function withRequests(requests: string): string {
  return GREETER_PLAN.replace(
    /requests:\n.*\n/,
    `requests:\n${requests}`,
  );
}

Deno.test("a journey's steps may be calls, a capture of the reply's field feeding the next", async () => {
  const parse = await parseGrpc(withRequests(
    "  - journey: greet\n    steps:\n" +
      "      - { name: first, call: helloworld.Greeter/SayHello, message: { name: a }, " +
      "capture: { reply: { json: /message } }, check: { json: { /message: exists } } }\n" +
      '      - { name: second, call: helloworld.Greeter/SayHello, message: { name: "{{reply}}" } }\n',
  ));
  assert.deepEqual(errorLines(parse), []);
  const [journey] = parse.plan!.journeys!;
  assert.deepEqual(journey.steps.map((s) => s.label), ["greet / first", "greet / second"]);
  assert.deepEqual(journey.steps[0].captures, [
    { name: "reply", from: { kind: "json", pointer: "/message" } },
  ]);
  assert.equal(journey.steps[1].grpc!.path, "/helloworld.Greeter/SayHello");
  assert.deepEqual(journey.steps[1].template!.body, [
    { kind: "text", text: '{"name":' },
    { kind: "capture", name: "reply", encoding: "json_value" },
    { kind: "text", text: "}" },
  ]);
});

Deno.test("a call step's body regex capture and header check are refused, located", async () => {
  const parse = await parseGrpc(withRequests(
    "  - journey: greet\n    steps:\n" +
      "      - { name: first, call: helloworld.Greeter/SayHello, capture: { id: { regex: " +
      '"id=(\\\\d+)" } } }\n' +
      "      - { name: second, call: helloworld.Greeter/SayHello, check: { header: { a: b } } }\n",
  ));
  assert.deepEqual(errorLines(parse), [
    "8:76 a gRPC call's response body is protobuf: a `regex` capture cannot read it (capture a " +
    "field of the response message: `{ json: /pointer }`)",
    "9:69 a gRPC call's `check` takes `json` (fields of the response message), not `header` " +
    '(check a field of the response message: `check: { json: { /message: { matches: "^Hello" } } }`)',
  ]);
});

Deno.test("metadata gRPC sets itself, or a binary one not in base64, is refused at its name", async () => {
  const parse = await parseGrpc(withRequests(
    "  - call: helloworld.Greeter/SayHello\n" +
      "    metadata: { grpc-timeout: 1S, te: x, trace-bin: not base64! }\n",
  ));
  assert.deepEqual(errorLines(parse), [
    "7:17 `grpc-timeout` is set by gRPC itself (remove it: `deadline` sets `grpc-timeout`)",
    // A header that frames the request is refused as on any request.
    "7:35 `te` frames the request, which tailgate does itself (remove it: tailgate sends " +
    "`Content-Length` (the body's true length) and keeps its connections open)",
    "7:53 `trace-bin` is binary metadata: its value is base64 (encode the bytes as base64, e.g. `aGk=`)",
  ]);
  const both = await parseGrpc(withRequests(
    "  - { call: helloworld.Greeter/SayHello, metadata: { a: b }, headers: { c: d } }\n",
  ));
  assert.match(errorLines(both)[0], /`metadata` and `headers` say the same on a call: give one/);
});

Deno.test("a gRPC plan's defaults leave content-type, te and grpc-* to gRPC, located", async () => {
  const parse = await parseGrpc(
    GREETER_PLAN + "defaults: { headers: { Content-Type: application/json, x-a: b } }\n",
  );
  assert.deepEqual(errorLines(parse), [
    "9:24 `Content-Type` is set by gRPC itself (remove it from `defaults`: a call sends " +
    "`content-type: application/grpc` and `te: trailers`)",
  ]);
  const ok = await parseGrpc(GREETER_PLAN + "defaults: { headers: { x-a: b } }\n");
  assert.deepEqual(ok.plan!.requests[0].headers.map((h) => h.name), [
    "x-a",
    "content-type",
    "te",
  ]);
});

Deno.test("a fixed message is no template part beside drawn metadata: it is framed once", async () => {
  const parse = await parseGrpc(withRequests(
    '  - { call: helloworld.Greeter/SayHello, metadata: { x-n: "{{n}}" }, message: { name: a } }\n',
  ));
  assert.deepEqual(errorLines(parse), []);
  const [r] = parse.plan!.requests;
  assert.deepEqual(r.body, { kind: "grpc", text: '{"name":"a"}' });
  assert.equal(r.template!.body, undefined);
  assert.ok(r.template!.headers.some((h) => h.name === "x-n" && h.parts[0].kind === "ref"));
});
