/**
 * The only importer of `npm:snappyjs`: Google's snappy in pure JavaScript, the block format (no
 * framing) that Prometheus remote write compresses its bodies with. Private to this folder.
 *
 * @module
 */
import snappyjs from "npm:snappyjs@0.7.0";

// The part of the library's API used here (the package ships no types).
const snappy = snappyjs as {
  compress(bytes: Uint8Array): Uint8Array;
  uncompress(compressed: Uint8Array): Uint8Array;
};

/**
 * `bytes` compressed in snappy's block format.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { snappyCompress, snappyUncompress } from "./_snappy.ts";
 * const text = new TextEncoder().encode("tailgate tailgate tailgate");
 * assert.deepEqual(snappyUncompress(snappyCompress(text)), text);
 * ```
 */
export function snappyCompress(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return toPlain(snappy.compress(bytes));
}

/** The bytes `compressed` (snappy block format) stands for; throws on a corrupt block. */
export function snappyUncompress(compressed: Uint8Array): Uint8Array {
  return toPlain(snappy.uncompress(compressed));
}

// Under Deno's Node compatibility the library may hand back a Buffer: a plain Uint8Array view
// (of the ArrayBuffer the library allocated, so fetch takes it as a body).
function toPlain(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}
