import assert from "node:assert/strict";
import {
  prepareRequest,
  PrepareRequestError,
} from "../../../../runner/engine/http1/http1_request.ts";
import type { PlanHeader, PlanRequest } from "../../../../runner/plan/types.ts";
import { TAILGATE_VERSION } from "../../../../runner/version.ts";

const decoder = new TextDecoder();

function planRequest(overrides: Partial<PlanRequest> = {}): PlanRequest {
  return {
    label: "GET /",
    method: "GET",
    url: "http://127.0.0.1:8080/",
    headers: [],
    weight: 1,
    timeoutMs: 2_000,
    expect: { codes: [], classes: [2] },
    ...overrides,
  };
}

function header(name: string, value: string): PlanHeader {
  return { name, value, template: value === "s3cret" ? "${env.TOKEN}" : value, secret: false };
}

/** The request's head lines and its body. */
function wire(bytes: Uint8Array): { lines: string[]; body: Uint8Array } {
  const text = decoder.decode(bytes);
  const end = text.indexOf("\r\n\r\n");
  assert.ok(end > 0, "the head ends with a blank line");
  return { lines: text.slice(0, end).split("\r\n"), body: bytes.subarray(end + 4) };
}

Deno.test("a GET is its request line with path and query, Host and User-Agent, nothing else", () => {
  const prepared = prepareRequest(planRequest({ url: "http://127.0.0.1:8080/orders?page=2#x" }), 3);
  assert.deepEqual(wire(prepared.bytes).lines, [
    "GET /orders?page=2 HTTP/1.1",
    "Host: 127.0.0.1:8080",
    `User-Agent: tailgate/${TAILGATE_VERSION}`,
  ]);
  assert.equal(wire(prepared.bytes).body.length, 0);
  assert.deepEqual(
    [prepared.labelIndex, prepared.isHead, prepared.timeoutMs, prepared.expect],
    [3, false, 2_000, { codes: [], classes: [2] }],
  );
});

Deno.test("Host carries the port only when it is not the scheme's default", () => {
  const host = (url: string) => wire(prepareRequest(planRequest({ url }), 0).bytes).lines[1];
  assert.equal(host("http://example.test/"), "Host: example.test");
  assert.equal(host("http://example.test:80/"), "Host: example.test");
  assert.equal(host("https://example.test:443/a"), "Host: example.test");
  assert.equal(host("https://example.test:8443/a"), "Host: example.test:8443");
  assert.equal(host("http://[::1]:9000/"), "Host: [::1]:9000");
});

Deno.test("plan headers are sent by value, and a plan's Host or User-Agent replaces tailgate's", () => {
  const prepared = prepareRequest(
    planRequest({
      headers: [
        header("Authorization", "s3cret"),
        header("host", "api.example.test"),
        header("User-Agent", "custom/1"),
      ],
    }),
    0,
  );
  assert.deepEqual(wire(prepared.bytes).lines, [
    "GET / HTTP/1.1",
    "Authorization: s3cret",
    "host: api.example.test",
    "User-Agent: custom/1",
  ]);
});

Deno.test("a text or JSON body follows the head with its byte length", () => {
  const text = "héllo"; // 6 bytes in UTF-8
  const prepared = prepareRequest(
    planRequest({
      method: "POST",
      headers: [header("content-type", "text/plain"), header("Content-Length", "999")],
      body: { kind: "text", text },
    }),
    0,
  );
  const { lines, body } = wire(prepared.bytes);
  assert.ok(lines.includes("Content-Length: 6"), lines.join("|"));
  assert.ok(!lines.includes("Content-Length: 999"), "the plan's wrong length is dropped");
  assert.equal(decoder.decode(body), text);
  const json = prepareRequest(
    planRequest({ method: "PUT", body: { kind: "json", text: "{}" } }),
    0,
  );
  assert.ok(wire(json.bytes).lines.includes("Content-Length: 2"));
  assert.equal(decoder.decode(wire(json.bytes).body), "{}");
});

Deno.test("a plan's Transfer-Encoding or Connection is never sent: tailgate frames the request", () => {
  const prepared = prepareRequest(
    planRequest({
      method: "POST",
      headers: [
        header("Transfer-Encoding", "chunked"),
        header("connection", "close"),
        header("X-Kept", "1"),
      ],
      body: { kind: "text", text: "x".repeat(40) },
    }),
    0,
  );
  assert.deepEqual(wire(prepared.bytes).lines, [
    "POST / HTTP/1.1",
    "Host: 127.0.0.1:8080",
    "X-Kept: 1",
    `User-Agent: tailgate/${TAILGATE_VERSION}`,
    "Content-Length: 40",
  ]);
});

Deno.test("a file body is the bytes the caller read, sent verbatim", () => {
  const fileBytes = new Uint8Array([0, 1, 2, 255, 13, 10, 13, 10]);
  const request = planRequest({
    method: "POST",
    body: { kind: "file", path: "payload.bin", sizeBytes: 8 },
  });
  const prepared = prepareRequest(request, 0, fileBytes);
  assert.ok(wire(prepared.bytes).lines.includes("Content-Length: 8"));
  assert.deepEqual(prepared.bytes.subarray(prepared.bytes.length - 8), fileBytes);
  assert.throws(() => prepareRequest(request, 0), PrepareRequestError);
});

Deno.test("a gRPC body is the framed message the caller encoded, not its JSON text", () => {
  const framed = Uint8Array.of(0, 0, 0, 0, 8, 0x0a, 0x06, 0x75, 0x73, 0x65, 0x72, 0x2d, 0x31);
  const request = planRequest({
    method: "POST",
    body: { kind: "grpc", text: '{"name":"user-1"}' },
  });
  const prepared = prepareRequest(request, 0, framed);
  assert.ok(wire(prepared.bytes).lines.includes("Content-Length: 13"));
  assert.ok(wire(prepared.bytes).lines.includes("te: trailers"));
  assert.deepEqual(prepared.bytes.subarray(prepared.bytes.length - 13), framed);
  assert.throws(
    () => prepareRequest(request, 0),
    (error) => error instanceof PrepareRequestError && /framed gRPC message/.test(error.message),
  );
});

Deno.test("a POST without a body says Content-Length: 0; a GET or DELETE says nothing", () => {
  const lines = (method: string) => wire(prepareRequest(planRequest({ method }), 0).bytes).lines;
  assert.ok(lines("POST").includes("Content-Length: 0"));
  assert.ok(!lines("GET").some((l) => l.startsWith("Content-Length")));
  assert.ok(!lines("DELETE").some((l) => l.startsWith("Content-Length")));
});

Deno.test("HEAD is marked so the response is read without a body", () => {
  assert.equal(prepareRequest(planRequest({ method: "HEAD" }), 0).isHead, true);
});

Deno.test("a URL that is not http or https is refused with a typed error", () => {
  assert.throws(
    () => prepareRequest(planRequest({ url: "ftp://127.0.0.1/file" }), 0),
    (error) => error instanceof PrepareRequestError && /ftp:/.test(error.message),
  );
});
