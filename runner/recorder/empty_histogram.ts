/**
 * The empty histogram, as the result stores it and as the recorder hands it over: what a label
 * with no request in a stage or second gets, without a 188 KB histogram allocated for it.
 *
 * @module
 */
import type { EncodedHistogram } from "../model/mod.ts";
import { createHistogram, type SparseCounts } from "../hdr/mod.ts";
import { toEncodedHistogram } from "../hdr/mod.ts";

let encoded: EncodedHistogram | undefined;

/**
 * An empty histogram's encoding and summary (computed once; each call returns a copy).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { emptyEncodedHistogram } from "./empty_histogram.ts";
 * assert.equal(emptyEncodedHistogram().count, 0);
 * ```
 */
export function emptyEncodedHistogram(): EncodedHistogram {
  encoded ??= toEncodedHistogram(createHistogram());
  return { ...encoded, percentilesUs: { ...encoded.percentilesUs } };
}

/**
 * An empty histogram's non-empty buckets: none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EMPTY_SPARSE } from "./empty_histogram.ts";
 * assert.equal(EMPTY_SPARSE.indexes.length, 0);
 * ```
 */
export const EMPTY_SPARSE: SparseCounts = Object.freeze({
  indexes: new Uint32Array(0),
  counts: new Float64Array(0),
});
