import assert from "node:assert/strict";
import { GrpcMessageReader } from "../../../../runner/engine/grpc/mod.ts";
import { KeptResponse } from "../../../../runner/engine/kept_response.ts";

const framed = (...payloads: number[][]) =>
  Uint8Array.from(payloads.flatMap((p) => [0, 0, 0, p.length >> 8, p.length & 255, ...p]));

Deno.test("messages cut anywhere across DATA slices are counted once each", () => {
  const data = framed([1, 2, 3], [], [4, 5, 6, 7]);
  for (let cut1 = 0; cut1 <= data.length; cut1++) {
    for (let cut2 = cut1; cut2 <= data.length; cut2++) {
      const reader = new GrpcMessageReader();
      reader.reset(undefined);
      const firsts = [
        reader.feed(data, 0, cut1),
        reader.feed(data, cut1, cut2),
        reader.feed(data, cut2, data.length),
      ];
      assert.equal(reader.end(), true);
      assert.equal(reader.messages, 3);
      // The first message completes in exactly one slice: the one holding its last octet.
      assert.equal(firsts.filter(Boolean).length, 1, `cuts ${cut1} ${cut2}`);
      assert.equal(firsts.indexOf(true), cut1 >= 8 ? 0 : cut2 >= 8 ? 1 : 2);
    }
  }
});

Deno.test("the first message's bytes are kept without its prefix, the later ones not", () => {
  const kept = new KeptResponse(100);
  const reader = new GrpcMessageReader();
  reader.reset(kept);
  const data = framed([9, 8, 7], [6]);
  reader.feed(data, 0, 6);
  reader.feed(data, 6, data.length);
  assert.deepEqual([...kept.body()], [9, 8, 7]);
});

Deno.test("broken framing is told: a compressed flag, an unknown flag, a length over the limit", () => {
  const cases: [Uint8Array, RegExp][] = [
    [Uint8Array.of(1, 0, 0, 0, 1, 5), /compressed/],
    [Uint8Array.of(2, 0, 0, 0, 1, 5), /flag of 2/],
    [Uint8Array.of(0, 0, 0, 0, 101, 5), /101 octets, over the limit of 100/],
  ];
  for (const [data, why] of cases) {
    const reader = new GrpcMessageReader(100);
    reader.reset(undefined);
    assert.equal(reader.feed(data, 0, data.length), false);
    assert.match(reader.broken, why);
    assert.equal(reader.end(), false);
    assert.equal(reader.messages, 0);
  }
});

Deno.test("a message cut at the stream's end is broken; reset starts the next response clean", () => {
  const reader = new GrpcMessageReader();
  reader.reset(undefined);
  reader.feed(Uint8Array.of(0, 0, 0, 0, 10, 1, 2, 3), 0, 8);
  assert.equal(reader.end(), false);
  assert.match(reader.broken, /cut 7 octets short of its 10/);
  reader.reset(undefined);
  reader.feed(Uint8Array.of(0, 0, 0), 0, 3);
  assert.equal(reader.end(), false);
  assert.match(reader.broken, /prefix cut after 3 of 5/);
  reader.reset(undefined);
  assert.deepEqual([reader.end(), reader.messages, reader.broken], [true, 0, ""]);
});
