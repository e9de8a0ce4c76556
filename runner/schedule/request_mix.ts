/**
 * Which request of the plan's weighted mix the n-th scheduled request is. A low-discrepancy
 * sequence (the golden-ratio sequence) keeps every prefix of the schedule close to the weights,
 * and the choice depends only on n, so shards and workers agree without talking.
 *
 * @module
 */

const INVERSE_GOLDEN_RATIO = (Math.sqrt(5) - 1) / 2;

/**
 * Picks request labels by weight.
 */
export class RequestMix {
  readonly #cumulative: Float64Array;

  constructor(weights: readonly number[]) {
    if (weights.length === 0 || weights.some((w) => !(w > 0 && w < Infinity))) {
      throw new RangeError("a request mix needs positive, finite weights");
    }
    // Scaled by the largest first: summed as they are, weights near Number.MAX_VALUE overflow to
    // Infinity and every share reads 0. Scaled, each is at most 1 and the sum at most their count.
    const largest = Math.max(...weights);
    const scaled = weights.map((w) => w / largest);
    const total = scaled.reduce((a, b) => a + b, 0);
    this.#cumulative = new Float64Array(weights.length);
    let sum = 0;
    scaled.forEach((w, i) => this.#cumulative[i] = (sum += w) / total);
    this.#cumulative[weights.length - 1] = 1;
  }

  /** The label index of scheduled request `n`. */
  labelIndexAt(n: number): number {
    const c = this.#cumulative;
    if (c.length === 1) return 0;
    const u = ((n + 1) * INVERSE_GOLDEN_RATIO) % 1;
    let i = 0;
    while (u >= c[i]) i++;
    return i;
  }
}
