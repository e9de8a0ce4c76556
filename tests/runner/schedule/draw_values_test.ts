import assert from "node:assert/strict";
import { choiceIndexAt, drawVar, hashWord, uuidAt } from "../../../runner/schedule/draw_values.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

Deno.test("uuids are RFC 9562 version 4 and never repeat over 200k requests", () => {
  const seen = new Set<string>();
  for (let n = 0; n < 200_000; n++) {
    const u = uuidAt(1, 0, n);
    assert.match(u, UUID_V4);
    seen.add(u);
  }
  assert.equal(seen.size, 200_000);
});

Deno.test("uuids differ by seed and by var, and request n's uuid depends only on n", () => {
  assert.notEqual(uuidAt(1, 0, 5), uuidAt(2, 0, 5));
  assert.notEqual(uuidAt(1, 0, 5), uuidAt(1, 1, 5));
  assert.equal(uuidAt(7, 3, 123_456_789_012), uuidAt(7, 3, 123_456_789_012));
  assert.notEqual(uuidAt(7, 3, 2 ** 32 + 5), uuidAt(7, 3, 5), "indices past 2^32 still differ");
});

Deno.test("the 32-bit hash is a bijection of n for a fixed stream: no two of 2^16 collide", () => {
  const seen = new Set<number>();
  for (let n = 0; n < 65_536; n++) seen.add(hashWord(9, 2, n, 0));
  assert.equal(seen.size, 65_536);
});

Deno.test("ints stay within their inclusive bounds and reach both ends, roughly uniformly", () => {
  const counts = new Map<number, number>();
  for (let n = 0; n < 60_000; n++) {
    const v = drawVar({ kind: "int", min: -2, max: 3 }, 1, 4, n) as number;
    assert.ok(Number.isInteger(v) && v >= -2 && v <= 3, `${v}`);
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  assert.deepEqual([...counts.keys()].sort((a, b) => a - b), [-2, -1, 0, 1, 2, 3]);
  for (const c of counts.values()) assert.ok(Math.abs(c - 10_000) < 500, `${c}`);
  const wide = drawVar({ kind: "int", min: 0, max: 2 ** 52 }, 1, 4, 9) as number;
  assert.ok(Number.isSafeInteger(wide));
});

Deno.test("a counter is the request's index; a choice draws each value", () => {
  assert.equal(drawVar({ kind: "counter" }, 1, 0, 41), 41);
  const seen = new Set<number>();
  for (let n = 0; n < 1000; n++) seen.add(choiceIndexAt(1, 2, n, 3));
  assert.deepEqual([...seen].sort(), [0, 1, 2]);
});
