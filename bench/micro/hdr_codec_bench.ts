/**
 * Cost of recording into, encoding and decoding a latency histogram.
 * Run with `deno task bench`.
 *
 * @module
 */
import { createHistogram, decodeHistogram, encodeHistogram } from "../../runner/hdr/mod.ts";

const valuesUs = Array.from({ length: 100_000 }, (_, i) => {
  const x = Math.sin(i) * 1e4;
  return Math.floor((x - Math.floor(x)) ** 4 * 10_000_000);
});
const histogram = createHistogram();
for (const v of valuesUs) histogram.recordValue(v);
const usBase64 = encodeHistogram(histogram);
const nsBase64 = encodeHistogram(histogram, { unitScale: 1000 });

Deno.bench("record 100k values", () => {
  const h = createHistogram();
  for (const v of valuesUs) h.recordValue(v);
});
Deno.bench("encode (us)", () => {
  encodeHistogram(histogram);
});
Deno.bench("encode (ns, unitScale 1000)", () => {
  encodeHistogram(histogram, { unitScale: 1000 });
});
Deno.bench("decode (us)", () => {
  decodeHistogram(usBase64);
});
Deno.bench("decode (ns, unitScale 1000)", () => {
  decodeHistogram(nsBase64, { unitScale: 1000 });
});
