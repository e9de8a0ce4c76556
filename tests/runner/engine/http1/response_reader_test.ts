import assert from "node:assert/strict";
import { ResponseReader } from "../../../../runner/engine/http1/mod.ts";
import { InflightRequest } from "../../../../runner/engine/inflight_request.ts";
import type { ResponseOutcome } from "../../../../runner/engine/types.ts";

const EXPECT = { codes: [], classes: [2] };
const text = (b: Uint8Array | undefined) => b && new TextDecoder().decode(b);

/** Feeds `pieces` (each a separate read) to a reader for a request keeping `keep` bytes. */
async function read(pieces: string[], keep?: number): Promise<ResponseOutcome> {
  const reader = new ResponseReader();
  reader.start(false, { labelIndex: 0, expect: EXPECT, keepBodyBytes: keep });
  const request = new InflightRequest();
  const outcome = request.begin(reader.kept);
  request.written(0, 10);
  for (const piece of pieces) {
    const bytes = new TextEncoder().encode(piece);
    // The reader's buffer is reused for every read: what is kept must be a copy.
    const space = reader.space();
    space.set(bytes);
    const done = reader.take(request, bytes.length, 1);
    space.fill(0x21, 0, bytes.length);
    if (done !== undefined) break;
  }
  return await outcome;
}

Deno.test("a request that keeps its body gets body and headers, copied out of the read buffer", async () => {
  const o = await read(
    [
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n{"id":',
      '"abc"}',
    ],
    1024,
  );
  assert.deepEqual([o.status, text(o.body), o.bodyBytes, o.bodyCut], [
    200,
    '{"id":"abc"}',
    12,
    undefined,
  ]);
  assert.deepEqual(o.headers?.header("content-type"), ["application/json"]);
});

Deno.test("a request that does not keep its body gets neither body nor headers", async () => {
  const o = await read(["HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"]);
  assert.deepEqual([o.status, o.body, o.headers, o.bodyBytes], [
    200,
    undefined,
    undefined,
    undefined,
  ]);
});

Deno.test("a chunked body is kept as its data, cut at the limit and counted whole", async () => {
  const o = await read(
    [
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
      "6\r\n world\r\n0\r\n\r\n",
    ],
    8,
  );
  assert.deepEqual([text(o.body), o.bodyBytes, o.bodyCut], ["hello wo", 11, true]);
});

Deno.test("an interim 100 Continue's headers are not kept with the final response's", async () => {
  const o = await read(
    ["HTTP/1.1 100 Continue\r\nX-Interim: 1\r\n\r\nHTTP/1.1 201 Created\r\nX-Final: 2\r\nContent-Length: 0\r\n\r\n"],
    64,
  );
  assert.equal(o.status, 201);
  assert.deepEqual([o.headers?.header("x-interim"), o.headers?.header("x-final")], [[], ["2"]]);
});
