/**
 * Intended send times within one stage, computed from the request's index (never by adding an
 * interval to the previous time, which drifts). A stage is described by its cumulative count
 * C(t) = r0·t + (r1 − r0)·t² / (2T): request k is due when C(t) = k, so a constant stage spaces
 * requests 1/r apart and a ramp's instantaneous rate follows the line from r0 to r1 exactly.
 * Poisson arrivals map a unit-rate Poisson process through the same inverse (time rescaling).
 *
 * @module
 */

/** A stage's rate profile in the units the math wants: requests per second and seconds. */
export interface RateProfile {
  fromPerSec: number;
  toPerSec: number;
  durationMs: number;
}

/**
 * Expected requests in a stage, C(T): rate × duration for constant stages, the mean rate ×
 * duration for ramps.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { expectedCount } from "./fire_times.ts";
 * assert.equal(expectedCount({ fromPerSec: 20_000, toPerSec: 20_000, durationMs: 60_000 }), 1_200_000);
 * assert.equal(expectedCount({ fromPerSec: 1_000, toPerSec: 3_000, durationMs: 10_000 }), 20_000);
 * ```
 */
export function expectedCount(p: RateProfile): number {
  return (p.fromPerSec + p.toPerSec) / 2 * (p.durationMs / 1000);
}

/**
 * How many evenly scheduled requests fall in the stage: those with C⁻¹(k) < T, i.e. k < C(T).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scheduledCount } from "./fire_times.ts";
 * assert.equal(scheduledCount({ fromPerSec: 3, toPerSec: 3, durationMs: 1_500 }), 5); // (at 0, 333, 667, 1000, 1333 ms)
 * ```
 */
export function scheduledCount(p: RateProfile): number {
  // The epsilon keeps an exact product (20k/s × 60s) from gaining a request to float noise.
  return Math.max(0, Math.ceil(expectedCount(p) - 1e-9));
}

/**
 * Offset in ms from the stage's start at which the cumulative count reaches `k` (k may be
 * fractional: Poisson arrivals pass the unit-rate arrival time).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { offsetAtCountMs } from "./fire_times.ts";
 * assert.equal(offsetAtCountMs({ fromPerSec: 20_000, toPerSec: 20_000, durationMs: 60_000 }, 3), 0.15);
 * ```
 */
export function offsetAtCountMs(p: RateProfile, k: number): number {
  if (k <= 0) return 0;
  const r0 = p.fromPerSec;
  const seconds = p.durationMs / 1000;
  const slope = (p.toPerSec - r0) / seconds; // d(rate)/dt
  if (slope === 0) return (k / r0) * 1000;
  // Solve r0·t + slope·t²/2 = k in the form that stays exact as slope → 0.
  const disc = r0 * r0 + 2 * slope * k;
  if (disc <= 0) return p.durationMs; // beyond what a falling ramp reaches
  return (2 * k / (r0 + Math.sqrt(disc))) * 1000;
}

/**
 * The intended rate (per second) `offsetMs` into the stage.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rateAtMs } from "./fire_times.ts";
 * assert.equal(rateAtMs({ fromPerSec: 1_000, toPerSec: 3_000, durationMs: 10_000 }, 5_000), 2000);
 * ```
 */
export function rateAtMs(p: RateProfile, offsetMs: number): number {
  const f = Math.min(1, Math.max(0, offsetMs / p.durationMs));
  return p.fromPerSec + (p.toPerSec - p.fromPerSec) * f;
}
