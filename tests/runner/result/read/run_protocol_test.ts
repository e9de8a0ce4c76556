import assert from "node:assert/strict";
import {
  isHttp2,
  protocolText,
  runProtocol,
  streamsText,
  waitedFor,
} from "../../../../runner/result/read/run_protocol.ts";

Deno.test("runProtocol(): a result without one spoke HTTP/1.1, and waited for connections", () => {
  const old = { run: {} };
  assert.equal(runProtocol(old), "http/1.1");
  assert.equal(isHttp2(old), false);
  assert.equal(protocolText(old), "HTTP/1.1");
  assert.equal(waitedFor(old), "a connection");
});

Deno.test("protocolText() names h2 and h2c apart, with the streams the plan asked for or the server's", () => {
  assert.equal(
    protocolText({ run: { protocol: "h2", maxStreams: 8 } }),
    "HTTP/2 over TLS (h2), up to 8 streams per connection",
  );
  assert.equal(
    protocolText({ run: { protocol: "h2c" } }),
    "HTTP/2 cleartext (h2c), streams per connection as the server's SETTINGS allow, at most 100",
  );
  assert.equal(streamsText(1), "up to 1 stream per connection");
  assert.equal(waitedFor({ run: { protocol: "h2c" } }), "a free stream");
});

Deno.test("protocolText() says a gRPC run's calls went over h2c or TLS, then its HTTP/2", () => {
  assert.equal(
    protocolText({ run: { protocol: "h2c", grpc: true, maxStreams: 8 } }),
    "gRPC over h2c, HTTP/2 cleartext (h2c), up to 8 streams per connection",
  );
  assert.equal(
    protocolText({ run: { protocol: "h2", grpc: true } }),
    "gRPC over TLS, HTTP/2 over TLS (h2), streams per connection as the server's SETTINGS " +
      "allow, at most 100",
  );
  assert.equal(waitedFor({ run: { protocol: "h2c", grpc: true } }), "a free stream");
});
