/**
 * The vectors in tests/testdata/hdr/reference_v2_vectors.json were produced once, outside this
 * repository, by a small Rust program using the `hdrhistogram` crate 7.6.0 from crates.io: it
 * built histograms with the project config (1 us .. 3_600_000_000 us, 3 digits), serialized them
 * with `V2DeflateSerializer`, and wrote the crate's own readings (total, min non-zero, max,
 * percentiles, recorded buckets). It then decoded tailgate's encodings of the same histograms
 * (microseconds and `unitScale: 1000` nanoseconds) with the crate's `Deserializer` and recorded
 * those readings too ("readByReference").
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { deflateSync, inflateSync } from "node:zlib";
import { createHistogram, maxRecordableUs } from "../../../runner/hdr/_hdr.ts";
import { decodeHistogram, encodeHistogram, HdrCodecError } from "../../../runner/hdr/hdr_codec.ts";
import {
  bucketGeometry,
  bucketRangeAt,
  countsIndexOf,
  HISTOGRAM_CONFIG,
} from "../../../runner/hdr/histogram_config.ts";
import {
  assertSameHistogram,
  bucketsOf,
  histogramOf,
  seededHistogram,
} from "../../_helpers/histogram_assertions.ts";

interface Readings {
  layout: { lowestDiscernibleValue: number; highestTrackableValue: number };
  totalCount: number;
  minNonZero: number | null;
  max: number;
  percentiles: Array<[number, number]>;
  recorded: Array<[number, number]>;
}
interface Vectors {
  reference: Array<Readings & { name: string; base64: string }>;
  readByReference: Array<
    { name: string; unitScale: number; base64: string; rustDecoded: Readings }
  >;
}

const vectors: Vectors = JSON.parse(
  await Deno.readTextFile(new URL("../../testdata/hdr/reference_v2_vectors.json", import.meta.url)),
);
const referenceByName = new Map(vectors.reference.map((v) => [v.name, v]));
const usGeometry = bucketGeometry(HISTOGRAM_CONFIG);
const usBucketOf = (valueUs: number) =>
  bucketRangeAt(usGeometry, countsIndexOf(usGeometry, valueUs));

/** The inflated V2 payload (header + counts) of a base64 compressed encoding. */
function payloadOf(base64: string): Buffer {
  const bytes = Buffer.from(base64, "base64");
  return inflateSync(bytes.subarray(8, 8 + bytes.readUInt32BE(4)));
}

/** LEB128 bytes of a non-negative integer below 2^31. */
function leb128(value: number): number[] {
  const bytes = [];
  for (; value >= 0x80; value >>>= 7) bytes.push((value & 0x7f) | 0x80);
  return [...bytes, value];
}

