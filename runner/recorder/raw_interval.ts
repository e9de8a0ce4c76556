/**
 * A closed interval as the engine thread hands it over: counts and the histograms' non-empty
 * buckets, not yet summarised or encoded (a closed stage's labels are kept the same way). Turning
 * it into an {@linkcode IntervalResult} (percentiles, deflate, base64) costs about a millisecond
 * per histogram, which is why that work runs off the engine thread (interval_store.ts).
 *
 * @module
 */
import type { EncodedHistogram, IntervalResult, LabelResult, RequestCounts } from "../model/mod.ts";
import { createHistogram, type Histogram, type SparseCounts } from "../hdr/mod.ts";
import { toEncodedHistogram } from "../hdr/mod.ts";
import { addCounts, emptyCounts } from "../model/mod.ts";
import { emptyEncodedHistogram } from "./empty_histogram.ts";

/** One label's share of a closed interval or stage. */
export interface RawLabel {
  label: string;
  counts: RequestCounts;
  response: SparseCounts;
  service: SparseCounts;
  /** Time to first byte; absent when the label had no first byte there. */
  ttfb?: SparseCounts;
}

/** A closed interval before encoding. Rates are already per second. */
export interface RawInterval {
  startMs: number;
  durationMs: number;
  stageIndex: number;
  sentPerSec: number;
  completedPerSec: number;
  labels: RawLabel[];
}

/** Labels encoded, and their whole. */
export interface EncodedLabels {
  counts: RequestCounts;
  response: EncodedHistogram;
  service: EncodedHistogram;
  /** Time to first byte, when a label has it. */
  ttfb?: EncodedHistogram;
  labels: LabelResult[];
}

/**
 * The four histograms an encoding works in (the whole's response, service and first-byte times,
 * and one label's), 188 KB each: an encoder that keeps one set reuses them for every interval
 * instead of leaving 752 KB of buffers a second for its garbage collector.
 */
export interface EncodeScratch {
  response: Histogram;
  service: Histogram;
  ttfb: Histogram;
  label: Histogram;
}

/** A fresh {@linkcode EncodeScratch}. */
export function createEncodeScratch(): EncodeScratch {
  return {
    response: createHistogram(),
    service: createHistogram(),
    ttfb: createHistogram(),
    label: createHistogram(),
  };
}

/**
 * Summarises and encodes a raw interval; the interval's whole is the exact merge of its labels.
 * `scratch` is emptied and used (a new one by default).
 */
export function encodeRawInterval(
  raw: RawInterval,
  scratch: EncodeScratch = createEncodeScratch(),
): IntervalResult {
  const { counts, response, service, ttfb, labels } = encodeRawLabels(raw.labels, scratch);
  return {
    startMs: raw.startMs,
    durationMs: raw.durationMs,
    stageIndex: raw.stageIndex,
    intendedPerSec: counts.scheduled / (raw.durationMs / 1000),
    sentPerSec: raw.sentPerSec,
    completedPerSec: raw.completedPerSec,
    counts,
    response,
    service,
    ...(ttfb === undefined ? {} : { ttfb }),
    labels,
  };
}

/**
 * Encodes the labels of an interval or a stage, and their whole: counts added, histograms merged
 * exactly (one label: its own figures are the whole). `scratch` is emptied and used.
 */
export function encodeRawLabels(
  raw: readonly RawLabel[],
  { response, service, ttfb, label: scratch }: EncodeScratch = createEncodeScratch(),
): EncodedLabels {
  response.reset();
  service.reset();
  ttfb.reset();
  let anyTtfb = false;
  const counts = emptyCounts();
  // One scratch histogram encodes every label's: a label is a few buckets, its layout 188 KB.
  const labels: LabelResult[] = raw.map((l) => {
    response.addSparse(l.response);
    service.addSparse(l.service);
    addCounts(counts, l.counts);
    const label: LabelResult = {
      label: l.label,
      counts: l.counts,
      response: encodeSparse(l.response, scratch),
      service: encodeSparse(l.service, scratch),
    };
    if (l.ttfb !== undefined) {
      anyTtfb = true;
      ttfb.addSparse(l.ttfb);
      label.ttfb = encodeSparse(l.ttfb, scratch);
    }
    return label;
  });
  if (labels.length === 1) {
    return {
      counts: labels[0].counts,
      response: labels[0].response,
      service: labels[0].service,
      ...(labels[0].ttfb === undefined ? {} : { ttfb: labels[0].ttfb }),
      labels,
    };
  }
  return {
    counts,
    response: toEncodedHistogram(response),
    service: toEncodedHistogram(service),
    ...(anyTtfb ? { ttfb: toEncodedHistogram(ttfb) } : {}),
    labels,
  };
}

/** Encodes sparse counts through `scratch` (emptied first); no bucket: the empty histogram. */
function encodeSparse(sparse: SparseCounts, scratch: Histogram): EncodedHistogram {
  if (sparse.indexes.length === 0) return emptyEncodedHistogram();
  scratch.reset();
  scratch.addSparse(sparse);
  return toEncodedHistogram(scratch);
}
