import assert from "node:assert/strict";
import { h2Request, H2RequestEncoder } from "../../../../runner/engine/http2/mod.ts";
import { encodeHeaderBlock, HpackDecoder } from "../../../../runner/engine/http2/hpack/mod.ts";
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

function fields(block: Uint8Array): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  new HpackDecoder().decode(block, (name, value) => out.push([name, value]));
  return out;
}

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

Deno.test("a prepared HTTP/1.1 request reads back as HTTP/2 pseudo-headers, headers and body", () => {
  const prepared = prepareRequest(plain, 0);
  const r = h2Request(prepared.bytes, "https");
  const sent = fields(r.block);
  assert.deepEqual(sent.slice(0, 4), [
    [":method", "POST"],
    [":scheme", "https"],
    [":authority", "api.example:8443"],
    [":path", "/orders?page=2"],
  ]);
  assert.deepEqual(
    sent.filter(([name]) => name === "x-trace").map(([, value]) => value),
    ["a", "b"],
    "repeated names keep every value, in order",
  );
  assert.ok(sent.some(([name, value]) => name === "accept" && value === "text/plain"));
  assert.ok(sent.some(([name, value]) => name === "content-length" && value === "8"));
  assert.equal(new TextDecoder().decode(r.body), '{"id":7}');
  assert.ok(r.bytes > 8 && r.bytes < prepared.bytes.length, "header octets and body, before HPACK");
});

Deno.test("HTTP/2 never carries Host or the connection-specific headers; a GET has no body", () => {
  const bytes = latin1(
    "GET / HTTP/1.1\r\nHost: h:1\r\nConnection: keep-alive\r\nTransfer-Encoding: x\r\n" +
      "Keep-Alive: 5\r\nUpgrade: h2c\r\nProxy-Connection: x\r\nUser-Agent: t\r\n\r\n",
  );
  const r = h2Request(bytes, "http");
  assert.deepEqual(fields(r.block), [
    [":method", "GET"],
    [":scheme", "http"],
    [":authority", "h:1"],
    [":path", "/"],
    ["user-agent", "t"],
  ]);
  assert.equal(r.body, undefined);
  // GET, http, / and user-agent t: the octets HTTP/1.1 would count, Host's value as :authority.
  assert.equal(r.bytes, 3 + 4 + 1 + 3 + "user-agent".length + 1);
});

Deno.test("bytes that are not a request head are a bug, thrown as a RangeError", () => {
  for (
    const text of ["GET / HTTP/1.1\r\n", "GET\r\n\r\n", "GET /\r\n\r\n", " / HTTP/1.1\r\n\r\n"]
  ) {
    assert.throws(() => h2Request(latin1(text), "http"), RangeError, JSON.stringify(text));
  }
});

Deno.test("header octets go out as they are: a UTF-8 value ending in à keeps its last octet", () => {
  // "à" is C3 A0 in UTF-8; A0 is a no-break space in latin1, which String.trim() would strip.
  for (const text of ["café ☕", "voilà"]) {
    const utf8 = new TextEncoder().encode(text);
    const head = latin1("GET / HTTP/1.1\r\nHost: x\r\nX-Name: ");
    const bytes = new Uint8Array([...head, ...utf8, ...latin1(" \t\r\n\r\n")]);
    const value = fields(h2Request(bytes, "https").block).find(([name]) => name === "x-name")![1];
    assert.deepEqual(latin1(value), utf8, text);
  }
});

Deno.test("the block is the one encodeHeaderBlock makes of the same fields, static matches indexed", () => {
  const long = "v".repeat(300);
  const cases: Array<[string, Array<[string, string]>]> = [
    ["GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept-Encoding: gzip, deflate\r\n\r\n", [
      [":method", "GET"],
      [":scheme", "https"],
      [":authority", "127.0.0.1:8080"],
      [":path", "/index.html"],
      ["accept-encoding", "gzip, deflate"],
    ]],
    [
      `PATCH /a HTTP/1.1\r\nHOST:  x \r\nX-Long: ${long}\r\nAccept-Charset:\r\nX-Bin: \xff\xfe\xfd\r\n\r\n`,
      [
        [":method", "PATCH"],
        [":scheme", "https"],
        [":authority", "x"],
        [":path", "/a"],
        ["x-long", long],
        ["accept-charset", ""],
        ["x-bin", "\xff\xfe\xfd"],
      ],
    ],
  ];
  for (const [head, expected] of cases) {
    const r = h2Request(latin1(head), "https");
    assert.deepEqual(fields(r.block), expected);
    assert.deepEqual(r.block, encodeHeaderBlock(expected), head.split("\r\n")[0]);
  }
});

Deno.test("one encoder converts request after request, names in any case, as a fresh one does", () => {
  const encoder = new H2RequestEncoder("http");
  for (let n = 0; n < 300; n++) {
    const name = n % 3 === 0 ? "X-Id" : n % 3 === 1 ? "x-id" : `X-Custom-${n}`;
    const head = `POST /orders/${n} HTTP/1.1\r\nHost: h\r\n${name}: ${"k".repeat(n % 40)}${n}\r\n` +
      `Content-Length: 2\r\n\r\n{}`;
    const r = encoder.encode(latin1(head));
    assert.deepEqual(r.block, h2Request(latin1(head), "http").block, head);
    assert.deepEqual(fields(r.block)[4], [name.toLowerCase(), `${"k".repeat(n % 40)}${n}`]);
    assert.equal(new TextDecoder().decode(r.body), "{}");
  }
});
