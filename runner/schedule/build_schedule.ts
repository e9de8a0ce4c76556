/**
 * The whole run's schedule: stages laid end to end, every request numbered, its intended send
 * time computed from its number, its label chosen by the mix. A cursor walks it in order without
 * allocating; a shard or worker walks only the indices n with n mod count = its index, so the
 * union of the shards is the whole schedule.
 *
 * @module
 */
import type { Arrival, PlanStage } from "../plan/mod.ts";
import { offsetAtCountMs, type RateProfile, scheduledCount } from "./fire_times.ts";
import { deriveSeed, Prng } from "./prng.ts";
import { RequestMix } from "./request_mix.ts";

/** One stage placed on the run's timeline. */
export interface StageWindow {
  index: number;
  name: string;
  warmup: boolean;
  profile: RateProfile;
  /** Offset of the stage's start from the run's start. */
  startMs: number;
  /** Global index of the stage's first request, and how many it has (all shards). */
  firstIndex: number;
  count: number;
}

/** What a schedule is built from: the plan's load and its request weights. */
export interface ScheduleInput {
  arrival: Arrival;
  seed: number;
  stages: readonly PlanStage[];
  weights: readonly number[];
  /**
   * Each weight's label, when they differ (a journey's entry is labelled with its first step's
   * label: plan/requests/mix_labels.ts); absent: entry i is label i.
   */
  entryLabels?: readonly number[];
}

/** Which interleaved share of the schedule to walk. */
export interface ShardSpec {
  /** This share, 0 to count - 1: it walks the requests n with n mod count = index. */
  index: number;
  /** How many shares the schedule is split into (1: the whole schedule). */
  count: number;
}

/**
 * A built schedule.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Schedule } from "./build_schedule.ts";
 * const s = new Schedule({ arrival: "constant", seed: 1, weights: [1], stages: [
 *   { kind: "constant", index: 0, name: "s", ratePerSec: 20_000, durationMs: 1_000, warmup: false, line: 1 },
 * ] });
 * const c = s.cursor();
 * c.advance();
 * assert.equal(c.fireMs, 0.05); // the second request, 50 us after the first
 * ```
 */
export class Schedule {
  readonly stages: readonly StageWindow[];
  readonly durationMs: number;
  readonly totalCount: number;
  readonly #input: ScheduleInput;
  readonly #mix: RequestMix;

  constructor(input: ScheduleInput) {
    this.#input = input;
    this.#mix = new RequestMix(input.weights);
    let startMs = 0;
    let firstIndex = 0;
    this.stages = input.stages.map((s) => {
      const profile: RateProfile = s.kind === "constant"
        ? { fromPerSec: s.ratePerSec, toPerSec: s.ratePerSec, durationMs: s.durationMs }
        : { fromPerSec: s.fromPerSec, toPerSec: s.toPerSec, durationMs: s.durationMs };
      const count = input.arrival === "poisson"
        ? poissonCount(profile, deriveSeed(input.seed, s.index))
        : scheduledCount(profile);
      const w = {
        index: s.index,
        name: s.name,
        warmup: s.warmup,
        profile,
        startMs,
        firstIndex,
        count,
      };
      startMs += s.durationMs;
      firstIndex += count;
      return w;
    });
    this.durationMs = startMs;
    this.totalCount = firstIndex;
  }

