/**
 * A histogram as the result document stores it: the encoded distribution and a summary read off
 * that same histogram.
 *
 * @module
 */
import type { EncodedHistogram } from "../model/mod.ts";
import { createHistogram, type Histogram, maxRecordableUs } from "./_hdr.ts";
import { decodeHistogram, encodeHistogram } from "./hdr_codec.ts";

/** The percentiles every summary carries. */
export const SUMMARY_PERCENTILES = [50, 90, 99, 99.9, 99.99] as const;

/**
 * Encodes a histogram with its summary.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "./_hdr.ts";
 * import { toEncodedHistogram } from "./encoded_histogram.ts";
 * const h = createHistogram();
 * h.recordValue(150);
 * assert.equal(toEncodedHistogram(h).percentilesUs["99"], 150);
 * ```
 */
export function toEncodedHistogram(h: Histogram): EncodedHistogram {
  const percentilesUs: Record<string, number> = {};
  for (const p of SUMMARY_PERCENTILES) percentilesUs[String(p)] = h.getValueAtPercentile(p);
  return {
    count: h.totalCount,
    minUs: h.minNonZeroValue,
    maxUs: h.maxValue,
    meanUs: Math.round(h.mean * 1000) / 1000,
    percentilesUs,
    hdr: encodeHistogram(h),
  };
}

/**
 * Merges encoded histograms exactly (decode, add, re-encode): never averages their summaries.
 */
export function mergeEncodedHistograms(parts: readonly EncodedHistogram[]): EncodedHistogram {
  const total = createHistogram();
  for (const part of parts) total.add(decodeHistogram(part.hdr));
  return toEncodedHistogram(total);
}

/**
 * Converts milliseconds to a recordable whole number of microseconds (clamped to the range).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { msToRecordableUs } from "./encoded_histogram.ts";
 * assert.equal(msToRecordableUs(1.2345), 1235);
 * ```
 */
export function msToRecordableUs(ms: number): number {
  const us = Math.round(ms * 1000);
  return us <= 0 ? 0 : us > maxRecordableUs ? maxRecordableUs : us;
}
