import assert from "node:assert/strict";
import {
  traceIdHex,
  TRACEPARENT_BYTES,
  traceWords,
  writeTraceparent,
} from "../../../runner/schedule/trace_ids.ts";

const decoder = new TextDecoder();

Deno.test("a traceparent is version 00, 32 and 16 hex digits, sampled", () => {
  const bytes = new Uint8Array(TRACEPARENT_BYTES + 4).fill(0x2a);
  writeTraceparent(bytes, 2, 123, 9_876_543, 0);
  const text = decoder.decode(bytes);
  assert.equal(text.slice(0, 2), "**");
  assert.equal(text.slice(-2), "**");
  assert.match(text.slice(2, 2 + TRACEPARENT_BYTES), /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  assert.equal(text.slice(5, 37), traceIdHex(123, 9_876_543, 0));
});

Deno.test("trace ids are unique over many n, steps and seeds", () => {
  const seen = new Set<string>();
  let count = 0;
  for (const seed of [0, 1, 2, 0xffffffff]) {
    for (let n = 0; n < 20_000; n++) {
      seen.add(traceIdHex(seed, n, 0));
      count++;
    }
    for (let n = 0; n < 2_000; n++) {
      for (let step = 1; step < 4; step++) {
        seen.add(traceIdHex(seed, n, step));
        count++;
      }
    }
  }
  // n past 2^32 differs from n below it in the high word only.
  seen.add(traceIdHex(1, 2 ** 32 + 5, 0));
  seen.add(traceIdHex(1, 2 ** 52, 0));
  count += 2;
  assert.equal(seen.size, count);
});

Deno.test("trace ids are reproducible from the seed and n alone", () => {
  const words = new Uint32Array(6);
  const a = [...traceWords(42, 1_000, 2, words)];
  traceWords(42, 999, 0, words); // another request in between changes nothing
  assert.deepEqual([...traceWords(42, 1_000, 2, words)], a);
  assert.equal(
    traceIdHex(42, 1_000, 2),
    a.slice(0, 4).map((w) => w.toString(16).padStart(8, "0")).join(""),
  );
});

Deno.test("neither id is ever all zero, nor are parent ids constant", () => {
  const words = new Uint32Array(6);
  const parents = new Set<string>();
  for (let n = 0; n < 5_000; n++) {
    traceWords(3, n, 0, words);
    assert.notEqual(words[0] | words[1] | words[2] | words[3], 0);
    assert.notEqual(words[4] | words[5], 0);
    parents.add(`${words[4]}.${words[5]}`);
  }
  assert.equal(parents.size, 5_000);
});

Deno.test("the hex digits are spread evenly over the trace ids", () => {
  const counts = new Array(16).fill(0);
  for (let n = 0; n < 4_000; n++) {
    for (const c of traceIdHex(5, n, 0)) counts[parseInt(c, 16)]++;
  }
  const mean = 4_000 * 32 / 16;
  for (const c of counts) assert.ok(Math.abs(c - mean) < mean * 0.05, `${counts}`);
});
