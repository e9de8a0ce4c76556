/**
 * Everything HdrHistogram, in one module: the project-wide configuration, the histogram type (the
 * npm boundary is `_hdr.ts`, private to this folder), the reference V2 compressed encoding used in
 * result JSON, and the .hlog writer and reader (`hlog.ts`, `hlog_reader.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram, decodeHistogram, encodeHistogram } from "./mod.ts";
 * const h = createHistogram();
 * h.recordValue(1_250);
 * const base64 = encodeHistogram(h);
 * assert.equal(decodeHistogram(base64).getValueAtPercentile(99), 1250);
 * ```
 *
 * @module
 */
export { createHistogram, maxRecordableUs } from "./_hdr.ts";
export type { Histogram, RecordedValue, SparseCounts } from "./_hdr.ts";
export { decodeHistogram, encodeHistogram, HdrCodecError } from "./hdr_codec.ts";
export { mergeEncodedHistograms, toEncodedHistogram } from "./encoded_histogram.ts";
export type { CodecOptions } from "./hdr_codec.ts";
export { HISTOGRAM_CONFIG } from "./histogram_config.ts";
export type { HistogramConfig, HistogramLayout } from "./histogram_config.ts";
export { bucketGeometry, countsIndexOf } from "./histogram_config.ts";
export { msToRecordableUs } from "./encoded_histogram.ts";
export { HLOG_LEGEND, renderHlog } from "./hlog.ts";
export type { HlogEntry, HlogLog } from "./hlog_reader.ts";
export { HlogParseError, parseHlog } from "./hlog_reader.ts";
