import assert from "node:assert/strict";
import { dataDemand, RowCursor } from "../../../runner/schedule/data_rows.ts";
import { RequestMix } from "../../../runner/schedule/request_mix.ts";

Deno.test("sequence: the requests that use a source take its rows in file order, each once per pass", () => {
  const weights = [3, 1, 2];
  const mix = new RequestMix(weights);
  const cursor = new RowCursor(weights, [{ order: "sequence", rows: 7, labels: [0, 2] }], 1);
  const taken: number[] = [];
  for (let n = 0; n < 2000; n++) {
    cursor.at(n);
    if (mix.labelIndexAt(n) !== 1) taken.push(cursor.rowOf(0));
  }
  taken.forEach((row, i) => assert.equal(row, i % 7));
});

Deno.test("a walker that skips indices (a shard) takes the same rows as the whole run", () => {
  const weights = [1, 1];
  const uses = [{ order: "shuffle" as const, rows: 11, labels: [1] }];
  const whole = new RowCursor(weights, uses, 5);
  const rows: number[] = [];
  for (let n = 0; n < 500; n++) {
    whole.at(n);
    rows.push(whole.rowOf(0));
  }
  for (let shard = 0; shard < 4; shard++) {
    const part = new RowCursor(weights, uses, 5);
    for (let n = shard; n < 500; n += 4) {
      part.at(n);
      assert.equal(part.rowOf(0), rows[n], `request ${n} of shard ${shard}`);
    }
  }
});

Deno.test("shuffle: every pass is a seeded permutation, different per pass and per seed", () => {
  const passes = (seed: number) => {
    const c = new RowCursor([1], [{ order: "shuffle", rows: 50, labels: [0] }], seed);
    const out: number[][] = [[], [], []];
    for (let n = 0; n < 150; n++) {
      c.at(n);
      out[Math.floor(n / 50)].push(c.rowOf(0));
    }
    return out;
  };
  const [a, b, c] = passes(1);
  for (const pass of [a, b, c]) {
    assert.deepEqual([...pass].sort((x, y) => x - y), Array.from({ length: 50 }, (_, i) => i));
  }
  assert.notDeepEqual(a, b);
  assert.notDeepEqual(a, Array.from({ length: 50 }, (_, i) => i));
  assert.deepEqual(passes(1)[0], a, "the same seed, the same order");
  assert.notDeepEqual(passes(2)[0], a);
});

Deno.test("random draws cover the rows independently of rank", () => {
  const c = new RowCursor([1], [{ order: "random", rows: 4, labels: [0] }], 3);
  const seen = new Set<number>();
  for (let n = 0; n < 200; n++) {
    c.at(n);
    const r = c.rowOf(0);
    assert.ok(r >= 0 && r < 4);
    seen.add(r);
  }
  assert.equal(seen.size, 4);
});

Deno.test("dataDemand counts the requests of the labels that use a source", () => {
  const mix = new RequestMix([9, 1]);
  let expected = 0;
  for (let n = 0; n < 10_000; n++) if (mix.labelIndexAt(n) === 1) expected++;
  assert.deepEqual(dataDemand([9, 1], [{ order: "sequence", rows: 3, labels: [1] }], 10_000), [
    expected,
  ]);
  assert.ok(Math.abs(expected - 1000) <= 2);
});

Deno.test("a walker never goes back", () => {
  const c = new RowCursor([1], [{ order: "sequence", rows: 3, labels: [0] }], 1);
  c.at(10);
  assert.throws(() => c.at(9), RangeError);
});
