/**
 * What the machine's CPU contention could have done to the measured traffic, read off the
 * result's intervals: the one reading the gates, the reports and the history store share.
 *
 * In each 1 s interval the figure that stands for the service's wait (`RunContention.source`) is
 * its own threads' run-queue delay, or else the machine's CPU pressure, plus the hypervisor's
 * steal. A request can only have been delayed by the machine if it fell due while the service
 * waited, or queued behind one that did: so the share of an interval's requests the contention
 * could have delayed is at most {@linkcode CONTENTION_QUEUE_FACTOR} times the wait over the
 * interval's length, taking the larger of the interval's wait and the next one's (a request that
 * falls due late in a second is answered in the next). The gates take that share of each
 * interval's slowest requests off before they fail anything (docs/gates.md, "Contention").
 *
 * @module
 */
import type {
  IntervalContention,
  IntervalResult,
  RunContention,
  StageResult,
} from "../../model/mod.ts";
import { median } from "./median.ts";

/**
 * How many requests one that fell due while the service waited stands for: itself, and about as
 * many again that queued behind it while the backlog drained.
 */
export const CONTENTION_QUEUE_FACTOR = 2;

/**
 * A run whose contention could have delayed at least this share of its measured requests, and at
 * least {@linkcode CONTENDED_RATIO} times what the runner's stored runs usually show, ran on a
 * contended machine: it is kept in the history, marked, but is not a baseline others are judged
 * by (enough to move a p95).
 */
export const CONTENDED_SHARE = 0.05;

/**
 * How far above the stored runs' median share a run's must be to count as contended: a runner
 * whose hypervisor always steals a few percent is that runner, and its runs are its baselines; an
 * hour when it steals twice as much, or a neighbour takes the service's core, is not.
 */
export const CONTENDED_RATIO = 2;

/**
 * The wait (ms) that stands for the service's in one interval, by the run's source: the service's
 * own wait or the machine's pressure, plus steal; 0 with no measure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { intervalWaitMs } from "./machine_contention.ts";
 * assert.equal(intervalWaitMs({ pressureMs: 40, serviceWaitMs: 6, stealMs: 2 }, "service"), 8);
 * assert.equal(intervalWaitMs({ pressureMs: 40, stealMs: 2 }, "pressure"), 42);
 * assert.equal(intervalWaitMs({ pressureMs: 40 }, "none"), 0);
 * ```
 */
export function intervalWaitMs(
  c: IntervalContention | undefined,
  source: RunContention["source"],
): number {
  if (c === undefined || source === "none") return 0;
  const wait = source === "service" ? c.serviceWaitMs : c.pressureMs;
  return (wait ?? 0) + (c.stealMs ?? 0);
}

/**
 * Each interval's wait (ms) that can have delayed its requests: the larger of its own and the next
 * interval's, as a request due late in a second is answered in the next (the service's wait, or
 * the machine's pressure, per `source`, plus steal).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reachingWaitsMs } from "./machine_contention.ts";
 * const at = (serviceWaitMs: number) => ({ contention: { serviceWaitMs } });
 * assert.deepEqual(reachingWaitsMs([at(0), at(50), at(0)], "service"), [50, 50, 0]);
 * ```
 */
export function reachingWaitsMs(
  intervals: readonly Pick<IntervalResult, "contention">[],
  source: RunContention["source"],
): number[] {
  const waits = intervals.map((iv) => intervalWaitMs(iv.contention, source));
  return waits.map((w, i) => Math.max(w, waits[i + 1] ?? 0));
}

/**
 * For each interval, the share of its requests the machine's contention could have delayed (0 to
 * 1): {@linkcode CONTENTION_QUEUE_FACTOR} × the larger of its wait and the next interval's, over its
 * length. All zero when the run measured no contention.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { delayedShares } from "./machine_contention.ts";
 * const at = (serviceWaitMs: number) => ({ durationMs: 1000, contention: { serviceWaitMs } });
 * assert.deepEqual(delayedShares([at(0), at(50), at(0)], "service"), [0.1, 0.1, 0]);
 * assert.deepEqual(delayedShares([at(900)], "service"), [1]);
 * ```
 */
export function delayedShares(
  intervals: readonly Pick<IntervalResult, "durationMs" | "contention">[],
  source: RunContention["source"] | undefined,
): number[] {
  if (source === undefined || source === "none") return intervals.map(() => 0);
  const waits = reachingWaitsMs(intervals, source);
  return intervals.map((iv, i) => {
    const waitMs = waits[i];
    return iv.durationMs > 0 ? Math.min(1, CONTENTION_QUEUE_FACTOR * waitMs / iv.durationMs) : 0;
  });
}

/**
 * The run's contention over its measured stages (warmup intervals left out), from its intervals:
 * the sums, the delayed share weighted by each interval's requests, and the worst interval.
 */
export function summarizeContention(
  intervals: readonly IntervalResult[],
  stages: readonly Pick<StageResult, "index" | "warmup">[],
  source: RunContention["source"],
  service?: RunContention["service"],
): RunContention {
  const measured = new Set(stages.filter((s) => !s.warmup).map((s) => s.index));
  const shares = delayedShares(intervals, source);
  const sums: { pressureMs?: number; stealMs?: number; serviceWaitMs?: number } = {};
  let delayed = 0;
  let requests = 0;
  let worst: RunContention["worst"];
  intervals.forEach((iv, i) => {
    if (!measured.has(iv.stageIndex)) return;
    const c = iv.contention;
    for (const key of ["pressureMs", "stealMs", "serviceWaitMs"] as const) {
      const v = c?.[key];
      if (v !== undefined) sums[key] = (sums[key] ?? 0) + v;
    }
    const n = iv.counts.scheduled;
    delayed += shares[i] * n;
    requests += n;
    const waitMs = intervalWaitMs(c, source);
    if (waitMs > 0 && (worst === undefined || waitMs > worst.waitMs)) {
      worst = { startMs: iv.startMs, waitMs: round(waitMs) };
    }
  });
  return {
    source,
    ...(service ? { service } : {}),
    ...Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, round(v)])),
    share: requests > 0 ? round(delayed / requests, 4) : 0,
    ...(worst ? { worst } : {}),
  };
}

/**
 * Whether a run ran on a contended machine: its contention could have delayed at least
 * {@linkcode CONTENDED_SHARE} of its measured requests and at least {@linkcode CONTENDED_RATIO}
 * times the median of `usualShares` (the stored runs' shares, when there are any): more than this
 * runner usually shows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ranContended } from "./machine_contention.ts";
 * assert.equal(ranContended({ contention: { share: 0.08 } }), true);
 * assert.equal(ranContended({ contention: { share: 0.08 } }, [0.06, 0.07, 0.05]), false); // usual here
 * assert.equal(ranContended({ contention: { share: 0.2 } }, [0.06, 0.07, 0.05]), true);
 * assert.equal(ranContended({}), false); // not measured
 * ```
 */
export function ranContended(
  health: { contention?: Pick<RunContention, "share"> },
  usualShares: readonly number[] = [],
): boolean {
  const share = health.contention?.share ?? 0;
  const usual = usualShares.length ? median(usualShares) : 0;
  return share >= CONTENDED_SHARE && share >= CONTENDED_RATIO * usual;
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
