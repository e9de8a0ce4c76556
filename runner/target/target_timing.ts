/**
 * The known truth of the target: for the i-th request, arriving `elapsedMs` after the server
 * started, how long the answer takes and whether it fails. Pure functions of their arguments, so
 * tests and truth checks can compute exactly what the server does without sleeping.
 *
 * @module
 */
import { type FaultKind, MAX_DELAY_MS, type TargetConfig } from "./target_options.ts";

/** What the target does with one request. */
export interface TargetDecision {
  /** 0-based arrival order of the request across all connections. */
  index: number;
  /** How long after its arrival the request is answered (or failed). */
  delayMs: number;
  /** Set when the request fails instead of getting a 200. */
  fault?: FaultKind;
}

/**
 * How long a request arriving `elapsedMs` after the start waits for the stall to end: the server
 * is frozen during the last `stallMs` of every `periodMs`, as if a lock were held, so a request
 * arriving in that window is answered when the window ends and any other request at once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stallWaitMs } from "./target_timing.ts";
 * assert.equal(stallWaitMs(8_500, 10_000, 2_000), 1500); // frozen during [8s, 10s)
 * assert.equal(stallWaitMs(10_000, 10_000, 2_000), 0); // the next period has begun
 * ```
 */
export function stallWaitMs(elapsedMs: number, periodMs: number, stallMs: number): number {
  if (elapsedMs < 0) return 0;
  const phaseMs = elapsedMs % periodMs;
  return phaseMs >= periodMs - stallMs ? periodMs - phaseMs : 0;
}

/**
 * Whether request `index` is among the chosen `frac` of requests. Without a seed the choice is an
 * even pattern (request i is chosen when floor((i+1)·frac) > floor(i·frac)), so exactly
 * floor(n·frac) of the first n requests are chosen; with a seed it is a reproducible hash.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isChosen } from "./target_timing.ts";
 * assert.deepEqual([0, 1, 2, 3].map((i) => isChosen(i, 0.25)), [false, false, false, true]);
 * ```
 */
export function isChosen(index: number, frac: number, seed?: number): boolean {
  if (seed !== undefined) return seededUnit(seed, index) < frac;
  return Math.floor((index + 1) * frac) > Math.floor(index * frac);
}

/**
 * Which kind of fault request `index` gets if {@linkcode isChosen}: without a seed the kinds take
 * turns in the order given; with a seed a reproducible hash picks one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { faultKindAt } from "./target_timing.ts";
 * assert.equal(faultKindAt(1, 1, ["500", "reset"]), "reset");
 * ```
 */
export function faultKindAt(
  index: number,
  frac: number,
  kinds: readonly FaultKind[],
  seed?: number,
): FaultKind {
  const turn = seed === undefined
    ? Math.floor(index * frac) // how many faults came before this one
    : Math.floor(seededUnit(seed ^ 0x5bd1e995, index) * kinds.length);
  return kinds[turn % kinds.length];
}

/**
 * A number in [0, 1) that depends only on `seed` and `index` (a 32-bit integer hash).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seededUnit } from "./target_timing.ts";
 * assert.equal(seededUnit(42, 7) === seededUnit(42, 7), true);
 * ```
 */
export function seededUnit(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index | 0, 0x9e3779b1) ^ Math.floor(index / 2 ** 32)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

/**
 * The exact capacity of `capacity` mode: `servers` requests at a time, each taking `delayMs`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { capacityPerSec } from "./target_timing.ts";
 * assert.equal(capacityPerSec({ servers: 4, delayMs: 2 }), 2000);
 * ```
 */
export function capacityPerSec(config: Pick<TargetConfig, "servers" | "delayMs">): number {
  return config.servers * 1000 / config.delayMs;
}

/**
 * `capacity` mode's server: `servers` identical servers, each taking exactly `serviceMs` per
 * request, fed by one first-come-first-served queue (a D/c FIFO queue). A request's delay is its
 * wait for the first free server plus its service. Deterministic in the arrival times alone, so
 * a test knows each answer's latency exactly; below capacity nobody waits, above it the queue (and
 * every latency) grows without bound.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CapacityQueue } from "./target_timing.ts";
 * const queue = new CapacityQueue(1, 10);
 * assert.deepEqual([queue.admit(0), queue.admit(0), queue.admit(5)], [10, 20, 25]);
 * ```
 */
export class CapacityQueue {
  /** When each server is next free (ms since the start). */
  readonly #freeAtMs: number[];
  readonly #serviceMs: number;

  constructor(servers: number, serviceMs: number) {
    this.#freeAtMs = new Array(servers).fill(-Infinity);
    this.#serviceMs = serviceMs;
  }

  /** Takes a request arriving at `arrivedMs`; returns how long until it is answered. */
  admit(arrivedMs: number): number {
    const free = this.#freeAtMs;
    let first = 0;
    for (let i = 1; i < free.length; i++) if (free[i] < free[first]) first = i;
    const startMs = Math.max(arrivedMs, free[first]);
    free[first] = startMs + this.#serviceMs;
    return free[first] - arrivedMs;
  }
}

/**
 * What the target configured by `config` does with request `index` arriving `elapsedMs` after its
 * start. trend's growing latency is capped at {@linkcode MAX_DELAY_MS}. `capacity` keeps state
 * (its queue): pass the server's {@linkcode CapacityQueue} as `queue`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decideResponse } from "./target_timing.ts";
 * import { TARGET_DEFAULTS } from "./target_options.ts";
 * const config = { ...TARGET_DEFAULTS, mode: "trend" as const, growthMsPerSec: 2 };
 * assert.deepEqual(decideResponse(config, 0, 30_000), { index: 0, delayMs: 60 });
 * ```
 */
export function decideResponse(
  config: TargetConfig,
  index: number,
  elapsedMs: number,
  queue?: CapacityQueue,
): TargetDecision {
  switch (config.mode) {
    case "hello":
      return { index, delayMs: 0 };
    case "fixed":
      return { index, delayMs: config.delayMs };
    case "stall":
      return {
        index,
        delayMs: stallWaitMs(elapsedMs, config.periodMs, config.stallMs) + config.delayMs,
      };
    case "bimodal":
      return {
        index,
        delayMs: isChosen(index, config.frac, config.seed) ? config.slowMs : config.delayMs,
      };
    case "trend": {
      const grownMs = config.growthMsPerSec * Math.max(0, elapsedMs) / 1000;
      return { index, delayMs: Math.min(MAX_DELAY_MS, config.delayMs + grownMs) };
    }
    case "first-n":
      return { index, delayMs: index < config.firstN ? config.delayMs : config.slowMs };
    case "capacity": {
      const delayMs = (queue ?? new CapacityQueue(config.servers, config.delayMs)).admit(elapsedMs);
      return { index, delayMs: Math.min(MAX_DELAY_MS, delayMs) };
    }
    case "faults":
      if (!isChosen(index, config.faultFrac, config.seed)) {
        return { index, delayMs: config.delayMs };
      }
      return {
        index,
        delayMs: config.delayMs,
        fault: faultKindAt(index, config.faultFrac, config.faultKinds, config.seed),
      };
  }
}
