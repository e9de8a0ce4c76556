import assert from "node:assert/strict";
import { HpackDecoder, HpackError } from "../../../../../runner/engine/http2/hpack/mod.ts";
import { decodeFields, hex } from "./_hex.ts";

// RFC 7541 Appendix C.2: one representation each, on a fresh decoder.

Deno.test("C.2.1 a literal with indexing is decoded and added to the dynamic table", () => {
  const decoder = new HpackDecoder();
  const block = hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572");
  assert.deepEqual(decodeFields(decoder, block), [["custom-key", "custom-header"]]);
  assert.equal(decoder.tableBytes, 55);
  assert.deepEqual(decodeFields(decoder, hex("be")), [["custom-key", "custom-header"]]);
});

Deno.test("C.2.2 a literal without indexing leaves the dynamic table empty", () => {
  const decoder = new HpackDecoder();
  const block = hex("040c 2f73 616d 706c 652f 7061 7468");
  assert.deepEqual(decodeFields(decoder, block), [[":path", "/sample/path"]]);
  assert.equal(decoder.tableLength, 0);
});

Deno.test("C.2.3 a never-indexed literal with a literal name leaves the table empty", () => {
  const decoder = new HpackDecoder();
  const block = hex("1008 7061 7373 776f 7264 0673 6563 7265 74");
  assert.deepEqual(decodeFields(decoder, block), [["password", "secret"]]);
  assert.equal(decoder.tableLength, 0);
});

Deno.test("C.2.4 an indexed field comes from the static table", () => {
  const decoder = new HpackDecoder();
  assert.deepEqual(decodeFields(decoder, hex("82")), [[":method", "GET"]]);
  assert.equal(decoder.tableLength, 0);
});

const REQUESTS: [string, string][][] = [
  [[":method", "GET"], [":scheme", "http"], [":path", "/"], [":authority", "www.example.com"]],
  [
    [":method", "GET"],
    [":scheme", "http"],
    [":path", "/"],
    [":authority", "www.example.com"],
    ["cache-control", "no-cache"],
  ],
  [
    [":method", "GET"],
    [":scheme", "https"],
    [":path", "/index.html"],
    [":authority", "www.example.com"],
    ["custom-key", "custom-value"],
  ],
];
const REQUEST_TABLE_BYTES = [57, 110, 164];

/** Decodes the three requests of one connection, checking fields and table size after each. */
function checkRequests(blocks: string[]): void {
  const decoder = new HpackDecoder();
  blocks.forEach((block, i) => {
    assert.deepEqual(decodeFields(decoder, hex(block)), REQUESTS[i], `request ${i + 1}`);
    assert.equal(decoder.tableBytes, REQUEST_TABLE_BYTES[i], `table after request ${i + 1}`);
  });
  // The table after C.3.3 / C.4.3, newest first: custom-key, cache-control, :authority.
  assert.deepEqual(decodeFields(decoder, hex("be bf c0")), [
    ["custom-key", "custom-value"],
    ["cache-control", "no-cache"],
    [":authority", "www.example.com"],
  ]);
}

Deno.test("C.3 three requests without Huffman share one dynamic table", () => {
  checkRequests([
    "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
    "8286 84be 5808 6e6f 2d63 6163 6865",
    "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
  ]);
});

Deno.test("C.4 three requests with Huffman share one dynamic table", () => {
  checkRequests([
    "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
    "8286 84be 5886 a8eb 1064 9cbf",
    "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
  ]);
});

const DATE_21 = "Mon, 21 Oct 2013 20:13:21 GMT";
const LOCATION = "https://www.example.com";
const RESPONSES: [string, string][][] = [
  [[":status", "302"], ["cache-control", "private"], ["date", DATE_21], ["location", LOCATION]],
  [[":status", "307"], ["cache-control", "private"], ["date", DATE_21], ["location", LOCATION]],
  [
    [":status", "200"],
    ["cache-control", "private"],
    ["date", "Mon, 21 Oct 2013 20:13:22 GMT"],
    ["location", LOCATION],
    ["content-encoding", "gzip"],
    ["set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"],
  ],
];
const RESPONSE_TABLE_BYTES = [222, 222, 215];

/**
 * The responses of C.5/C.6 with a 256-octet table, where entries get evicted; `status()` (the
 * engine's: the status alone) keeps the same table as `decode()`.
 */
function checkResponses(blocks: string[]): void {
  const decoder = new HpackDecoder(256);
  const statusOnly = new HpackDecoder(256);
  blocks.forEach((block, i) => {
    assert.deepEqual(decodeFields(decoder, hex(block)), RESPONSES[i], `response ${i + 1}`);
    assert.equal(decoder.tableBytes, RESPONSE_TABLE_BYTES[i], `table after response ${i + 1}`);
    assert.equal(statusOnly.status(hex(block)), Number(RESPONSES[i][0][1]), `status ${i + 1}`);
    assert.equal(statusOnly.tableBytes, RESPONSE_TABLE_BYTES[i], `status() table ${i + 1}`);
  });
  assert.deepEqual(
    decodeFields(statusOnly, hex("be bf c0")),
    decodeFields(decoder, hex("be bf c0")),
  );
  // Left after the evictions, newest first; :status 302, 307 and the first date are gone.
  assert.equal(decoder.tableLength, 3);
  assert.deepEqual(decodeFields(decoder, hex("be bf c0")), [
    ["set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"],
    ["content-encoding", "gzip"],
    ["date", "Mon, 21 Oct 2013 20:13:22 GMT"],
  ]);
}

Deno.test("C.5 three responses without Huffman evict the oldest entries", () => {
  checkResponses([
    `4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133
     2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70
     6c65 2e63 6f6d`,
    "4803 3330 37c1 c0bf",
    `88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d
     54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049
     5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e
     3d31`,
  ]);
});

Deno.test("C.6 three responses with Huffman evict the oldest entries", () => {
  checkResponses([
    `4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
     2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3`,
    "4883 640e ffc1 c0bf",
    `88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab
     77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
     9587 3160 65c0 03ed 4ee5 b106 3d50 07`,
  ]);
});

Deno.test("status() reads a literal status, steps over other literals, and keeps nothing of them", () => {
  const decoder = new HpackDecoder();
  // :status 100 as a literal without indexing (name: static 8), then C.2.2's :path literal.
  assert.equal(decoder.status(hex("0803 3130 30 040c 2f73 616d 706c 652f 7061 7468")), 100);
  assert.equal(decoder.tableLength, 0);
  assert.equal(decoder.status(hex("040c 2f73 616d 706c 652f 7061 7468")), 0, "no status");
  assert.throws(
    () => decoder.status(hex("88 040c 2f73")),
    HpackError,
    "a skipped literal too short",
  );
});
