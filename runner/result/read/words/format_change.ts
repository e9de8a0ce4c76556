/**
 * How a change against a baseline or a base build is written for people: always with its
 * direction in words ("9.2% better", "10.4% worse"), never as a signed "worse" ("-9.2% worse"),
 * whatever the metric (a throughput's drop is worse, a latency's drop better). The regression
 * gate, the A/B comparison and `tailgate compare` all write changes through it.
 *
 * @module
 */

/**
 * A change in the worse direction (+0.104: 10.4% worse; −0.092: 9.2% better), as a fraction, or in
 * percentage points when `points` (an error rate's difference: 0.0012 is 0.12 points).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatChange } from "./format_change.ts";
 * assert.equal(formatChange(0.104), "10.4% worse");
 * assert.equal(formatChange(-0.092), "9.2% better");
 * assert.equal(formatChange(0.0012, true), "0.12 points worse");
 * assert.equal(formatChange(0), "no change");
 * ```
 */
export function formatChange(worse: number, points = false): string {
  if (Number.isNaN(worse)) return "-";
  if (!Number.isFinite(worse)) return worse > 0 ? "infinitely worse" : "infinitely better";
  const size = points
    ? `${+Math.abs(worse * 100).toFixed(2)} points`
    : `${+Math.abs(worse * 100).toFixed(1)}%`;
  if (/^0(\.0+)?(%| points)$/.test(size)) return "no change";
  return `${size} ${worse > 0 ? "worse" : "better"}`;
}

/**
 * A change's interval, each end in words: "3.1% better to 12.9% worse".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatChangeRange } from "./format_change.ts";
 * assert.equal(formatChangeRange(-0.031, 0.129), "3.1% better to 12.9% worse");
 * assert.equal(formatChangeRange(-Infinity, Infinity), "-");
 * ```
 */
export function formatChangeRange(low: number, high: number, points = false): string {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return "-";
  return `${formatChange(low, points)} to ${formatChange(high, points)}`;
}
