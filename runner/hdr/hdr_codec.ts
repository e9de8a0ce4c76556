/**
 * The reference HdrHistogram V2 compressed encoding (what Java's `encodeIntoCompressedByteBuffer`
 * and Rust's `V2DeflateSerializer` write), as base64: the format of histograms in tailgate's
 * result JSON and .hlog files.
 *
 * Layout (big-endian): cookie 0x1c849314, zlib length, zlib of the payload. The payload is cookie
 * 0x1c849313, counts length, normalizingIndexOffset 0, significant digits, lowest discernible and
 * highest trackable value (int64), integerToDoubleValueConversionRatio (double 1.0), then the
 * counts array up to the max value's bucket as ZigZag LEB128 longs, a run of N zero counts (N > 1)
 * written as -N.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { deflateSync, inflateSync } from "node:zlib";
import { createHistogram, type Histogram } from "./_hdr.ts";
import {
  type BucketGeometry,
  bucketGeometry,
  bucketRangeAt,
  countsIndexOf,
  HISTOGRAM_CONFIG,
  scaledLayout,
} from "./histogram_config.ts";

const COMPRESSED_COOKIE_BASE = 0x1c849304;
const PAYLOAD_COOKIE_BASE = 0x1c849303;
const WORD_SIZE_BITS = 0x10; // set by every V2 writer; readers mask it off
const HEADER_BYTES = 40;

/**
 * Thrown when a string is not a decodable V2 histogram, or a histogram cannot be encoded.
 */
export class HdrCodecError extends Error {
  /** The error's name, `HdrCodecError`. */
  override name = "HdrCodecError";
}

/**
 * Options of {@linkcode encodeHistogram} and {@linkcode decodeHistogram}. `unitScale` (a positive
 * integer, default 1) multiplies values, e.g. 1000 to write nanoseconds in .hlog files; a scaled
 * encoding uses {@linkcode scaledLayout} (see there why it keeps percentiles exact), and decoding
 * with the same `unitScale` restores the microsecond histogram exactly.
 */
export interface CodecOptions {
  /** Multiplier of values in the encoding (a positive integer; default 1, 1000 for nanoseconds). */
  readonly unitScale?: number;
}

/**
 * Encodes a histogram as base64 of the reference V2 compressed encoding.
 */
export function encodeHistogram(histogram: Histogram, options: CodecOptions = {}): string {
  const scale = unitScaleOf(options);
  const layout = scale === 1 ? HISTOGRAM_CONFIG : scaledLayout(HISTOGRAM_CONFIG, scale);
  const geometry = bucketGeometry(layout);
  const source = bucketGeometry(HISTOGRAM_CONFIG);
  const entries: Array<[index: number, count: number]> = [];
  for (const { valueUs, count } of histogram.recordedValues()) {
    const sourceIndex = countsIndexOf(source, valueUs);
    const index = scale === 1
      ? sourceIndex
      : countsIndexOf(geometry, scale * (bucketRangeAt(source, sourceIndex).highest + 1)) - 1;
    if (index >= geometry.countsLength || index <= (entries.at(-1)?.[0] ?? -1)) {
      throw new HdrCodecError(`cannot place ${valueUs} us at unit scale ${scale}`);
    }
    entries.push([index, count]);
  }
  const payload = new Uint8Array(HEADER_BYTES + 9 * (2 * entries.length + 1));
  const view = new DataView(payload.buffer);
  view.setUint32(0, PAYLOAD_COOKIE_BASE | WORD_SIZE_BITS);
  view.setUint32(8, 0); // normalizingIndexOffset
  view.setUint32(12, layout.significantValueDigits);
  view.setBigUint64(16, BigInt(layout.lowestDiscernibleValue));
  view.setBigUint64(24, BigInt(layout.highestTrackableValue));
  view.setFloat64(32, 1.0); // integerToDoubleValueConversionRatio
  let end = HEADER_BYTES;
  let previous = -1;
  for (const [index, count] of entries) {
    const zeros = index - previous - 1;
    if (zeros > 0) end = writeZigZag(payload, end, zeros === 1 ? 0 : -zeros);
    end = writeZigZag(payload, end, count);
    previous = index;
  }
  if (entries.length === 0) end = writeZigZag(payload, end, 0); // as Java/Rust: index 0's count
  view.setUint32(4, end - HEADER_BYTES);
  const compressed = deflateSync(payload.subarray(0, end));
  const head = Buffer.alloc(8);
  head.writeUInt32BE((COMPRESSED_COOKIE_BASE | WORD_SIZE_BITS) >>> 0, 0);
  head.writeUInt32BE(compressed.length, 4);
  return Buffer.concat([head, compressed]).toString("base64");
}

