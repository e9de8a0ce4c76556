/**
 * The gRPC stream slot against a server nobody here wrote: grpc-go's example greeter_server
 * (built by .ci/install-tools; skipped, with a note, where it is not).
 */
import assert from "node:assert/strict";
import { checkGrpcTarget, GrpcStreamSlot } from "../../../../runner/engine/grpc/mod.ts";
import { H2Pool } from "../../../../runner/engine/http2/mod.ts";
import { PERFORMANCE_CLOCK, type PreparedRequest } from "../../../../runner/engine/types.ts";
import type { ResponseOutcome } from "../../../../runner/engine/types.ts";
import { freePort } from "../../../_helpers/free_port.ts";
import { GRPC_BIN, grpcExample, grpcRequest, startExample } from "../../../_helpers/grpc_server.ts";

const GREETER = grpcExample("greeter_server");
if (GREETER === undefined) {
  console.warn(`greeter_interop_test: skipped, no greeter_server in ${GRPC_BIN}`);
}

/** Each request's outcome, sent in turn on one gRPC stream slot. */
async function outcomes(origin: string, requests: PreparedRequest[]): Promise<ResponseOutcome[]> {
  const pool = new H2Pool({
    origin: new URL(origin),
    clock: PERFORMANCE_CLOCK,
    connections: 1,
    requests,
    slot: (o) => new GrpcStreamSlot(o),
  });
  await pool.settle(2_000);
  const slot = pool.slot();
  const out: ResponseOutcome[] = [];
  for (const r of requests) out.push(await slot.send(r));
  slot.close();
  return out;
}

Deno.test({
  name: "grpc-go's greeter answers SayHello OK, each call logged; others by their grpc-status",
  ignore: GREETER === undefined,
  fn: async () => {
    await using greeter = await startExample(GREETER!, freePort());
    const origin = greeter.origin;
    const hello = grpcRequest(origin, { keepBodyBytes: 1024 });
    const got = await outcomes(origin, [
      hello,
      hello,
      hello,
      grpcRequest(origin, { path: "/helloworld.Greeter/SayHelo" }),
      grpcRequest(origin, { path: "/grpc.health.v1.Health/Check" }),
      // A deadline of 1 ns has passed when the server reads the call.
      grpcRequest(origin, { headers: ["grpc-timeout: 1n"] }),
    ]);
    assert.deepEqual(got.map((o) => [o.status, o.error, o.messages]), [
      [1000, undefined, 1],
      [1000, undefined, 1],
      [1000, undefined, 1],
      [1012, undefined, 0], // UNIMPLEMENTED: an unknown method
      [1012, undefined, 0], // UNIMPLEMENTED: no health service
      [1004, undefined, 0], // DEADLINE_EXCEEDED
    ]);
    // HelloReply{message: "Hello user-1"}: field 1, 12 octets.
    assert.equal(new TextDecoder().decode(got[0].body!.subarray(2)), "Hello user-1");
    await new Promise((resolve) => setTimeout(resolve, 100)); // its log lines written
    assert.equal(greeter.log().match(/Received: user-1/g)?.length, 3);
  },
});

Deno.test({
  name: "the gRPC preflight passes grpc-go's greeter (UNIMPLEMENTED health) and never calls it",
  ignore: GREETER === undefined,
  fn: async () => {
    await using greeter = await startExample(GREETER!, freePort());
    const url = new URL(`${greeter.origin}/helloworld.Greeter/SayHello`);
    assert.equal(await checkGrpcTarget(url), undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.doesNotMatch(greeter.log(), /Received/);
  },
});
