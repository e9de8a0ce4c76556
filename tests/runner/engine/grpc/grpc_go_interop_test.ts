/**
 * The gRPC stream slot against servers nobody here wrote: grpc-go's example greeter_server and
 * route_guide_server (a server stream), built by .ci/install-tools; skipped, with a note, where
 * they are not.
 */
import assert from "node:assert/strict";
import { checkGrpcTarget, GrpcStreamSlot } from "../../../../runner/engine/grpc/mod.ts";
import { H2Pool } from "../../../../runner/engine/http2/mod.ts";
import { PERFORMANCE_CLOCK, type PreparedRequest } from "../../../../runner/engine/types.ts";
import type { ResponseOutcome } from "../../../../runner/engine/types.ts";
import { freePort } from "../../../_helpers/free_port.ts";
import { GRPC_BIN, grpcExample, grpcRequest, startExample } from "../../../_helpers/grpc_server.ts";

const GREETER = grpcExample("greeter_server");
const ROUTE_GUIDE = grpcExample("route_guide_server");
if (GREETER === undefined || ROUTE_GUIDE === undefined) {
  console.warn(
    `grpc_go_interop_test: skipped, no greeter_server or route_guide_server in ${GRPC_BIN}`,
  );
}

/** A protobuf varint (an int32 field's: a negative one as its 64-bit two's complement). */
function varint(n: number): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? low | 0x80 : low);
  } while (v > 0n);
  return out;
}

/** routeguide.Point{latitude, longitude} as protobuf. */
const point = (latitude: number, longitude: number) => [
  0x08,
  ...varint(latitude),
  0x10,
  ...varint(longitude),
];

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

Deno.test({
  name: "grpc-go's route_guide streams ListFeatures: its 100 features counted as 100 messages",
  ignore: ROUTE_GUIDE === undefined,
  fn: async () => {
    await using guide = await startExample(ROUTE_GUIDE!, freePort());
    // The example client's rectangle: lo (40°, -75°), hi (42°, -73°), in E7 degrees.
    const lo = point(400_000_000, -750_000_000);
    const hi = point(420_000_000, -730_000_000);
    const rectangle = Uint8Array.of(0x0a, lo.length, ...lo, 0x12, hi.length, ...hi);
    const list = grpcRequest(guide.origin, {
      path: "/routeguide.RouteGuide/ListFeatures",
      message: rectangle,
    });
    const got = await outcomes(guide.origin, [list, list]);
    assert.deepEqual(got.map((o) => [o.status, o.error]), [[1000, undefined], [1000, undefined]]);
    // Its built-in data (testdata/route_guide_db.json): 100 features, all in that rectangle.
    assert.deepEqual(got.map((o) => o.messages), [100, 100]);
    assert.ok(got[0].firstByteAtMs! <= got[0].completedAtMs);
  },
});
