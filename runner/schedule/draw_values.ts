/**
 * The values request n draws, as pure functions of the plan's seed, the var or source, and n:
 * the same plan and seed send the same requests, and every shard and worker computes request n's
 * values without talking to the others. Hashes are counter-based (murmur3's 32-bit finaliser,
 * a bijection), so no state is carried from one request to the next.
 *
 * @module
 */
import type { PlanVarSpec } from "../plan/mod.ts";

const TWO_32 = 4294967296;

/** murmur3's finaliser: a bijection of 32-bit integers that mixes every bit into every other. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A 32-bit hash of (seed, stream, n, word). For a fixed seed, stream and word it is a bijection
 * of n below 2^32, so values drawn from it never repeat within the first 2^32 requests.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashWord } from "./draw_values.ts";
 * assert.equal(hashWord(1, 0, 5, 0) === hashWord(1, 0, 5, 0), true);
 * assert.equal(hashWord(1, 0, 5, 0) !== hashWord(1, 0, 6, 0), true);
 * ```
 */
export function hashWord(seed: number, stream: number, n: number, word: number): number {
  const key = fmix32(
    (seed ^ Math.imul(stream + 1, 0x9e3779b9) ^ Math.imul(word + 1, 0x7feb352d)) >>> 0,
  );
  const hi = Math.floor(n / TWO_32);
  const lo = (n - hi * TWO_32) >>> 0;
  const mixedHi = hi === 0 ? 0 : fmix32((hi ^ key ^ 0x68e31da4) >>> 0);
  return fmix32(((lo ^ key) + mixedHi) >>> 0);
}

/**
 * A uniform draw in [0, 1) with 53 bits, for (seed, stream, n).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { uniformAt } from "./draw_values.ts";
 * const u = uniformAt(1, 3, 1000);
 * assert.equal(u >= 0 && u < 1, true);
 * ```
 */
export function uniformAt(seed: number, stream: number, n: number): number {
  const a = hashWord(seed, stream, n, 0) >>> 5; // 27 bits
  const b = hashWord(seed, stream, n, 1) >>> 6; // 26 bits
  return (a * 67108864 + b) / 9007199254740992;
}

/**
 * Var `spec`'s value for request `n` (`stream` tells vars apart): a uuid's text, a counter's or an
 * int's number, a choice's value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drawVar } from "./draw_values.ts";
 * assert.equal(drawVar({ kind: "counter" }, 1, 0, 41), 41);
 * drawVar({ kind: "int", min: 1, max: 6 }, 1, 0, 41); // 1 to 6
 * assert.equal(String(drawVar({ kind: "uuid" }, 1, 0, 41)).length, 36);
 * ```
 */
export function drawVar(
  spec: PlanVarSpec,
  seed: number,
  stream: number,
  n: number,
): string | number | boolean {
  switch (spec.kind) {
    case "counter":
      return n;
    case "int":
      return spec.min + Math.floor(uniformAt(seed, stream, n) * (spec.max - spec.min + 1));
    case "choice":
      return spec.values[choiceIndexAt(seed, stream, n, spec.values.length)];
    case "uuid":
      return uuidAt(seed, stream, n);
  }
}

/**
 * Which of `count` choices request `n` draws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { choiceIndexAt } from "./draw_values.ts";
 * assert.equal(choiceIndexAt(1, 0, 7, 3) < 3, true);
 * ```
 */
export function choiceIndexAt(seed: number, stream: number, n: number, count: number): number {
  return Math.floor(uniformAt(seed, stream, n) * count);
}

/**
 * The 128 bits of request `n`'s version 4 UUID (RFC 9562): 122 from the hash, the version and
 * variant set. Written into `out` (4 words, most significant first) to spare an allocation.
 */
export function uuidWords(seed: number, stream: number, n: number, out: Uint32Array): Uint32Array {
  out[0] = hashWord(seed, stream, n, 0);
  out[1] = hashWord(seed, stream, n, 1) & 0xffff0fff | 0x00004000;
  out[2] = hashWord(seed, stream, n, 2) & 0x3fffffff | 0x80000000;
  out[3] = hashWord(seed, stream, n, 3);
  return out;
}

/**
 * Request `n`'s version 4 UUID as text (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { uuidAt } from "./draw_values.ts";
 * assert.equal(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuidAt(1, 0, 7)), true);
 * ```
 */
export function uuidAt(seed: number, stream: number, n: number): string {
  const [w0, w1, w2, w3] = uuidWords(seed, stream, n, new Uint32Array(4));
  const h = (w: number) => w.toString(16).padStart(8, "0");
  const b = h(w1), c = h(w2);
  return `${h(w0)}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${h(w3)}`;
}
