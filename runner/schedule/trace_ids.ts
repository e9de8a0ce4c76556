/**
 * W3C trace context ids of request n, computed from the seed and n (never drawn in sequence), as
 * fire_times.ts computes its send time: the same seed sends the same ids, and any request's id is
 * found again from its n alone (the result's slowest requests name theirs).
 *
 * The trace id is a bijection of 128 bits (a Threefry-4×32 style mix: add, rotate, xor, with key
 * words injected every four rounds) applied to (n's low word, n's high word, the journey step,
 * the seed): distinct requests of a run, and the same request under distinct seeds, get distinct
 * ids, never by chance. The one input that would give the all-zero id (invalid) gives instead
 * the id of an input no request has (a high word of n at 2^32 − 1; n stays below 2^53). The
 * parent id is mixed from the trace id (never zero). Plain 32-bit integer math: no BigInt, no
 * allocation.
 *
 * @module
 */

/** The `traceparent` value's length: `00-` 32 hex digits `-` 16 hex digits `-01`. */
export const TRACEPARENT_BYTES = 55;

/** The fixed key (the first digits of pi, as Threefish's constants are chosen), and its parity. */
const K0 = 0x243f6a88;
const K1 = 0x85a308d3;
const K2 = 0x13198a2e;
const K3 = 0x03707344;
const K4 = (0x1bd11bda ^ K0 ^ K1 ^ K2 ^ K3) >>> 0;
/** The key words in schedule order: injection s adds KEY_SCHEDULE[s % 5 + i] to word i. */
const KEY_SCHEDULE = Int32Array.of(K0, K1, K2, K3, K4, K0, K1, K2, K3);
/** Rounds of the mix, in groups of four. */
const ROUNDS = 16;
const HEX = new TextEncoder().encode("0123456789abcdef");
/** Each octet's two hex digits: octet b's at 2b and 2b + 1. */
const HEX_PAIRS = Uint8Array.from({ length: 512 }, (_, i) => HEX[i & 1 ? (i >> 1) & 15 : i >> 5]);

/**
 * Writes request n's trace id (words 0-3, most significant first) and parent id (words 4-5) into
 * `out` (6 words). `step` is a journey's step (0 for a single request: a journey is started by
 * its request n, its later steps follow with their step).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { traceWords } from "./trace_ids.ts";
 * const a = traceWords(1, 0, 0, new Uint32Array(6));
 * const b = traceWords(1, 1, 0, new Uint32Array(6));
 * assert.notDeepEqual(a.subarray(0, 4), b.subarray(0, 4));
 * assert.deepEqual(traceWords(1, 0, 0, new Uint32Array(6)), a);
 * ```
 */
export function traceWords(seed: number, n: number, step: number, out: Uint32Array): Uint32Array {
  mix(n >>> 0, Math.floor(n / 4294967296) >>> 0, step >>> 0, seed >>> 0, out);
  if ((out[0] | out[1] | out[2] | out[3]) === 0) mix(0, 0xffffffff, 0, 0, out);
  let p0 = fmix(out[0] ^ out[3] ^ 0x9e3779b9);
  const p1 = fmix(out[1] ^ out[2] ^ 0x7f4a7c15);
  if ((p0 | p1) === 0) p0 = 1;
  out[4] = p0;
  out[5] = p1;
  return out;
}

/**
 * The 128-bit mix of (a, b, c, d) into `out[0..3]`: 16 Threefry rounds (rotations R, and words 1
 * and 3 swapped after each), a key injection after every four. Unrolled by four: no table read
 * per round.
 */
