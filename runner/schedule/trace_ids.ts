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

const ROTATIONS = [10, 26, 11, 21, 13, 27, 23, 5, 6, 20, 17, 11, 25, 10, 18, 20];
/** The fixed key (the first digits of pi, as Threefish's constants are chosen), and its parity. */
const K0 = 0x243f6a88;
const K1 = 0x85a308d3;
const K2 = 0x13198a2e;
const K3 = 0x03707344;
const K4 = (0x1bd11bda ^ K0 ^ K1 ^ K2 ^ K3) >>> 0;
const KEYS = [K0, K1, K2, K3, K4];
/** Rounds of the mix, in groups of four. */
const ROUNDS = 16;
const ROUNDS_A = Int32Array.from({ length: 8 }, (_, i) => ROTATIONS[2 * i]);
const ROUNDS_B = Int32Array.from({ length: 8 }, (_, i) => ROTATIONS[2 * i + 1]);

const HEX = new TextEncoder().encode("0123456789abcdef");

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

/** The 128-bit mix of (a, b, c, d) into `out[0..3]`. */
function mix(a: number, b: number, c: number, d: number, out: Uint32Array): void {
  let x0 = (a + K0) | 0, x1 = (b + K1) | 0, x2 = (c + K2) | 0, x3 = (d + K3) | 0;
  for (let r = 0; r < ROUNDS; r++) {
    const ra = ROUNDS_A[r & 7], rb = ROUNDS_B[r & 7];
    x0 = (x0 + x1) | 0;
    x1 = ((x1 << ra) | (x1 >>> (32 - ra))) ^ x0;
    x2 = (x2 + x3) | 0;
    x3 = ((x3 << rb) | (x3 >>> (32 - rb))) ^ x2;
    // Threefry's permutation of four words: swap words 1 and 3.
    const t = x1;
    x1 = x3;
    x3 = t;
    if ((r & 3) === 3) {
      const s = (r + 1) >> 2;
      x0 = (x0 + KEYS[s % 5]) | 0;
      x1 = (x1 + KEYS[(s + 1) % 5]) | 0;
      x2 = (x2 + KEYS[(s + 2) % 5]) | 0;
      x3 = (x3 + KEYS[(s + 3) % 5] + s) | 0;
    }
  }
  out[0] = x0;
  out[1] = x1;
  out[2] = x2;
  out[3] = x3;
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
  for (let i = 7; i >= 0; i--) {
    bytes[at + i] = HEX[word & 15];
    word >>>= 4;
  }
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
