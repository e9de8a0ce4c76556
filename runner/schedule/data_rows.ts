/**
 * Which row of each data source request n takes. In `sequence` order the requests that use a
 * source take its rows in file order, so request n takes row rank mod rows, where its rank is how
 * many requests before it (in the whole run, all shards and workers) use the source; `shuffle`
 * takes the same rank through a seeded permutation per pass; `random` draws independently from n.
 * The labels come from the same weighted mix as the schedule's, so every walker agrees.
 *
 * @module
 */
import type { DataOrder } from "../plan/mod.ts";
import { hashWord, uniformAt } from "./draw_values.ts";
import { Prng } from "./prng.ts";
import { RequestMix } from "./request_mix.ts";

/** How one source is drawn: its order, its row count, and the labels whose requests use it. */
export interface DataUse {
  order: DataOrder;
  rows: number;
  /** Indices of the plan's requests (labels) whose templates read this source. */
  labels: readonly number[];
}

/** The hash stream of data source `s` (vars use their own index). */
export function sourceStream(s: number): number {
  return 1_000_000 + s;
}

/**
 * Walks request indices upwards and gives each source's rank and row for the current request.
 */
export class RowCursor {
  readonly #mix: RequestMix;
  readonly #uses: readonly DataUse[];
  readonly #seed: number;
  readonly #allLabels: boolean[];
  readonly #byLabel: number[][];
  readonly #counts: Float64Array;
  /** False when every source is read by every label: each rank is then n, with nothing to count. */
  readonly #counting: boolean;
  #scanned = 0;
  #n = 0;
  readonly #perms = new Map<number, { pass: number; perm: Int32Array }>();

  constructor(weights: readonly number[], uses: readonly DataUse[], seed: number) {
    this.#mix = new RequestMix(weights);
    this.#uses = uses;
    this.#seed = seed;
    this.#allLabels = uses.map((u) => weights.every((_, l) => u.labels.includes(l)));
    this.#byLabel = weights.map((_, l) =>
      uses.flatMap((u, s) => !this.#allLabels[s] && u.labels.includes(l) ? [s] : [])
    );
    this.#counts = new Float64Array(uses.length);
    this.#counting = this.#byLabel.some((s) => s.length > 0);
  }

  /** Moves to request `n`; `n` never goes down. */
  at(n: number): void {
    if (n < this.#n) throw new RangeError(`request ${n} comes before ${this.#n}`);
    this.#n = n;
    if (!this.#counting) return;
    for (let m = this.#scanned; m < n; m++) {
      for (const s of this.#byLabel[this.#mix.labelIndexAt(m)]) this.#counts[s]++;
    }
    this.#scanned = n;
  }

  /** How many requests before the current one use source `s`. */
  rankOf(s: number): number {
    return this.#allLabels[s] ? this.#n : this.#counts[s];
  }

  /** The row of source `s` the current request takes. */
  rowOf(s: number): number {
    const { order, rows } = this.#uses[s];
    if (order === "random") {
      return Math.floor(uniformAt(this.#seed, sourceStream(s), this.#n) * rows);
    }
    const rank = this.rankOf(s);
    const inPass = rank % rows;
    if (order === "sequence") return inPass;
    return this.#permutation(s, Math.floor(rank / rows))[inPass];
  }

  /** A seeded Fisher-Yates permutation of source `s`'s rows for `pass`, kept while it is current. */
  #permutation(s: number, pass: number): Int32Array {
    const held = this.#perms.get(s);
    if (held?.pass === pass) return held.perm;
    const rows = this.#uses[s].rows;
    const perm = held?.perm ?? new Int32Array(rows);
    for (let i = 0; i < rows; i++) perm[i] = i;
    const prng = new Prng(hashWord(this.#seed, sourceStream(s), pass, 2));
    for (let i = rows - 1; i > 0; i--) {
      const j = Math.floor(prng.next() * (i + 1));
      const t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    this.#perms.set(s, { pass, perm });
    return perm;
  }
}

/**
 * How many requests among the first `total` of the run use each source: the rows a sequence or
 * shuffle source needs (more than it has means it wraps).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dataDemand } from "./data_rows.ts";
 * assert.deepEqual(dataDemand([3, 1], [{ order: "sequence", rows: 10, labels: [1] }], 1000), [250]); // (±1)
 * ```
 */
export function dataDemand(
  weights: readonly number[],
  uses: readonly DataUse[],
  total: number,
): number[] {
  const cursor = new RowCursor(weights, uses, 0);
  cursor.at(total);
  return uses.map((_, s) => cursor.rankOf(s));
}
