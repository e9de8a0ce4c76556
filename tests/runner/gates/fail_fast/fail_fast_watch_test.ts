import assert from "node:assert/strict";
import type { Progress } from "../../../../runner/run/run_engine.ts";
import type { ResolvedPlan } from "../../../../runner/plan/types.ts";
import { failFastWatch } from "../../../../runner/gates/fail_fast/fail_fast_watch.ts";
import { binomialInterval } from "../../../../runner/gates/stats/binomial.ts";
import { parseText } from "../../../_helpers/plan_fixtures.ts";

/** A plan with these requests, stages and SLOs. */
function plan(requests: string, stages: string, slos: string[]): ResolvedPlan {
  const parsed = parseText(`name: t
target: http://127.0.0.1:8080
requests: ${requests}
load: { stages: ${stages} }
slo: ${JSON.stringify(slos)}
`);
  assert.ok(parsed.plan, JSON.stringify(parsed.issues));
  return parsed.plan;
}

/** [scheduled, ok, failed] of each label. */
type Counts = number[][];

/**
 * A progress report at `atMs`: per stage (by index) and per second (by index) the counts of each
 * label; stages and seconds not given are empty.
 */
function report(
  p: ResolvedPlan,
  atMs: number,
  stages: Record<number, Counts>,
  seconds: Record<number, Counts>,
  dispatchLagMs = 0,
): Progress {
  const labels = p.requests.length;
  const flat = (c: Counts) => new Float64Array(c.flat());
  const stageCounts = new Float64Array(p.load.stages.length * labels * 3);
  for (const [i, c] of Object.entries(stages)) stageCounts.set(c.flat(), Number(i) * labels * 3);
  return {
    offsetMs: atMs,
    durationMs: 0,
    stageIndex: 0,
    stageName: "",
    intendedPerSec: 0,
    sentPerSec: 0,
    p99Us: undefined,
    completed: 0,
    errors: 0,
    queued: 0,
    inflight: 0,
    tally: {
      labelCount: labels,
      stages: stageCounts,
      intervals: Object.entries(seconds).map(([i, c]) => ({ index: Number(i), counts: flat(c) })),
      atMs,
      dispatchLagMs,
    },
  };
}

const ONE = "[{ path: / }]";
const WARM_AND_MAIN = "[{ rate: 1k/s, duration: 1s, warmup: true }, { rate: 1k/s, duration: 10s }]";

Deno.test("an overdue backlog fails p99 for certain on two reports in a row, the warmup's aside", () => {
  const p = plan(ONE, WARM_AND_MAIN, ["p99 < 10ms"]);
  const watch = failFastWatch(p);
  // 10,000 planned after the warmup; 300 outstanding from second 2 (2 s to 3 s), the warmup's
  // own backlog of 5,000 not counted. At 3.00 s they may be younger than 60 ms: nothing certain.
  const stages = { 0: [[1000, 0, 0]], 1: [[2000, 1700, 0]] };
  assert.equal(
    watch(report(p, 3000, stages, { 0: [[5000, 0, 0]], 2: [[1000, 700, 0]] })),
    undefined,
  );
  // From 3.06 s on they are overdue: certain once, then twice.
  assert.equal(watch(report(p, 3100, stages, { 2: [[1000, 700, 0]] })), undefined);
  const failure = watch(report(p, 3200, stages, { 2: [[1000, 700, 0]] }));
  assert.equal(failure?.slo, "p99 < 10ms");
  assert.equal(failure?.line, 5);
  assert.match(
    failure!.reason,
    /^300 requests already failed or are outstanding for over 60ms, of the 10000 planned in stage "1k\/s for 10s"/,
  );
});

Deno.test("no stop while the generator is behind its schedule, nor on one report alone", () => {
  const p = plan(ONE, WARM_AND_MAIN, ["p99 < 10ms"]);
  const watch = failFastWatch(p);
  const stages = { 1: [[2000, 1000, 500]] };
  const seconds = { 2: [[1000, 500, 500]] };
  assert.equal(watch(report(p, 3100, stages, seconds)), undefined);
  // Its dispatch lag over 10 ms: the generator's own lateness could be in it; the count restarts.
  assert.equal(watch(report(p, 3200, stages, seconds, 40)), undefined);
  assert.equal(watch(report(p, 3300, stages, seconds)), undefined);
  assert.ok(watch(report(p, 3400, stages, seconds)));
  // A certain failure seen once, then not: the count restarts.
  const again = failFastWatch(p);
  assert.equal(again(report(p, 3100, stages, seconds)), undefined);
  assert.equal(again(report(p, 3200, { 1: [[2000, 1999, 1]] }, {})), undefined);
  assert.equal(again(report(p, 3300, stages, seconds)), undefined);
});

Deno.test("a labelled SLO counts its label's requests against its label's planned share", () => {
  const p = plan(
    "[{ name: a, path: /a, weight: 3 }, { name: b, path: /b }]",
    "[{ rate: 1k/s, duration: 10s }]",
    ['error_rate < 1% for "b"'],
  );
  const watch = failFastWatch(p);
  // 400 failures of a: not b's.
  const onA = { 0: [[1500, 1100, 400], [500, 500, 0]] };
  assert.equal(watch(report(p, 2000, onA, {})), undefined);
  assert.equal(watch(report(p, 2100, onA, {})), undefined);
  // 60 of b's failed: of about 2,500 b plans (a quarter of 10,000), at most 1% may.
  const onB = { 0: [[1500, 1500, 0], [500, 440, 60]] };
  assert.equal(watch(report(p, 2200, onB, {})), undefined);
  const failure = watch(report(p, 2300, onB, {}));
  assert.match(
    failure!.reason,
    /^60 requests already failed, of the 25\d\d planned for "b" in stage/,
  );
});

