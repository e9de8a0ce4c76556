import assert from "node:assert/strict";
import { protocolRecord } from "../../../runner/result/protocol_record.ts";
import { retarget } from "../../../runner/plan/retarget.ts";
import { MINIMAL_PLAN, parseText } from "../../_helpers/plan_fixtures.ts";

const origin = (url: string) => [{ url }];

Deno.test("protocolRecord(): HTTP/1.1 unless the load asks for 2, whatever the scheme", () => {
  for (const url of ["http://a:1/", "https://a/"]) {
    assert.deepEqual(protocolRecord({ load: {}, requests: origin(url) }), { protocol: "http/1.1" });
    assert.deepEqual(
      protocolRecord({ load: { http: "1.1" }, requests: origin(url) }),
      { protocol: "http/1.1" },
    );
  }
});

Deno.test("protocolRecord(): http 2 is h2 to an https origin, h2c to an http one, with the streams asked for", () => {
  assert.deepEqual(
    protocolRecord({ load: { http: "2" }, requests: origin("https://api.example/x") }),
    { protocol: "h2" },
  );
  assert.deepEqual(
    protocolRecord({ load: { http: "2", maxStreams: 8 }, requests: origin("HTTP://a:1/{{id}}") }),
    { protocol: "h2c", maxStreams: 8 },
  );
});

Deno.test("protocolRecord() follows --target: the retargeted scheme decides h2 or h2c", () => {
  const { plan } = parseText(MINIMAL_PLAN.replace("load:\n", "load:\n  http: 2\n"));
  assert.deepEqual(protocolRecord(plan!), { protocol: "h2c" });
  assert.deepEqual(protocolRecord(retarget(plan!, "https://api.example:8443")), { protocol: "h2" });
});

Deno.test("protocolRecord(): a plan of gRPC calls is marked grpc beside its h2 or h2c", () => {
  const grpc = { files: ["helloworld.proto"], descriptor: {}, tls: false };
  assert.deepEqual(
    protocolRecord({ load: { http: "2" }, grpc, requests: origin("http://127.0.0.1:50051/a.B/C") }),
    { protocol: "h2c", grpc: true },
  );
  assert.deepEqual(
    protocolRecord({
      load: { http: "2", maxStreams: 4 },
      grpc: { ...grpc, tls: true },
      requests: origin("https://api.example/a.B/C"),
    }),
    { protocol: "h2", grpc: true, maxStreams: 4 },
  );
  assert.equal(
    "grpc" in protocolRecord({ load: { http: "2" }, requests: origin("http://a:1/") }),
    false,
    "an HTTP/2 plan's record is as before",
  );
});
