import assert from "node:assert/strict";
import { isLoopbackHostname } from "../../../runner/target/mod.ts";

Deno.test("isLoopbackHostname accepts 127.0.0.0/8, ::1 and localhost", () => {
  for (const host of ["127.0.0.1", "127.255.0.9", "localhost", "LocalHost", "::1", "[::1]"]) {
    assert.equal(isLoopbackHostname(host), true, host);
  }
  assert.equal(isLoopbackHostname("::ffff:127.0.0.1"), true);
  assert.equal(isLoopbackHostname("0:0:0:0:0:0:0:1"), true);
});

Deno.test("isLoopbackHostname refuses wildcard, private and malformed addresses", () => {
  for (
    const host of ["0.0.0.0", "::", "10.0.0.1", "128.0.0.1", "127.0.0.256", "127.1", "example.com"]
  ) {
    assert.equal(isLoopbackHostname(host), false, host);
  }
});
