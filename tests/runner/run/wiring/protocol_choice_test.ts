import assert from "node:assert/strict";
import { protocolOf, PROTOCOLS } from "../../../../runner/run/wiring/protocol_choice.ts";
import { http1Protocol } from "../../../../runner/run/wiring/http1_protocol.ts";
import { http2Protocol } from "../../../../runner/run/wiring/http2_protocol.ts";
import { grpcProtocol } from "../../../../runner/run/wiring/grpc_protocol.ts";
import type { ResolvedPlan } from "../../../../runner/plan/types.ts";

const planOf = (http?: "1.1" | "2") => ({ load: http ? { http } : {} }) as unknown as ResolvedPlan;

Deno.test("protocolOf() takes the plan's load.http, HTTP/1.1 when absent", () => {
  assert.equal(protocolOf(planOf(), false), http1Protocol);
  assert.equal(protocolOf(planOf("1.1"), false), http1Protocol);
  assert.equal(protocolOf(planOf("2"), false), http2Protocol);
  assert.deepEqual(Object.keys(PROTOCOLS).sort(), ["1.1", "2", "grpc"]);
});

Deno.test("protocolOf() takes gRPC for a plan with grpc (its load.http resolved to 2)", () => {
  const plan = { ...planOf("2"), grpc: { files: [], descriptor: {}, tls: false } } as ResolvedPlan;
  assert.equal(protocolOf(plan, false), grpcProtocol);
  assert.equal(protocolOf(plan, true), http1Protocol);
});

Deno.test("protocolOf() drives a test's own connections as HTTP/1.1's, whatever the plan says", () => {
  assert.equal(protocolOf(planOf("2"), true), http1Protocol);
});
