import assert from "node:assert/strict";
import { checkGrpcTarget, HEALTH_CHECK_PATH } from "../../../../runner/engine/grpc/mod.ts";
import { grpcServer } from "../../../_helpers/grpc_server.ts";
import { h2cServer } from "../../../_helpers/http2_servers.ts";

Deno.test("a gRPC server passes by any grpc-status to one health call, the method untouched", async () => {
  await using server = await grpcServer({
    answer: (call) => call.path === HEALTH_CHECK_PATH ? { status: 12, trailersOnly: true } : {},
  });
  assert.equal(
    await checkGrpcTarget(new URL(`${server.origin}/helloworld.Greeter/SayHello`)),
    undefined,
  );
  assert.deepEqual(server.paths(), { [HEALTH_CHECK_PATH]: 1 });
});

Deno.test("a plain HTTP/2 server is named as not gRPC, with its status and the fix", async () => {
  await using server = await h2cServer(); // answers 200 "ok", no grpc-status
  const problem = await checkGrpcTarget(new URL(server.url));
  assert.match(problem!, /answers HTTP\/2 but not gRPC \(HTTP 200 without grpc-status/);
  assert.match(problem!, /point the target at the gRPC server's port/);
});

Deno.test("an HTTP/2 server's 404 to the health call, without grpc-status, is not gRPC", async () => {
  await using server = await grpcServer({ answer: () => ({ httpStatus: 404 }) });
  const problem = await checkGrpcTarget(new URL(server.origin));
  assert.match(problem!, /not gRPC \(HTTP 404 without grpc-status to a \/grpc.health.v1/);
});

Deno.test("a gRPC server that never answers the health call is told within the timeout", async () => {
  await using server = await grpcServer({ answer: () => ({ delayMs: 5_000 }) });
  const problem = await checkGrpcTarget(new URL(server.origin), [], 200);
  assert.match(problem!, /did not answer a gRPC health check .* within 200 ms/);
});

Deno.test("a gRPC server over TLS passes with its certificate trusted; untrusted, it is told", async () => {
  const { H2_CERT } = await import("../../../_helpers/http2_servers.ts");
  await using server = await grpcServer({ tls: true });
  assert.equal(await checkGrpcTarget(new URL(server.origin), [H2_CERT]), undefined);
  const untrusted = await checkGrpcTarget(new URL(server.origin), []);
  assert.match(untrusted!, /the connection for a gRPC health check failed/);
});
