import assert from "node:assert/strict";
import { MAX_STREAMS_DEFAULT, streamsPerConnection } from "../../../../runner/engine/http2/mod.ts";

Deno.test("streams per connection: the plan's, else the server's SETTINGS capped at 100", () => {
  assert.equal(streamsPerConnection(undefined, 128), MAX_STREAMS_DEFAULT);
  assert.equal(streamsPerConnection(undefined, 10), 10);
  assert.equal(streamsPerConnection(undefined, undefined), MAX_STREAMS_DEFAULT);
  // node:http2 reports a server that sets no limit as 2^32 - 1.
  assert.equal(streamsPerConnection(undefined, 2 ** 32 - 1), 100);
  assert.equal(streamsPerConnection(250, 1000), 250);
});

Deno.test("streams per connection never exceed what the server allows, nor fall below 1", () => {
  assert.equal(streamsPerConnection(8, 1), 1);
  assert.equal(streamsPerConnection(undefined, 0), 1);
});
