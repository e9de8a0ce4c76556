/**
 * A hand-built gRPC plan, as the plan layer resolves a `call:` of grpc-go's greeter: POST to
 * `/helloworld.Greeter/SayHello` with `content-type: application/grpc`, a `grpc` body (the
 * message's JSON text; the run frames it with the codec of `plan.grpc`), `expect` OK (1000), `grpc` set on
 * the request and the plan, `load.http` 2.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { ResolvedPlan } from "../../runner/plan/types.ts";
import { parseText } from "./plan_fixtures.ts";
import { SAY_HELLO } from "./grpc_server.ts";

/**
 * The greeter plan against `origin` (`http://127.0.0.1:PORT`), its `load` given as YAML flow
 * text (`{ connections: 2, stages: [{ rate: 100/s, duration: 1s }] }`).
 */
export function greeterPlan(origin: string, load: string): ResolvedPlan {
  const { plan, issues } = parseText(`name: greeter
target: ${origin}
requests:
  - method: POST
    path: ${SAY_HELLO}
    headers: { content-type: application/grpc }
load: ${load}
`);
  assert.ok(plan, JSON.stringify(issues));
  const request = plan.requests[0];
  request.body = { kind: "grpc", text: '{"name":"user-1"}' };
  request.expect = { codes: [1000], classes: [] };
  request.grpc = {
    service: "helloworld.Greeter",
    method: "SayHello",
    path: SAY_HELLO,
    requestType: "helloworld.HelloRequest",
    responseType: "helloworld.HelloReply",
    serverStreaming: false,
  };
  plan.grpc = { files: ["helloworld.proto"], descriptor: HELLOWORLD_DESCRIPTOR, tls: false };
  plan.load.http = "2";
  return plan;
}

/**
 * helloworld.proto (grpc-go's examples) as the plan layer's schema holds it: protobufjs's JSON form
 * of its two messages and its service.
 */
export const HELLOWORLD_DESCRIPTOR = {
  nested: {
    helloworld: {
      nested: {
        Greeter: {
          methods: { SayHello: { requestType: "HelloRequest", responseType: "HelloReply" } },
        },
        HelloRequest: { fields: { name: { type: "string", id: 1 } } },
        HelloReply: { fields: { message: { type: "string", id: 1 } } },
      },
    },
  },
};
