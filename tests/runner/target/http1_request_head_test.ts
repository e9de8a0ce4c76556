import assert from "node:assert/strict";
import { MAX_HEAD_BYTES, parseRequestHead } from "../../../runner/target/http1_request_head.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("parseRequestHead waits for the blank line that ends the head", () => {
  assert.deepEqual(parseRequestHead(bytes("GET / HTTP/1.1\r\nHost: a\r\n")), {
    kind: "incomplete",
  });
});

Deno.test("parseRequestHead reads method, target, body length and keep-alive", () => {
  const text = "POST /a?b=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc";
  const head = parseRequestHead(bytes(text));
  assert.deepEqual(head, {
    kind: "request",
    method: "POST",
    target: "/a?b=1",
    headBytes: text.length - 3,
    contentLength: 3,
    keepAlive: true,
  });
});

Deno.test("parseRequestHead keeps HTTP/1.1 alive unless Connection: close, and 1.0 the reverse", () => {
  const keepAlive = (text: string) => {
    const head = parseRequestHead(bytes(text));
    assert.equal(head.kind, "request");
    return head.kind === "request" && head.keepAlive;
  };
  assert.equal(keepAlive("GET / HTTP/1.1\r\nConnection: Close\r\n\r\n"), false);
  assert.equal(keepAlive("GET / HTTP/1.1\r\nConnection: upgrade, close\r\n\r\n"), false);
  assert.equal(keepAlive("GET / HTTP/1.0\r\n\r\n"), false);
  assert.equal(keepAlive("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"), true);
});

Deno.test("parseRequestHead refuses what it cannot serve with the right status", () => {
  const status = (text: string | Uint8Array) => {
    const head = parseRequestHead(typeof text === "string" ? bytes(text) : text);
    return head.kind === "invalid" ? head.status : head.kind;
  };
  assert.equal(status("nonsense\r\n\r\n"), 400);
  assert.equal(status("GET / HTTP/1.1\r\nno colon\r\n\r\n"), 400);
  assert.equal(status("GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"), 400);
  assert.equal(status("GET / HTTP/2.0\r\n\r\n"), 505);
  assert.equal(status("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"), 501);
  assert.equal(status("POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n"), 413);
  assert.equal(status(new Uint8Array(MAX_HEAD_BYTES + 1).fill(65)), 431);
});
