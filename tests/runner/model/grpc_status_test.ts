import assert from "node:assert/strict";
import {
  GRPC_STATUS_BASE,
  GRPC_STATUS_NAMES,
  isGrpcStatus,
  statusKey,
  statusOfKey,
} from "../../../runner/model/grpc_status.ts";

Deno.test("every gRPC status code has its name, in the order of grpc's status codes", () => {
  assert.equal(GRPC_STATUS_NAMES.length, 17);
  assert.equal(GRPC_STATUS_NAMES[4], "DEADLINE_EXCEEDED");
  assert.equal(GRPC_STATUS_NAMES[14], "UNAVAILABLE");
  assert.equal(GRPC_STATUS_NAMES[16], "UNAUTHENTICATED");
});

Deno.test("a status's key and the key's status are inverses, for HTTP and gRPC alike", () => {
  const statuses = [200, 404, 503, 599, ...GRPC_STATUS_NAMES.map((_, c) => GRPC_STATUS_BASE + c)];
  for (const status of [...statuses, GRPC_STATUS_BASE + 17, GRPC_STATUS_BASE + 0x7fffffff]) {
    assert.equal(statusOfKey(statusKey(status)), status, `status ${status}`);
  }
});

Deno.test("an HTTP status is never read as a gRPC one, nor a key that names neither", () => {
  assert.equal(isGrpcStatus(999), false);
  assert.equal(isGrpcStatus(1000.5), false);
  assert.equal(isGrpcStatus(GRPC_STATUS_BASE + 0x80000000), false);
  assert.equal(statusKey(0), "0");
  assert.ok(Number.isNaN(statusOfKey("ok")));
  assert.ok(Number.isNaN(statusOfKey("GRPC_99999999999")));
  assert.ok(Number.isNaN(statusOfKey("")));
});