  /** A cursor at the first request of `shard` (the whole schedule by default). */
  cursor(shard: ShardSpec = { index: 0, count: 1 }): ScheduleCursor {
    return new ScheduleCursor(this.stages, this.#input, this.#mix, shard);
  }

  /** Requests of the whole schedule that belong to `shard`. */
  shardCount(shard: ShardSpec): number {
    const { index, count } = shard;
    return Math.floor((this.totalCount - index + count - 1) / count);
  }

  /** The stage running at `offsetMs` (the last one at or after the end). */
  stageAt(offsetMs: number): StageWindow {
    return stageWindowAt(this.stages, offsetMs);
  }
}

/**
 * Which of `stages` (in run order, as a {@linkcode Schedule} lays them out) runs at `offsetMs`
 * from the run's start: the last one at or after the end.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageWindowAt } from "./build_schedule.ts";
 * const stages = [{ index: 0, startMs: 0 }, { index: 1, startMs: 1_000 }];
 * assert.equal(stageWindowAt(stages, 999).index, 0);
 * assert.equal(stageWindowAt(stages, 1_000).index, 1);
 * assert.equal(stageWindowAt(stages, 5_000).index, 1);
 * ```
 */
export function stageWindowAt<W extends Pick<StageWindow, "startMs">>(
  stages: readonly W[],
  offsetMs: number,
): W {
  let i = 0;
  while (i < stages.length - 1 && offsetMs >= stages[i + 1].startMs) i++;
  return stages[i];
}

/**
 * Walks a schedule in send order. Its fields describe the current request; `done` is set after
 * the last one. No allocation per request.
 */
export class ScheduleCursor {
  /** Global index of the current request. */
  index = -1;
  /** Intended send time, in ms from the run's start. */
  fireMs = Infinity;
  stageIndex = 0;
  labelIndex = 0;
  done = false;

  readonly #stages: readonly StageWindow[];
  readonly #input: ScheduleInput;
  readonly #mix: RequestMix;
  readonly #shard: ShardSpec;
  #stage = 0;
  #inStage = -1;
  #prng: Prng | undefined;
  #unitArrival = 0;

  constructor(
    stages: readonly StageWindow[],
    input: ScheduleInput,
    mix: RequestMix,
    shard: ShardSpec,
  ) {
    if (!(shard.count >= 1 && shard.index >= 0 && shard.index < shard.count)) {
      throw new RangeError(`invalid shard ${shard.index}/${shard.count}`);
    }
    this.#stages = stages;
    this.#input = input;
    this.#mix = mix;
    this.#shard = shard;
    this.#enterStage(0);
    this.advance();
  }

  /** Moves to this shard's next request; sets `done` after the last. */
  advance(): void {
    do this.#step(); while (!this.done && this.index % this.#shard.count !== this.#shard.index);
  }

  #step(): void {
    while (
      this.#stage < this.#stages.length && this.#inStage + 1 >= this.#stages[this.#stage].count
    ) {
      this.#enterStage(this.#stage + 1);
    }
    if (this.#stage >= this.#stages.length) {
      this.done = true;
      this.fireMs = Infinity;
      return;
    }
    const w = this.#stages[this.#stage];
    const k = ++this.#inStage;
    this.index = w.firstIndex + k;
    this.stageIndex = w.index;
    const entry = this.#mix.labelIndexAt(this.index);
    this.labelIndex = this.#input.entryLabels?.[entry] ?? entry;
    if (this.#prng === undefined) {
      this.fireMs = w.startMs + offsetAtCountMs(w.profile, k);
    } else {
      this.#unitArrival += this.#prng.nextExponential();
      this.fireMs = w.startMs + offsetAtCountMs(w.profile, this.#unitArrival);
    }
  }

  #enterStage(stage: number): void {
    this.#stage = stage;
    this.#inStage = -1;
    this.#unitArrival = 0;
    this.#prng = this.#input.arrival === "poisson" && stage < this.#stages.length
      ? new Prng(deriveSeed(this.#input.seed, this.#stages[stage].index))
      : undefined;
  }
}

/** Arrivals of a unit-rate Poisson process before the stage's cumulative count C(T). */
function poissonCount(profile: RateProfile, seed: number): number {
  const end = (profile.fromPerSec + profile.toPerSec) / 2 * (profile.durationMs / 1000);
  const prng = new Prng(seed);
  let n = 0;
  for (let s = prng.nextExponential(); s < end; s += prng.nextExponential()) n++;
  return n;
}
