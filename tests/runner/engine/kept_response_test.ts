import assert from "node:assert/strict";
import { KeptResponse } from "../../../runner/engine/kept_response.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("a kept body grows as pieces come and stops at its limit, counting every byte", () => {
  const kept = new KeptResponse(6000);
  const piece = bytes("x".repeat(4000));
  kept.add(piece, 0, 4000);
  kept.add(piece, 1000, 4000);
  assert.deepEqual([kept.body().length, kept.bodyBytes, kept.cut], [6000, 7000, true]);
});

Deno.test("headers are read by any case, repeated ones in order; names never show values", () => {
  const kept = new KeptResponse(10);
  for (const line of ["Set-Cookie: a=1", "set-cookie: b=2", "X-Token:  secret  "]) {
    kept.headLine(bytes(line), 0, line.length);
  }
  const h = kept.headers();
  assert.deepEqual([h.header("SET-COOKIE"), h.header("x-token"), h.header("none")], [
    ["a=1", "b=2"],
    ["secret"],
    [],
  ]);
  assert.equal(h.names(), "`set-cookie`, `x-token`");
});

Deno.test("HTTP/2 fields are kept without their pseudo-headers", () => {
  const kept = new KeptResponse(10);
  kept.field(":status", "200");
  kept.field("content-type", "text/plain");
  assert.equal(kept.headers().names(), "`content-type`");
});
