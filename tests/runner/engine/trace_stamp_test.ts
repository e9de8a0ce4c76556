import assert from "node:assert/strict";
import { TraceStamp } from "../../../runner/engine/trace_stamp.ts";
import { prepareRequest } from "../../../runner/engine/http1/mod.ts";
import { H2RequestEncoder } from "../../../runner/engine/http2/mod.ts";
import { HpackDecoder } from "../../../runner/engine/http2/hpack/mod.ts";
import { traceIdHex } from "../../../runner/schedule/mod.ts";
import type { PlanRequest } from "../../../runner/plan/mod.ts";

const decoder = new TextDecoder();
const header = (name: string, value: string) => ({ name, value, template: value, secret: false });
const REQUEST: PlanRequest = {
  label: "POST /orders",
  method: "POST",
  url: "http://127.0.0.1:8080/orders",
  headers: [header("traceparent", "plan's own"), header("X-Id", "7")],
  body: { kind: "text", text: "{}" },
  weight: 1,
  timeoutMs: 1000,
  expect: { codes: [], classes: [2] },
};

function headerOf(bytes: Uint8Array, name: string): string[] {
  return decoder.decode(bytes).split("\r\n").filter((l) => l.startsWith(`${name}: `))
    .map((l) => l.slice(name.length + 2));
}

Deno.test("a traced request carries tailgate's traceparent and tracestate, not the plan's", () => {
  const prepared = prepareRequest(REQUEST, 0, undefined, { tracestate: "acme=1" });
  assert.deepEqual(headerOf(prepared.bytes, "tracestate"), ["acme=1"]);
  const stamped = new TraceStamp(9).stamp(prepared, true, 41, 0);
  const [value] = headerOf(stamped.bytes, "traceparent");
  assert.equal(headerOf(stamped.bytes, "traceparent").length, 1);
  assert.match(value, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  assert.equal(value.slice(3, 35), traceIdHex(9, 41, 0));
  assert.ok(decoder.decode(stamped.bytes).endsWith("Content-Length: 2\r\n\r\n{}"));
  assert.equal(
    decoder.decode(prepared.bytes).replace(/00-0{32}-0{16}-01/, value),
    decoder.decode(stamped.bytes),
    "the copy differs from the fixed request only in the ids",
  );
});

Deno.test("an untraced request carries the plan's traceparent as it is", () => {
  const prepared = prepareRequest(REQUEST, 0);
  assert.deepEqual(headerOf(prepared.bytes, "traceparent"), ["plan's own"]);
  assert.equal(new TraceStamp(1).stamp(prepared, true, 1, 0), prepared);
});

Deno.test("sends in flight at once get copies of their own; a failed one's is not reused", () => {
  const prepared = prepareRequest(REQUEST, 0, undefined, {});
  const stamp = new TraceStamp(3);
  const a = stamp.stamp(prepared, true, 1, 0);
  const b = stamp.stamp(prepared, true, 2, 0);
  assert.notEqual(a.bytes, b.bytes);
  assert.notEqual(headerOf(a.bytes, "traceparent")[0], headerOf(b.bytes, "traceparent")[0]);
  stamp.release(a, true);
  stamp.release(b, false);
  assert.equal(stamp.stamp(prepared, true, 3, 0), b);
  assert.notEqual(stamp.stamp(prepared, true, 4, 0), a);
  assert.equal(stamp.copies, 3);
});

Deno.test("a rendered request is patched in place: it owns its buffer", () => {
  const prepared = prepareRequest(REQUEST, 0, undefined, {});
  const own = { ...prepared, bytes: prepared.bytes.slice() };
  const stamp = new TraceStamp(3);
  assert.equal(stamp.stamp(own, false, 5, 2), own);
  assert.equal(headerOf(own.bytes, "traceparent")[0].slice(3, 35), traceIdHex(3, 5, 2));
  assert.equal(stamp.copies, 0);
});

Deno.test("HTTP/2 sends traceparent as a raw literal whose octets a send patches in place", () => {
  const prepared = prepareRequest(REQUEST, 0, undefined, {});
  const h2 = new H2RequestEncoder("http").encode(prepared.bytes);
  assert.ok(h2.traceAt > 0);
  const stamped = new TraceStamp(5).stamp(prepared, true, 77, 0);
  const at = stamped.traceAt!;
  h2.block.set(stamped.bytes.subarray(at, at + 55), h2.traceAt);
  const fields = new Map<string, string>();
  new HpackDecoder().decode(h2.block, (name, value) => fields.set(name, value));
  assert.equal(fields.get("traceparent")!.slice(3, 35), traceIdHex(5, 77, 0));
  assert.equal(fields.get("x-id"), "7");
});