/** Re-wraps a (possibly altered) payload as a base64 compressed encoding. */
function wrap(payload: Uint8Array): string {
  const compressed = deflateSync(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(0x1c849314, 0);
  head.writeUInt32BE(compressed.length, 4);
  return Buffer.concat([head, compressed]).toString("base64");
}

Deno.test("decoder reads every reference vector with the reference's counts and percentiles", () => {
  assert.equal(vectors.reference.length, 6);
  for (const v of vectors.reference) {
    const h = decodeHistogram(v.base64);
    assert.deepEqual(bucketsOf(h), v.recorded, v.name);
    assert.equal(h.totalCount, v.totalCount, v.name);
    assert.equal(h.maxValue, v.max, v.name);
    assert.equal(h.minNonZeroValue, v.minNonZero ?? 0, v.name);
    for (const [p, value] of v.percentiles) assert.equal(h.getValueAtPercentile(p), value, v.name);
  }
});

Deno.test("encoder writes the same uncompressed payload bytes as the reference serializer", () => {
  for (const v of vectors.reference) {
    const ours = encodeHistogram(histogramOf(v.recorded));
    assert.deepEqual(payloadOf(ours), payloadOf(v.base64), v.name);
    assert.equal(Buffer.from(ours, "base64").readUInt32BE(0), 0x1c849314, v.name);
  }
});

Deno.test("the reference decoder read our microsecond encodings exactly, and we still emit them", () => {
  const usEncodings = vectors.readByReference.filter((e) => e.unitScale === 1);
  assert.equal(usEncodings.length, vectors.reference.length);
  for (const e of usEncodings) {
    const source = referenceByName.get(e.name)!;
    const { layout, ...readings } = e.rustDecoded;
    assert.equal(layout.highestTrackableValue, HISTOGRAM_CONFIG.highestTrackableValue);
    const { name: _n, base64: _b, layout: _l, ...expected } = source;
    assert.deepEqual(readings, expected, e.name);
    assert.deepEqual(payloadOf(encodeHistogram(histogramOf(source.recorded))), payloadOf(e.base64));
  }
});

Deno.test("nanosecond encodings land every bucket, percentile and max in the scaled us bucket", () => {
  const nsEncodings = vectors.readByReference.filter((e) => e.unitScale === 1000);
  assert.equal(nsEncodings.length, 4);
  for (const e of nsEncodings) {
    const source = referenceByName.get(e.name)!;
    const read = e.rustDecoded;
    assert.equal(read.layout.highestTrackableValue, 3_600_000_000_000);
    assert.equal(read.totalCount, source.totalCount);
    const inUsBucket = (ns: number, us: number) => {
      const { lowest, highest } = usBucketOf(us);
      assert.ok(ns >= lowest * 1000 && ns <= highest * 1000 + 999, `${e.name}: ${ns} ns vs ${us}`);
    };
    assert.equal(read.recorded.length, source.recorded.length);
    read.recorded.forEach(([ns, count], i) => {
      inUsBucket(ns, source.recorded[i][0]);
      assert.equal(count, source.recorded[i][1]);
    });
    read.percentiles.forEach(([, ns], i) => inUsBucket(ns, source.percentiles[i][1]));
    inUsBucket(read.max, source.max);
    const h = histogramOf(source.recorded);
    assert.deepEqual(payloadOf(encodeHistogram(h, { unitScale: 1000 })), payloadOf(e.base64));
    assertSameHistogram(decodeHistogram(e.base64, { unitScale: 1000 }), h);
  }
});

Deno.test("round trip keeps every bucket count, percentile, min and max", () => {
  for (const seed of [1, 2, 3]) {
    const h = seededHistogram(seed, 20_000);
    assertSameHistogram(decodeHistogram(encodeHistogram(h)), h);
    assertSameHistogram(
      decodeHistogram(encodeHistogram(h, { unitScale: 1000 }), { unitScale: 1000 }),
      h,
    );
  }
});

Deno.test("round trip covers the extremes: zeros, 1 us, the top bucket and counts near 2^53", () => {
  const h = histogramOf([[0, 4], [1, 1], [maxRecordableUs, 2 ** 52], [2047, 2 ** 50 + 1]]);
  assertSameHistogram(decodeHistogram(encodeHistogram(h)), h);
  assertSameHistogram(
    decodeHistogram(encodeHistogram(h, { unitScale: 1000 }), { unitScale: 1000 }),
    h,
  );
  const empty = createHistogram();
  assertSameHistogram(
    decodeHistogram(encodeHistogram(empty, { unitScale: 1000 }), { unitScale: 1000 }),
    empty,
  );
});

Deno.test("hdr-histogram-js's own encoder deviates from the reference header; we read it anyway", async () => {
  // The library's own encoding of this histogram, recorded once (the file's note says how).
  const library = JSON.parse(
    await Deno.readTextFile(
      new URL("../../testdata/hdr/library_native_encoding.json", import.meta.url),
    ),
  );
  const h = seededHistogram(library.seed, library.samples);
  const native = payloadOf(library.base64);
  const ours = payloadOf(encodeHistogram(h));
  assert.equal(native.readUInt32BE(8), 1, "library writes normalizingIndexOffset 1");
  assert.equal(ours.readUInt32BE(8), 0, "reference writes normalizingIndexOffset 0");
  assert.equal(native.readBigUInt64BE(32), 1n, "library writes the ratio as the integer 1");
  assert.equal(ours.readDoubleBE(32), 1.0, "reference writes the ratio as the double 1.0");
  assert.deepEqual(native.subarray(40), ours.subarray(40), "counts are encoded alike");
  assertSameHistogram(decodeHistogram(library.base64), h);
});

Deno.test("decoder rejects what reference decoders reject and malformed input", () => {
  const good = payloadOf(encodeHistogram(seededHistogram(4, 100)));
  const altered = (at: number, write: (b: Buffer) => void) => {
    const copy = Buffer.from(good);
    write(copy.subarray(at));
    return wrap(copy);
  };
  const bad = [
    altered(8, (b) => b.writeUInt32BE(2)), // normalizingIndexOffset
    altered(32, (b) => b.writeDoubleBE(1000)), // DoubleHistogram-style ratio
    altered(0, (b) => b.writeUInt32BE(0x1c849301)), // V1 cookie
    altered(4, (b) => b.writeUInt32BE(good.length)), // counts length beyond the payload
    wrap(good.subarray(0, good.length - 1)), // truncated last count
    Buffer.from("not a histogram").toString("base64"),
    encodeHistogram(createHistogram()).slice(0, 20),
  ];
  for (const base64 of bad) assert.throws(() => decodeHistogram(base64), HdrCodecError);
});

Deno.test("decoder refuses a foreign count above the 1-hour range rather than dropping it", () => {
  const layout = { ...HISTOGRAM_CONFIG, highestTrackableValue: 2 ** 40 };
  const geometry = bucketGeometry(layout);
  const index = countsIndexOf(geometry, 2 ** 39); // ~152 hours
  const header = Buffer.from(payloadOf(encodeHistogram(createHistogram())).subarray(0, 40));
  header.writeUInt32BE(2 ** 8, 24); // highestTrackableValue 2^40
  const counts = [...leb128(2 * index - 1), 2]; // zigzag(-index) then zigzag(1)
  header.writeUInt32BE(counts.length, 4);
  const base64 = wrap(Buffer.concat([header, Buffer.from(counts)]));
  assert.throws(() => decodeHistogram(base64), HdrCodecError);
  const bucketTopNs = bucketRangeAt(geometry, index).highest; // read as nanoseconds it fits
  const expectedMaxUs = usBucketOf(Math.floor(bucketTopNs / 1000)).highest;
  assert.equal(decodeHistogram(base64, { unitScale: 1000 }).maxValue, expectedMaxUs);
});

Deno.test("unitScale must be a positive integer", () => {
  for (const unitScale of [0, -1000, 1.5, Number.NaN]) {
    assert.throws(() => encodeHistogram(createHistogram(), { unitScale }), RangeError);
    assert.throws(
      () => decodeHistogram(encodeHistogram(createHistogram()), { unitScale }),
      RangeError,
    );
  }
});
