import assert from "node:assert/strict";
import { GrpcStreamSlot } from "../../../../runner/engine/grpc/mod.ts";
import { H2Pool } from "../../../../runner/engine/http2/mod.ts";
import { PERFORMANCE_CLOCK } from "../../../../runner/engine/types.ts";
import type { ResponseOutcome } from "../../../../runner/engine/types.ts";
import { GRPC_STATUS_BASE } from "../../../../runner/model/mod.ts";
import {
  type GrpcAnswer,
  grpcRequest,
  grpcServer,
  type GrpcServerOptions,
} from "../../../_helpers/grpc_server.ts";

/** The outcomes of `count` calls, one after another on one gRPC stream slot. */
async function calls(
  options: GrpcServerOptions,
  count = 1,
  keepBodyBytes = 0,
): Promise<ResponseOutcome[]> {
  await using server = await grpcServer(options);
  const request = grpcRequest(server.origin, { keepBodyBytes });
  const pool = new H2Pool({
    origin: new URL(server.origin),
    clock: PERFORMANCE_CLOCK,
    connections: 1,
    requests: [request],
    slot: (o) => new GrpcStreamSlot(o),
  });
  await pool.settle(2_000);
  const slot = pool.slot();
  const outcomes: ResponseOutcome[] = [];
  for (let i = 0; i < count; i++) outcomes.push(await slot.send(request));
  slot.close();
  assert.equal(server.calls(), count);
  return outcomes;
}

const one = async (answer: GrpcAnswer) => (await calls({ answer: () => answer }))[0];

Deno.test("an OK unary reply settles as status 1000, one message, no error", async () => {
  const outcomes = await calls({}, 3);
  for (const o of outcomes) {
    assert.deepEqual([o.status, o.error, o.messages], [GRPC_STATUS_BASE, undefined, 1]);
    assert.ok(o.firstByteAtMs! >= o.writtenAtMs && o.firstByteAtMs! <= o.completedAtMs);
    assert.ok(o.bytesReceived > 12); // head, one 12-octet message, trailers
  }
});

Deno.test("a grpc-status n is status 1000 + n, with no error kind (the recorder judges it)", async () => {
  const unavailable = await one({ status: 14, message: "down" });
  assert.deepEqual([unavailable.status, unavailable.error], [1014, undefined]);
  const deadline = await one({ status: 4, trailersOnly: true });
  assert.deepEqual([deadline.status, deadline.error, deadline.messages], [1004, undefined, 0]);
  assert.equal(deadline.firstByteAtMs, undefined); // no message came
});

Deno.test("an HTTP status other than 200 without grpc-status stands as that HTTP status", async () => {
  const o = await one({ httpStatus: 503 });
  assert.deepEqual([o.status, o.error], [503, undefined]);
});

Deno.test("a 200 without grpc-status, or with broken framing, is a protocol error", async () => {
  const answers: GrpcAnswer[] = [
    { httpStatus: 200 },
    { broken: "compressed" },
    { broken: "oversize" },
    { broken: "truncated" },
  ];
  for (const answer of answers) {
    const o = await one(answer);
    assert.deepEqual([o.status, o.error], [0, "protocol"], JSON.stringify(answer));
  }
});

Deno.test("a server stream's messages are counted; its first byte is its first message", async () => {
  const [o] = await calls({ answer: () => ({ messages: 3 }) });
  assert.deepEqual([o.status, o.messages], [GRPC_STATUS_BASE, 3]);
  assert.ok(o.firstByteAtMs !== undefined);
});

Deno.test("the first message's time is after the server's delay, not at the response's head", async () => {
  // The head at once would be the HTTP/2 first byte; here the head and message come together.
  const [o] = await calls({ answer: () => ({ delayMs: 150 }) });
  assert.ok(o.firstByteAtMs! - o.writtenAtMs >= 140, `${o.firstByteAtMs! - o.writtenAtMs} ms`);
});

Deno.test("a call that keeps its response keeps its first message without the prefix", async () => {
  const [o] = await calls({}, 1, 1024);
  assert.deepEqual([...o.body!], [0x0a, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]);
  assert.deepEqual(o.headers!.header("content-type"), ["application/grpc"]);
});

Deno.test("a call past its timeout is given up as the dispatcher asks, the stream reset", async () => {
  await using server = await grpcServer({ answer: () => ({ delayMs: 2_000 }) });
  const request = grpcRequest(server.origin);
  const pool = new H2Pool({
    origin: new URL(server.origin),
    clock: PERFORMANCE_CLOCK,
    connections: 1,
    requests: [request],
    slot: (o) => new GrpcStreamSlot(o),
  });
  await pool.settle(2_000);
  const slot = pool.slot();
  const pending = slot.send(request);
  await new Promise((resolve) => setTimeout(resolve, 50));
  slot.abort("timeout");
  const o = await pending;
  slot.close();
  assert.deepEqual([o.status, o.error], [0, "timeout"]);
});

Deno.test("an unexpected status's first answer is sampled: grpc-message, or an HTTP body", async () => {
  const { BodySampler } = await import("../../../../runner/engine/body_sample.ts");
  const answers: GrpcAnswer[] = [
    {},
    { status: 14, message: "no such user: ü" },
    { status: 14, message: "a second one" },
    { httpStatus: 503 },
  ];
  await using server = await grpcServer({ answer: (call) => answers[call.n] });
  const request = grpcRequest(server.origin);
  const bodySampler = new BodySampler();
  const pool = new H2Pool({
    origin: new URL(server.origin),
    clock: PERFORMANCE_CLOCK,
    connections: 1,
    requests: [request],
    bodySampler,
    slot: (o) => new GrpcStreamSlot(o),
  });
  await pool.settle(2_000);
  const slot = pool.slot();
  for (let i = 0; i < answers.length; i++) await slot.send(request);
  slot.close();
  const samples = bodySampler.samples(0).map((s) => [s.status, new TextDecoder().decode(s.bytes)]);
  assert.deepEqual(samples, [[1014, "no such user: ü"], [503, "not gRPC"]]);
});

Deno.test("over TLS (ALPN h2), calls settle as over h2c, the test certificate trusted", async () => {
  const { H2_CERT } = await import("../../../_helpers/http2_servers.ts");
  await using server = await grpcServer({
    tls: true,
    answer: (call) => call.n === 1 ? { status: 5, trailersOnly: true } : {},
  });
  const request = grpcRequest(server.origin);
  const pool = new H2Pool({
    origin: new URL(server.origin),
    clock: PERFORMANCE_CLOCK,
    connections: 1,
    caCerts: [H2_CERT],
    requests: [request],
    slot: (o) => new GrpcStreamSlot(o),
  });
  await pool.settle(2_000);
  const slot = pool.slot();
  const got = [await slot.send(request), await slot.send(request)];
  slot.close();
  assert.deepEqual(got.map((o) => [o.status, o.error, o.messages]), [
    [1000, undefined, 1],
    [1005, undefined, 0],
  ]);
});
