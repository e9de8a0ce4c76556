import assert from "node:assert/strict";
import { h2Request } from "../../../../runner/engine/http2/mod.ts";
import { HpackDecoder } from "../../../../runner/engine/http2/hpack/mod.ts";
import { prepareRequest } from "../../../../runner/engine/http1/mod.ts";
import type { PlanRequest } from "../../../../runner/plan/types.ts";

const plain: PlanRequest = {
  label: "POST /orders",
  method: "POST",
  url: "https://api.example:8443/orders?page=2",
  headers: [
    { name: "X-Trace", value: "a", template: "a", secret: false },
    { name: "Accept", value: "text/plain", template: "text/plain", secret: false },
    { name: "x-trace", value: "b", template: "b", secret: false },
  ],
  body: { kind: "text", text: '{"id":7}' },
  weight: 1,
  timeoutMs: 5000,
  expect: { codes: [], classes: [2] },
};

Deno.test("a prepared HTTP/1.1 request reads back as HTTP/2 pseudo-headers, headers and body", () => {
  const prepared = prepareRequest(plain, 0);
  const r = h2Request(prepared.bytes, "https");
  assert.equal(r.headers[":method"], "POST");
  assert.equal(r.headers[":scheme"], "https");
  assert.equal(r.headers[":authority"], "api.example:8443");
  assert.equal(r.headers[":path"], "/orders?page=2");
  assert.deepEqual(r.headers["x-trace"], ["a", "b"], "repeated names keep every value, in order");
  assert.equal(r.headers["accept"], "text/plain");
  assert.equal(r.headers["content-length"], "8");
  assert.equal(new TextDecoder().decode(r.body), '{"id":7}');
  assert.ok(r.bytes > 8 && r.bytes < prepared.bytes.length, "header octets and body, before HPACK");
});

Deno.test("HTTP/2 never carries Host or the connection-specific headers; a GET has no body", () => {
  const bytes = new TextEncoder().encode(
    "GET / HTTP/1.1\r\nHost: h:1\r\nConnection: keep-alive\r\nTransfer-Encoding: x\r\n" +
      "Keep-Alive: 5\r\nUpgrade: h2c\r\nUser-Agent: t\r\n\r\n",
  );
  const r = h2Request(bytes, "http");
  assert.deepEqual(r.headers, {
    ":method": "GET",
    ":scheme": "http",
    ":authority": "h:1",
    ":path": "/",
    "user-agent": "t",
  });
  assert.equal(r.body, undefined);
});

Deno.test("bytes that are not a request head are a bug, thrown as a RangeError", () => {
  assert.throws(
    () => h2Request(new TextEncoder().encode("GET / HTTP/1.1\r\n"), "http"),
    RangeError,
  );
});

Deno.test("header octets go out as they are: a UTF-8 value decodes to the same bytes", () => {
  const utf8 = new TextEncoder().encode("café ☕");
  const head = new TextEncoder().encode("GET / HTTP/1.1\r\nHost: x\r\nX-Name: ");
  const bytes = new Uint8Array([...head, ...utf8, ...new TextEncoder().encode("\r\n\r\n")]);
  const r = h2Request(bytes, "https");
  const fields: Array<[string, string]> = [];
  new HpackDecoder().decode(r.block, (name, value) => fields.push([name, value]));
  const value = fields.find(([name]) => name === "x-name")![1];
  assert.deepEqual(Uint8Array.from(value, (c) => c.charCodeAt(0)), utf8);
  assert.deepEqual(fields.slice(0, 4).map(([name]) => name), [
    ":method",
    ":scheme",
    ":authority",
    ":path",
  ]);
});
