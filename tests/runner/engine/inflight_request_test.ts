import assert from "node:assert/strict";
import { InflightRequest } from "../../../runner/engine/inflight_request.ts";

Deno.test("the first read's time is the first byte's; later reads do not move it", async () => {
  const inflight = new InflightRequest();
  const outcome = inflight.begin();
  inflight.written(10, 100);
  inflight.arrived(12.5);
  inflight.arrived(15);
  inflight.retryAfterS = 7;
  inflight.settle(429, undefined, 212);
  const o = await outcome;
  assert.deepEqual([o.firstByteAtMs, o.completedAtMs, o.retryAfterS], [12.5, 212, 7]);
});

Deno.test("a request with no byte back has no first byte, and the next one starts afresh", async () => {
  const inflight = new InflightRequest();
  const first = inflight.begin();
  inflight.arrived(3);
  inflight.retryAfterS = 30;
  inflight.settle(503, undefined, 4);
  assert.equal((await first).firstByteAtMs, 3);
  const second = inflight.begin();
  inflight.written(5, 100);
  inflight.settle(0, "timeout", 9);
  const o = await second;
  assert.deepEqual([o.firstByteAtMs, o.retryAfterS], [undefined, undefined]);
});