/**
 * Decodes a base64 V2 compressed histogram (reference writers, and hdr-histogram-js's variant
 * with normalizingIndexOffset 1 and an integer ratio) into a histogram in the project config.
 * Each bucket's count is recorded at its highest equivalent value divided by `unitScale`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "./_hdr.ts";
 * import { decodeHistogram, encodeHistogram } from "./hdr_codec.ts";
 * const h = createHistogram();
 * h.recordValueWithCount(800, 5);
 * assert.equal(decodeHistogram(encodeHistogram(h)).getValueAtPercentile(50), 800);
 * ```
 */
export function decodeHistogram(base64: string, options: CodecOptions = {}): Histogram {
  const scale = unitScaleOf(options);
  const outer = Buffer.from(base64, "base64");
  if (outer.length < 8 || (outer.readUInt32BE(0) & ~0xf0) !== COMPRESSED_COOKIE_BASE) {
    throw new HdrCodecError("not a V2 compressed histogram (bad cookie)");
  }
  const compressedLength = outer.readUInt32BE(4);
  if (compressedLength > outer.length - 8) throw new HdrCodecError("truncated histogram");
  let payload: Buffer;
  try {
    payload = inflateSync(outer.subarray(8, 8 + compressedLength));
  } catch (cause) {
    throw new HdrCodecError("corrupt zlib data in histogram", { cause });
  }
  if (payload.length < HEADER_BYTES || (payload.readUInt32BE(0) & ~0xf0) !== PAYLOAD_COOKIE_BASE) {
    throw new HdrCodecError("not a V2 histogram payload (bad cookie)");
  }
  const [countsBytes, offset] = [payload.readUInt32BE(4), payload.readUInt32BE(8)];
  const jsVariant = offset === 1 && payload.readBigUInt64BE(32) === 1n; // ratio as integer 1
  if (!jsVariant && (offset !== 0 || payload.readDoubleBE(32) !== 1.0)) {
    throw new HdrCodecError("unsupported: normalizingIndexOffset or value conversion ratio");
  }
  if (countsBytes > payload.length - HEADER_BYTES) throw new HdrCodecError("truncated counts");
  let geometry: BucketGeometry;
  try {
    geometry = bucketGeometry({
      significantValueDigits: payload.readUInt32BE(12),
      lowestDiscernibleValue: Number(payload.readBigUInt64BE(16)),
      highestTrackableValue: Number(payload.readBigUInt64BE(24)),
    });
  } catch (cause) {
    throw new HdrCodecError("invalid histogram parameters", { cause });
  }
  const histogram = createHistogram();
  const end = HEADER_BYTES + countsBytes;
  let index = 0;
  for (let at = HEADER_BYTES; at < end;) {
    const [value, next] = readZigZag(payload, at, end);
    at = next;
    if (value > 0 && index < geometry.countsLength) {
      const valueUs = Math.floor(bucketRangeAt(geometry, index).highest / scale);
      try {
        histogram.recordValueWithCount(valueUs, value);
      } catch (cause) {
        throw new HdrCodecError(`count at ${valueUs} us does not fit the histogram`, { cause });
      }
    }
    index += value < 0 ? -value : 1;
    if (index > geometry.countsLength) throw new HdrCodecError("counts array too long");
  }
  return histogram;
}

function unitScaleOf(options: CodecOptions): number {
  const scale = options.unitScale ?? 1;
  if (!Number.isSafeInteger(scale) || scale < 1) {
    throw new RangeError(`unitScale must be a positive integer, got ${scale}`);
  }
  return scale;
}

/** Writes a safe integer as ZigZag LEB128 (7 bits a byte, a 9th byte of 8 bits). */
function writeZigZag(out: Uint8Array, at: number, value: number): number {
  let rest = value >= 0 ? 2 * value : -2 * value - 1; // exact: |value| <= 2^53
  for (let i = 0; i < 8 && rest >= 0x80; i++) {
    out[at++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  out[at++] = rest;
  return at;
}

function readZigZag(bytes: Uint8Array, at: number, end: number): [value: number, next: number] {
  let zigZag = 0n;
  for (let i = 0n;; i++) {
    if (at >= end) throw new HdrCodecError("truncated count");
    const byte = BigInt(bytes[at++]);
    zigZag |= (i === 8n ? byte : byte & 0x7fn) << (7n * i);
    if (i === 8n || byte < 0x80n) break;
  }
  const value = Number((zigZag >> 1n) ^ -(zigZag & 1n));
  if (!Number.isSafeInteger(value)) throw new HdrCodecError("count beyond 2^53");
  return [value, at];
}
