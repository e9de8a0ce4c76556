/**
 * Rewrites the rates inside an SLO line (its `at` rate, a `throughput` bound) and leaves the rest
 * as written: how an SLO follows its stages when a command line scales them. Pure.
 *
 * @module
 */

/** The new texts; an absent one is left as written. */
export interface SloRates {
  /** The new `at` rate (`5k/s`). */
  atRate?: string;
  /** The new bound of a `throughput` SLO (`4.9k/s`). */
  bound?: string;
}

/**
 * The SLO text with its `at` rate or `throughput` bound replaced.
 *
 * @example
 * ```ts
 * import { rewriteSloRates } from "./slo_rewrite.ts";
 * rewriteSloRates('p99 < 10ms at 20k/s for "GET /at 1k/s"', { atRate: "5k/s" });
 * // 'p99 < 10ms at 5k/s for "GET /at 1k/s"'
 * rewriteSloRates("throughput >= 19.5k/s", { bound: "4.875k/s" }); // "throughput >= 4.875k/s"
 * ```
 */
export function rewriteSloRates(text: string, rates: SloRates): string {
  // The label (`for "…"`) is free text: only what comes before it is rewritten.
  const forAt = text.search(/\s+for\s+"/);
  let head = forAt < 0 ? text : text.slice(0, forAt);
  const tail = forAt < 0 ? "" : text.slice(forAt);
  if (rates.atRate !== undefined) {
    head = head.replace(
      /(\bat\s+)(\S+)(\s*)$/,
      (_, at, _rate, space) => `${at}${rates.atRate}${space}`,
    );
  }
  if (rates.bound !== undefined) {
    head = head.replace(
      /^(\s*throughput\s*(?:<=|>=|<|>)\s*)(\S+)/,
      (_, lead) => `${lead}${rates.bound}`,
    );
  }
  return head + tail;
}
