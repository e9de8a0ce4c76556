import assert from "node:assert/strict";
import { ConnectionWatch, unopenedNotice } from "../../../runner/run/connection_watch.ts";
import { HTTP2_REPLY_NOTE, OUT_OF_DESCRIPTORS_NOTE } from "../../../runner/engine/http1/mod.ts";

Deno.test("ConnectionWatch says each connection trouble once, however often it happens", () => {
  const said: string[] = [];
  const watch = new ConnectionWatch((text) => said.push(text));
  assert.equal(watch.outOfDescriptors, false);
  assert.equal(watch.http2Reply, false);
  // Hooks are handed to connections on their own, unbound.
  const { onOutOfDescriptors, onHttp2Reply } = watch;
  onOutOfDescriptors();
  onHttp2Reply();
  onOutOfDescriptors();
  onHttp2Reply();
  assert.deepEqual(said, [OUT_OF_DESCRIPTORS_NOTE, HTTP2_REPLY_NOTE]);
  assert.equal(watch.outOfDescriptors, true);
  assert.equal(watch.http2Reply, true);
});

Deno.test("ConnectionWatch counts HTTP/2 stream slots that failed to open per connection", () => {
  const said: string[] = [];
  const watch = new ConnectionWatch((text) => said.push(text));
  // 2 connections of 4 unopened, 10 stream slots each: 20 slots failed as `tls` are 2 connections.
  watch.unopened(2, 4, "https://127.0.0.1:8443", new Map([["tls", 20]]), 10, 5000);
  assert.deepEqual(said, [
    unopenedNotice(2, 4, "https://127.0.0.1:8443", new Map([["tls", 2]]), 5000),
  ]);
  assert.match(
    said[0],
    /^2 of 4 connections to https:\/\/127\.0\.0\.1:8443 failed to open \(tls: 2\): an untrusted certificate\? pass --ca-cert FILE; starting anyway/,
  );
});

Deno.test("unopenedNotice tells connections still pending at the timeout apart from failures", () => {
  assert.equal(
    unopenedNotice(3, 3, "http://127.0.0.1:1", new Map(), 2500),
    "3 of 3 connections to http://127.0.0.1:1 did not open within 2.5 s; starting anyway " +
      "(each connects on first use, within its request's timeout)",
  );
});