Deno.test("an SLO at a rate counts only the stages at that rate", () => {
  const p = plan(ONE, "[{ rate: 100/s, duration: 10s }, { rate: 200/s, duration: 10s }]", [
    "error_rate < 5% at 200/s",
  ]);
  const watch = failFastWatch(p);
  const first = { 0: [[1000, 500, 500]] }; // half of the 100/s stage failed
  assert.equal(watch(report(p, 10_000, first, {})), undefined);
  assert.equal(watch(report(p, 10_100, first, {})), undefined);
  // 200 failed in the 200/s stage's 2,000 planned: over 5% whatever the rest do.
  const second = { ...first, 1: [[400, 200, 200]] };
  assert.equal(watch(report(p, 12_000, second, {})), undefined);
  assert.match(watch(report(p, 12_100, second, {}))!.reason, /of the 2000 planned in stage/);
});

Deno.test("max fails on one overdue request; SLOs the rule cannot decide never stop the run", () => {
  const p = plan(ONE, "[{ rate: 10/s, duration: 10s }]", ["mean < 1ms", "max < 100ms"]);
  const watch = failFastWatch(p);
  // One request of second 0 outstanding at 1.3 s: over 200 ms (100 ms + 100 ms) old.
  const r = report(p, 1300, { 0: [[13, 12, 0]] }, { 0: [[10, 9, 0]], 1: [[3, 3, 0]] });
  assert.equal(watch(r), undefined);
  assert.equal(watch(r)?.slo, "max < 100ms");
  const undecided = failFastWatch(plan(ONE, "[{ rate: 10/s, duration: 10s }]", ["mean < 1ms"]));
  assert.equal(undecided(r), undefined);
  assert.equal(undecided(r), undefined);
});

Deno.test("a windowed SLO fails once a whole window within its stages is over its share", () => {
  const p = plan(
    ONE,
    "[{ rate: 100/s, duration: 2s, warmup: true }, { rate: 100/s, duration: 20s }]",
    ["error_rate < 10% over 2s"],
  );
  const watch = failFastWatch(p);
  // Seconds 1 and 2 failed half their requests, but second 1 is the warmup's: no window yet.
  const burst = { 1: [[100, 50, 50]], 2: [[100, 50, 50]] };
  assert.equal(watch(report(p, 3000, {}, burst)), undefined);
  assert.equal(watch(report(p, 3100, {}, burst)), undefined);
  // Second 3 fails too: the window from 2 s to 4 s is over, 100 of its 200 failed. Over the
  // whole 20 s stage (2,000 planned) that is far from certain: only the window decides.
  assert.equal(watch(report(p, 4000, {}, { 3: [[100, 50, 50]] })), undefined);
  // The next report holds no second of the window; the window found certain is judged again.
  const failure = watch(report(p, 5000, {}, { 4: [[100, 100, 0]] }));
  assert.equal(failure?.slo, "error_rate < 10% over 2s");
  assert.match(
    failure!.reason,
    /^100 requests already failed, of the 200 planned .* from 2 s to 4 s/,
  );
});

Deno.test("a window not yet over waits; one run's shard counts against the whole plan's window", () => {
  const p = plan(ONE, "[{ rate: 100/s, duration: 20s }]", ["error_rate < 10% over 2s"]);
  const seconds = { 0: [[100, 70, 30]], 1: [[80, 56, 24]] }; // 54 of 180 failed
  const watch = failFastWatch(p);
  assert.equal(watch(report(p, 1900, {}, seconds)), undefined); // second 1 still running
  assert.equal(watch(report(p, 1950, {}, seconds)), undefined);
  assert.equal(watch(report(p, 2000, {}, seconds)), undefined);
  assert.ok(watch(report(p, 2100, {}, seconds)));
  // One shard of 4: its 54 failures of 180 taken are 54 of at most 4 × 181 = 724 of the fleet's.
  const shard = failFastWatch(p, { shardCount: 4 });
  assert.equal(shard(report(p, 2000, {}, seconds)), undefined);
  assert.equal(shard(report(p, 2100, {}, seconds)), undefined);
  // With all of them failed (180 of at most 724), the window fails whatever the other shards see.
  const all = { 0: [[100, 0, 100]], 1: [[80, 0, 80]] };
  assert.equal(shard(report(p, 2200, {}, all)), undefined);
  assert.match(shard(report(p, 2300, {}, all))!.reason, /of the 724 planned/);
});

Deno.test("a window is certain only at Holm's first level over all the windows, as it is judged", () => {
  // A 20 s stage at 100/s holds 19 windows of 2 s. Failures in 2 s (200 requests) past the 10%
  // share with 95% confidence alone, but not at alpha / 19, do not stop the run; more do.
  const p = plan(ONE, "[{ rate: 100/s, duration: 20s }]", ["error_rate < 10% over 2s"]);
  let alone = 20;
  while (binomialInterval(alone, 200).low <= 0.1) alone++;
  let holm = alone;
  while (binomialInterval(holm, 200, 0.05 / 19).low <= 0.1) holm++;
  assert.ok(holm > alone, `${alone} vs ${holm}`);
  const at = (failed: number) => {
    const seconds = {
      0: [[100, 100 - Math.ceil(failed / 2), Math.ceil(failed / 2)]],
      1: [[100, 100 - Math.floor(failed / 2), Math.floor(failed / 2)]],
    };
    const watch = failFastWatch(p);
    watch(report(p, 2000, {}, seconds));
    return watch(report(p, 2100, {}, seconds));
  };
  assert.equal(at(alone), undefined);
  assert.equal(at(holm - 1), undefined);
  assert.match(
    at(holm)!.reason,
    new RegExp(`^${holm} requests already failed, of the 200 planned`),
  );
});