function mix(a: number, b: number, c: number, d: number, out: Uint32Array): void {
  let x0 = (a + K0) | 0, x1 = (b + K1) | 0, x2 = (c + K2) | 0, x3 = (d + K3) | 0;
  for (let s = 1; s <= ROUNDS / 4; s++) {
    const odd = (s & 1) === 0; // the second four rotation pairs
    let t: number;
    // Round 4s − 4 (rotations 10, 26 or 6, 20), then the swap of words 1 and 3, each round.
    x0 = (x0 + x1) | 0;
    x1 = rotl(x1, odd ? 6 : 10) ^ x0;
    x2 = (x2 + x3) | 0;
    x3 = rotl(x3, odd ? 20 : 26) ^ x2;
    t = x1, x1 = x3, x3 = t;
    x0 = (x0 + x1) | 0;
    x1 = rotl(x1, odd ? 17 : 11) ^ x0;
    x2 = (x2 + x3) | 0;
    x3 = rotl(x3, odd ? 11 : 21) ^ x2;
    t = x1, x1 = x3, x3 = t;
    x0 = (x0 + x1) | 0;
    x1 = rotl(x1, odd ? 25 : 13) ^ x0;
    x2 = (x2 + x3) | 0;
    x3 = rotl(x3, odd ? 10 : 27) ^ x2;
    t = x1, x1 = x3, x3 = t;
    x0 = (x0 + x1) | 0;
    x1 = rotl(x1, odd ? 18 : 23) ^ x0;
    x2 = (x2 + x3) | 0;
    x3 = rotl(x3, odd ? 20 : 5) ^ x2;
    t = x1, x1 = x3, x3 = t;
    const k = s % 5;
    x0 = (x0 + KEY_SCHEDULE[k]) | 0;
    x1 = (x1 + KEY_SCHEDULE[k + 1]) | 0;
    x2 = (x2 + KEY_SCHEDULE[k + 2]) | 0;
    x3 = (x3 + KEY_SCHEDULE[k + 3] + s) | 0;
  }
  out[0] = x0;
  out[1] = x1;
  out[2] = x2;
  out[3] = x3;
}

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

/** Murmur3's finaliser: a bijection of one word. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const scratch = new Uint32Array(6);

/**
 * Writes request n's `traceparent` value (`00-<trace id>-<parent id>-01`, sampled) into `bytes`
 * at `at` ({@linkcode TRACEPARENT_BYTES} octets): in place, nothing allocated, so a request's
 * prepared bytes are patched per send.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { traceIdHex, writeTraceparent } from "./trace_ids.ts";
 * const bytes = new Uint8Array(55);
 * writeTraceparent(bytes, 0, 7, 42, 0);
 * const text = new TextDecoder().decode(bytes);
 * assert.match(text, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
 * assert.equal(text.slice(3, 35), traceIdHex(7, 42, 0));
 * ```
 */
export function writeTraceparent(
  bytes: Uint8Array,
  at: number,
  seed: number,
  n: number,
  step: number,
): void {
  const w = traceWords(seed, n, step, scratch);
  bytes[at] = 0x30;
  bytes[at + 1] = 0x30;
  bytes[at + 2] = 0x2d;
  for (let i = 0; i < 4; i++) writeWord(bytes, at + 3 + 8 * i, w[i]);
  bytes[at + 35] = 0x2d;
  writeWord(bytes, at + 36, w[4]);
  writeWord(bytes, at + 44, w[5]);
  bytes[at + 52] = 0x2d;
  bytes[at + 53] = 0x30;
  bytes[at + 54] = 0x31;
}

function writeWord(bytes: Uint8Array, at: number, word: number): void {
  let b = (word >>> 23) & 0x1fe;
  bytes[at] = HEX_PAIRS[b];
  bytes[at + 1] = HEX_PAIRS[b + 1];
  b = (word >>> 15) & 0x1fe;
  bytes[at + 2] = HEX_PAIRS[b];
  bytes[at + 3] = HEX_PAIRS[b + 1];
  b = (word >>> 7) & 0x1fe;
  bytes[at + 4] = HEX_PAIRS[b];
  bytes[at + 5] = HEX_PAIRS[b + 1];
  b = (word << 1) & 0x1fe;
  bytes[at + 6] = HEX_PAIRS[b];
  bytes[at + 7] = HEX_PAIRS[b + 1];
}

/**
 * Request n's trace id as 32 lowercase hex digits (what its `traceparent` carried).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { traceIdHex } from "./trace_ids.ts";
 * assert.match(traceIdHex(1, 0, 0), /^[0-9a-f]{32}$/);
 * assert.notEqual(traceIdHex(1, 5, 0), traceIdHex(1, 5, 1));
 * ```
 */
export function traceIdHex(seed: number, n: number, step: number): string {
  const w = traceWords(seed, n, step, scratch);
  let hex = "";
  for (let i = 0; i < 4; i++) hex += w[i].toString(16).padStart(8, "0");
  return hex;
}
