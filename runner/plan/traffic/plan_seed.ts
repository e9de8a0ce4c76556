/**
 * A run's seed: the one its plan fixes (`load.seed`, or `--seed`), or else one of its own, drawn
 * afresh for each run so that two runs of a plan send different uuids and values (a rerun against
 * a database that was not reset creates nothing twice). A run given a start instant (`--start-at`,
 * which every shard of one run shares) takes a hash of that instant instead, so its shards draw
 * the same seed without talking. Pure: the random draw is the caller's.
 *
 * @module
 */
import type { ResolvedPlan } from "../types.ts";

/**
 * The seed a plan that fixes none resolves to until a run draws its own: the default every run
 * used before runs drew one (so a baseline's plan fingerprint stays as it was).
 */
export const PER_RUN_SEED_PLACEHOLDER = 1;

/**
 * Whether the seed changes what a plan sends: poisson arrivals, `vars`, `random` or `shuffle`
 * data, or `trace` (its trace ids). A plan without any sends the same requests whatever its seed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drawsFromSeed } from "./plan_seed.ts";
 * assert.equal(drawsFromSeed({ load: { arrival: "constant" }, vars: [] }), false);
 * assert.equal(drawsFromSeed({ load: { arrival: "poisson" } }), true);
 * assert.equal(drawsFromSeed({ load: { arrival: "constant" }, trace: {} }), true);
 * ```
 */
export function drawsFromSeed(
  plan: {
    load: { arrival: string };
    vars?: readonly unknown[];
    data?: readonly { order: string }[];
    trace?: unknown;
  },
): boolean {
  return plan.load.arrival === "poisson" || (plan.vars?.length ?? 0) > 0 ||
    (plan.data ?? []).some((d) => d.order !== "sequence") || plan.trace !== undefined;
}

/**
 * The seed of a run starting at `epochMs` whose plan fixes none: a 32-bit hash of the instant,
 * the same on every machine given it, another for another instant.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seedOfInstant } from "./plan_seed.ts";
 * const at = Date.parse("2026-11-22T10:00:00Z");
 * assert.equal(seedOfInstant(at), seedOfInstant(at));
 * assert.notEqual(seedOfInstant(at), seedOfInstant(at + 1000));
 * ```
 */
export function seedOfInstant(epochMs: number): number {
  const low = epochMs % 2 ** 32 >>> 0;
  const high = Math.floor(epochMs / 2 ** 32) >>> 0;
  let h = Math.imul(low ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(high + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Where a run's seed comes from when its plan fixes none. */
export interface RunSeedSource {
  /** The run's start instant (`--start-at`), shared by its shards: the seed is its hash. */
  startAtEpochMs?: number;
  /** A fresh seed, 0 to 2^32 − 1 (the front door draws it from `crypto.getRandomValues`). */
  draw: () => number;
}

/**
 * `plan` with the seed of one run: its own when it fixes one (returned as it is); otherwise the
 * hash of the run's start instant when it has one, else a fresh draw. `seedPerRun` stays, so the
 * result says the seed was the run's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withRunSeed } from "./plan_seed.ts";
 * const plan = { load: { seed: 1, seedPerRun: true as const } };
 * assert.equal(withRunSeed(plan, { draw: () => 42 }).load.seed, 42);
 * assert.equal(withRunSeed({ load: { seed: 7 } }, { draw: () => 42 }).load.seed, 7);
 * ```
 */
export function withRunSeed<P extends { load: Pick<ResolvedPlan["load"], "seed" | "seedPerRun"> }>(
  plan: P,
  source: RunSeedSource,
): P {
  if (!plan.load.seedPerRun) return plan;
  const seed = source.startAtEpochMs === undefined
    ? source.draw() >>> 0
    : seedOfInstant(source.startAtEpochMs);
  return { ...plan, load: { ...plan.load, seed } };
}
