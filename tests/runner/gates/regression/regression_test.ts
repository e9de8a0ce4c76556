import assert from "node:assert/strict";
import { storedRunFrom } from "../../../../runner/history/history_store.ts";
import { historyEntryFromRun } from "../../../../runner/history/history_entry.ts";
import {
  HISTORY_FILE_SCHEMA,
  HISTORY_FILE_VERSION,
  type HistoryFile,
} from "../../../../runner/history/history_types.ts";
import {
  evaluateRegression as evaluateDecoded,
  type RegressionOptions,
} from "../../../../runner/gates/regression/regression.ts";
import { decodedRuns } from "../../../_helpers/history_fixtures.ts";
import { DEFAULT_REGRESSION_FLOORS } from "../../../../runner/gates/regression/regression_metrics.ts";
import type { RunResult, Verdict } from "../../../../runner/model/run_result.ts";
import { gateResult, pointsUs, scaledUs, type StageSpec } from "../../../_helpers/gate_fixtures.ts";

/** The gate over a history file, its runs decoded as the history layer reads them. */
const evaluateRegression = (r: RunResult, file: HistoryFile, o?: RegressionOptions) =>
  evaluateDecoded(r, decodedRuns(file), o);

interface MainOptions {
  requests?: number;
  errors?: number;
  ratePerSec?: number;
  durationMs?: number;
}

/** A 1 s warmup, then "main": 10 s at 1k/s of "GET /a" with latencies 500..1500 µs × `scale`. */
function mainRun(scale: number, o: MainOptions = {}, toolLimited = false): RunResult {
  return gateResult([
    warmup(),
    {
      name: "main",
      ratePerSec: o.ratePerSec ?? 1000,
      durationMs: o.durationMs ?? 10_000,
      labels: [{
        label: "GET /a",
        response: scaledUs(o.requests ?? 10_000, scale),
        errors: o.errors ?? 0,
      }],
    },
  ], { toolLimited });
}

function warmup(): StageSpec {
  return {
    name: "warm",
    warmup: true,
    ratePerSec: 100,
    durationMs: 1_000,
    labels: [{ label: "GET /a", response: pointsUs([[90_000, 100]]) }],
  };
}

function baselineOf(runs: RunResult[]): HistoryFile {
  return {
    schema: HISTORY_FILE_SCHEMA,
    version: HISTORY_FILE_VERSION,
    plan: "shop",
    runs: runs.map(storedRunFrom),
    history: [],
  };
}

/** Five runs whose latencies differ by at most 0.4%. */
const TIGHT = [1, 1.004, 0.996, 1.002, 0.998];

function history(scales: number[], o: MainOptions = {}): HistoryFile {
  return baselineOf(scales.map((s) => mainRun(s, o)));
}

/** The verdict of `metric` on stage "main" (and `label`). */
function verdictOf(verdicts: Verdict[], metric: string, label?: string): Verdict {
  const name = `${metric} vs baseline: main${label === undefined ? "" : ` [${label}]`}`;
  const found = verdicts.filter((v) => v.name === name);
  assert.equal(found.length, 1, `one verdict named ${name} in ${verdicts.map((v) => v.name)}`);
  return found[0];
}

Deno.test("against a tight history, a run 30% slower fails: beyond the bound and the floor", () => {
  const verdicts = evaluateRegression(mainRun(1.3), history(TIGHT));
  assert.ok(verdicts.every((v) => v.kind === "regression" && v.stageIndexes[0] === 1));
  assert.deepEqual(
    verdicts.map((v) => v.name.split(" ")[0]),
    Object.keys(DEFAULT_REGRESSION_FLOORS),
    "one verdict per default metric, none for the warmup stage",
  );
  const p99 = verdictOf(verdicts, "p99");
  assert.equal(p99.status, "fail");
  assert.equal(p99.unit, "us");
  assert.ok(p99.measured! > p99.bound!, `${p99.measured} > ${p99.bound}`);
  // The bound is the stricter limit, here the 10% floor over a tight history: 1.3 vs 1.1.
  assert.ok(Math.abs(p99.margin! - (1.1 - 1.3) / 1.1) < 0.005, `margin ${p99.margin}`);
  assert.ok(Math.abs(p99.margin! - (p99.bound! - p99.measured!) / p99.bound!) < 1e-12);
  assert.match(p99.message, /^regressed: .*prediction bound .* from 5 runs at 99\.9\d*%/);
  assert.equal(verdictOf(verdicts, "p50").status, "fail");
  assert.ok(!verdicts.some((v) => v.name.startsWith("max ")), "max is no default metric");
  assert.equal(verdictOf(verdicts, "throughput").status, "pass");
  assert.equal(verdictOf(verdicts, "error_rate").status, "pass");
});

Deno.test("max is judged only when the plan names it under regression", () => {
  const named = evaluateRegression(mainRun(1.3), history(TIGHT), { floors: { max: 0.2 } });
  assert.deepEqual(named.map((v) => [v.name, v.status]), [["max vs baseline: main", "fail"]]);
  assert.equal(DEFAULT_REGRESSION_FLOORS.max, undefined);
});

Deno.test("5% slower is beyond a tight bound but under the 10% floor, so it passes", () => {
  const p99 = verdictOf(evaluateRegression(mainRun(1.05), history(TIGHT)), "p99");
  assert.ok(p99.measured! < p99.bound!, "within the limit: the floor is the stricter one");
  assert.ok(Math.abs(p99.margin! - (1.1 - 1.05) / 1.1) < 0.005, `margin ${p99.margin}`);
  const bound = /prediction bound (\S+)ms from/.exec(p99.message)?.[1];
  assert.ok(bound && Number(bound) * 1000 < p99.measured!, "but beyond the prediction bound");
  assert.equal(p99.status, "pass");
  assert.match(p99.message, /^no regression: .*5% worse/);
});

Deno.test("against a noisy history, 15% slower stays within the bound and passes", () => {
  const noisy = [1, 1.1, 0.95, 1.05, 0.9];
  const reference = 1; // the median: the robust centre
  const p99 = verdictOf(evaluateRegression(mainRun(reference * 1.15), history(noisy)), "p99");
  assert.match(p99.message, /15(\.0)?% worse/, "a change over the 10% floor");
  assert.ok(p99.measured! < p99.bound!, "but within the prediction bound, the stricter limit");
  assert.ok(p99.margin! > 0);
  assert.equal(p99.status, "pass");
});

/** Three runs ±25% apart: at Holm's level their bound lies far beyond 3× their centre. */
const SCATTERED = [1, 1.3, 0.8];

Deno.test("a history too scattered to bound the next run says not enough history yet, not a limit in hours", () => {
  const slower = verdictOf(evaluateRegression(mainRun(1.4), history(SCATTERED)), "p50");
  assert.equal(slower.status, "inconclusive");
  assert.deepEqual(slower.causes, ["history"]);
  assert.match(slower.message, /^not enough history yet \(3 baseline runs\): .*40(\.\d)?% worse/);
  assert.match(slower.message, /it decides as more runs are stored/);
  assert.doesNotMatch(slower.message, /prediction bound \d/);
  // The limit shown is the floor's (10% over the centre), not the useless bound.
  const centre = verdictOf(evaluateRegression(mainRun(1), history(SCATTERED)), "p50").measured!;
  assert.ok(Math.abs(slower.bound! / centre - 1.1) < 0.01, `bound ${slower.bound} vs ${centre}`);
  assert.ok(slower.margin! < 0);
  // 25% worse, but no further than one of the three runs reached: no evidence of a change.
  const within = verdictOf(evaluateRegression(mainRun(1.25), history(SCATTERED)), "p50");
  assert.equal(within.status, "pass", within.message);
  assert.match(within.message, /within what the last 3 baseline runs stored reached \(highest /);
  assert.match(
    within.message,
    /it decides more as runs are stored \(--update-baseline, up to 10\)/,
  );
});

Deno.test("within the floor, a scattered history still passes, and says the floor alone limited it", () => {
  const p99 = verdictOf(evaluateRegression(mainRun(1.05), history(SCATTERED)), "p50");
  assert.equal(p99.status, "pass");
  assert.match(
    p99.message,
    /^no regression: .*5% worse; floor 10%; not enough history yet \(3 baseline runs\) for a prediction bound: the floor alone limits; limit /,
  );
  assert.ok(p99.measured! < p99.bound! && p99.bound! < p99.measured! * 1.1);
  const faster = verdictOf(evaluateRegression(mainRun(0.8), history(SCATTERED)), "p50");
  assert.equal(faster.status, "pass");
  assert.match(faster.message, /20(\.0)?% better/);
});

Deno.test("a throughput history too scattered to bound a drop says not enough history yet", () => {
  const floors = { throughput: 0.05 };
  const past = baselineOf([8_000, 10_000, 13_000].map((requests) => mainRun(1, { requests })));
  const drop = verdictOf(
    evaluateRegression(mainRun(1, { requests: 7_500 }), past, { floors }),
    "throughput",
  );
  assert.equal(drop.status, "inconclusive");
  assert.match(
    drop.message,
    /^not enough history yet \(3 baseline runs\): 750\/s against baseline 1000\/s/,
  );
  assert.ok(Math.abs(drop.bound! - 950) < 1e-6, `the floor's limit: ${drop.bound}`);
  // A drop no lower than a stored run's own throughput: within what the history reached.
  const seen = verdictOf(
    evaluateRegression(mainRun(1, { requests: 8_500 }), past, { floors }),
    "throughput",
  );
  assert.equal(seen.status, "pass", seen.message);
  assert.match(seen.message, /\(lowest 800\/s\)/);
});

Deno.test("with fewer stored runs than a metric needs, a change beyond the floor only warns", () => {
  // A median needs 3 stored runs, a tail 5: until then the history's spread on this runner is
  // unknown, and a fresh history beside a noisy neighbour must not turn a job red.
  const cases: [string, number[]][] = [["p50", [1]], ["p50", [1, 1.002]], [
    "p99",
    TIGHT.slice(0, 4),
  ]];
  for (const [metric, scales] of cases) {
    const needed = metric === "p50" ? 3 : 5;
    const slower = verdictOf(evaluateRegression(mainRun(3), history(scales)), metric);
    assert.equal(slower.status, "inconclusive", `${metric}, ${scales.length} run(s): 3× slower`);
    assert.deepEqual(slower.causes, ["history"]);
    assert.match(
      slower.message,
      new RegExp(
        `^not enough history yet \\(${scales.length} baseline runs?; ${metric} needs ${needed} ` +
          `to know its spread on this runner, ${
            needed - scales.length
          } more\\): .*(199|200)(\\.\\d)?% worse`,
      ),
    );
    assert.ok(slower.measured! > slower.bound!, "the floor is the limit shown");
    const slightly = verdictOf(
      evaluateRegression(mainRun(1.05), history(scales)),
      metric,
    );
    assert.equal(slightly.status, "pass", `${metric}, ${scales.length} run(s): 5% slower`);
    assert.match(slightly.message, new RegExp(`the floor alone limits until ${needed} are stored`));
  }
  // The error rate's floor is absolute, and errors are no runner noise: one stored run decides.
  const errors = verdictOf(
    evaluateRegression(mainRun(1, { errors: 500 }), history([1]), {
      floors: { error_rate: 0.001 },
    }),
    "error_rate",
  );
  assert.equal(errors.status, "fail", errors.message);
});

Deno.test("a full window still too scattered to decide says the runner is too noisy: use ab", () => {
  const scattered = [1, 1.6, 0.7, 1.9, 0.6, 1.4, 0.8, 2.2, 0.65, 1.7];
  const p50 = verdictOf(evaluateRegression(mainRun(2.5), history(scattered)), "p50");
  assert.equal(p50.status, "inconclusive", p50.message);
  assert.deepEqual(p50.causes, ["history"]);
  assert.match(p50.message, /^the runner is too noisy for a history gate on p50: /);
  assert.match(p50.message, /`tailgate ab`/);
  assert.doesNotMatch(p50.message, /decides as more runs are stored/);
  // Short of a full window it still waits for more runs.
  const fewer = verdictOf(evaluateRegression(mainRun(2), history(scattered.slice(0, 6))), "p50");
  assert.match(fewer.message, /it decides as more runs are stored \(--update-baseline, up to 10\)/);
});

Deno.test("a scattered history passes a run within what its own runs reached, and says so", () => {
  // Half the runs beside a busy neighbour: p50 twice as high in those. A run like them, beyond the
  // floor from the centre, is what this runner already produced unchanged: no evidence, no warning.
  const scattered = [1, 2, 1.05, 2.1, 0.95, 1.9, 1, 2.05, 1.02, 1.95];
  const busy = verdictOf(evaluateRegression(mainRun(2), history(scattered)), "p50");
  assert.equal(busy.status, "pass", busy.message);
  assert.match(
    busy.message,
    /^no regression: 2ms against baseline .* is beyond the floor, but within what the last 10 baseline runs stored reached \(highest 2\.1\d*ms\); .*too noisy for a history gate on p50; compare head against base .*`tailgate ab`/,
  );
  // Beyond the highest of them: still undecided, a warning, never red.
  const beyond = verdictOf(evaluateRegression(mainRun(2.4), history(scattered)), "p50");
  assert.equal(beyond.status, "inconclusive", beyond.message);
  assert.deepEqual(beyond.causes, ["history"]);
  // A tight history still bounds: a run beyond its prediction bound fails as before.
  const slower = verdictOf(evaluateRegression(mainRun(1.3), history(TIGHT)), "p50");
  assert.equal(slower.status, "fail", slower.message);
  // With fewer runs than the metric needs, the history's range is no guide yet.
  const early = verdictOf(evaluateRegression(mainRun(2), history([1, 2.1])), "p50");
  assert.equal(early.status, "inconclusive", early.message);
});

Deno.test("a throughput regression is a drop, not a rise", () => {
  const floors = { throughput: 0.05 };
  const past = history([1, 1, 1]);
  const judge = (requests: number) =>
    verdictOf(evaluateRegression(mainRun(1, { requests }), past, { floors }), "throughput");
  const drop = judge(9_000);
  assert.equal(drop.status, "fail");
  assert.equal(drop.measured, 900);
  assert.equal(drop.unit, "per_sec");
  // 5% under a history without spread: the floor's limit, lower than the prediction bound.
  assert.ok(Math.abs(drop.bound! - 950) < 1e-9, `bound ${drop.bound}`);
  assert.ok(Math.abs(drop.margin! - (900 - 950) / 950) < 1e-9);
  assert.equal(judge(9_700).status, "pass", "3% lower: under the 5% floor");
  const rise = judge(11_000);
  assert.equal(rise.status, "pass");
  assert.match(rise.message, /better/);
});

Deno.test("error_rate regresses by absolute points, not by relative change", () => {
  const floors = { error_rate: 0.001 };
  const judge = (baselineErrors: number, errors: number) =>
    verdictOf(
      evaluateRegression(mainRun(1, { errors }), history([1, 1, 1], { errors: baselineErrors }), {
        floors,
      }),
      "error_rate",
    );
  const fromZero = judge(0, 5);
  assert.equal(fromZero.status, "pass", "0% to 0.05%: infinitely worse, but 0.05 points");
  assert.equal(fromZero.unit, "fraction");
  assert.equal(fromZero.bound, 0.001, "0% + 0.1 points");
  const worse = judge(0, 20);
  assert.equal(worse.status, "fail");
  // 20 failed besides 10,000 answered.
  assert.ok(Math.abs(worse.measured! - 20 / 10_020) < 1e-12);
  assert.ok(Math.abs(worse.margin! - (0.001 - 20 / 10_020) / 0.001) < 1e-9);
  assert.match(worse.message, /0\.2 points worse/);
  assert.equal(judge(1_000, 1_008).status, "pass", "10% to 10.08%: 0.08 points");
  assert.equal(judge(100, 150).status, "fail", "1% to 1.5%: 0.5 points");
});

Deno.test("too few requests beyond a percentile the plan names is inconclusive", () => {
  const named = { floors: DEFAULT_REGRESSION_FLOORS };
  const shortNow = evaluateRegression(mainRun(1, { requests: 5_000 }), history(TIGHT), named);
  assert.equal(verdictOf(shortNow, "p99.9").status, "inconclusive");
  assert.match(
    verdictOf(shortNow, "p99.9").message,
    /one had 5000 requests in all: run the stage for at least 10000 requests/,
    "the remedy: how many requests would decide it",
  );
  assert.notEqual(verdictOf(shortNow, "p99").status, "inconclusive", "50 lie beyond p99");
  const past = baselineOf([mainRun(1), mainRun(1, { requests: 5_000 }), mainRun(1)]);
  const shortThen = verdictOf(evaluateRegression(mainRun(1), past, named), "p99.9");
  assert.equal(shortThen.status, "inconclusive");
  assert.equal(shortThen.measured, undefined);
  assert.match(shortThen.message, /one had 5000 requests/);
});

Deno.test("a default percentile too far in the tail for the requests is not judged, so CI stays green", () => {
  const verdicts = evaluateRegression(mainRun(1, { requests: 5_000 }), history(TIGHT));
  const metrics = verdicts.map((v) => v.name.split(" ")[0]);
  assert.ok(!metrics.includes("p99.9"), "p99.9 needs 10,000 requests: not judged by default");
  assert.ok(metrics.includes("p99"), "50 requests lie beyond p99: judged");
  assert.ok(verdicts.every((v) => v.status !== "inconclusive"), JSON.stringify(verdicts));
  const past = baselineOf([mainRun(1), mainRun(1, { requests: 5_000 }), mainRun(1)]);
  const names = evaluateRegression(mainRun(1), past).map((v) => v.name.split(" ")[0]);
  assert.ok(!names.includes("p99.9"), "one short history run is enough to skip it");
});

Deno.test("a run that fell behind passes no regression check but still fails one beyond doubt", () => {
  const verdicts = evaluateRegression(mainRun(1.3, {}, true), history(TIGHT));
  assert.equal(verdicts.length, Object.keys(DEFAULT_REGRESSION_FLOORS).length);
  // Late by 42 ms at p99 is behind schedule for every gate here (the limit is 10 ms).
  assert.deepEqual(verdicts.map((v) => v.status), verdicts.map(() => "inconclusive"));
  // 30% slower at p50 is about 0.3 ms, which 42 ms of the generator's lateness could explain.
  const p50 = verdictOf(verdicts, "p50");
  assert.equal(p50.status, "inconclusive");
  assert.match(p50.message, /not beyond doubt: the generator's own delays/);
  assert.match(p50.message, /could explain it: rerun on a quieter runner, or with more workers/);
  assert.deepEqual(p50.causes, ["generator", "schedule"]);
  const held = verdictOf(evaluateRegression(mainRun(1.3), history(TIGHT)), "p50");
  assert.equal(held.status, "fail", "the same run with a prompt generator regressed");
});

Deno.test("a stage whose rate or duration changed is not compared with its history", () => {
  const run = (ratePerSec: number, durationMs: number, scale: number) =>
    gateResult([warmup(), {
      name: "main",
      ratePerSec,
      durationMs,
      labels: [{ label: "GET /a", response: scaledUs(10_000, scale) }],
    }, {
      name: "second",
      ratePerSec: 2000,
      durationMs: 5_000,
      labels: [{ label: "GET /a", response: scaledUs(10_000, scale) }],
    }]);
  const past = baselineOf(TIGHT.map((s) => run(1000, 10_000, s)));
  for (const [rate, duration] of [[1500, 10_000], [1000, 20_000]]) {
    const verdicts = evaluateRegression(run(rate, duration, 1.3), past);
    assert.ok(verdicts.length > 0);
    assert.ok(verdicts.every((v) => v.name.endsWith(": second")), `${rate}/s for ${duration}ms`);
    assert.equal(verdicts.find((v) => v.name === "p99 vs baseline: second")!.status, "fail");
  }
});

Deno.test("with several labels the stage and each label get their own verdicts", () => {
  const run = (scaleA: number, scaleB: number) =>
    gateResult([warmup(), {
      name: "main",
      ratePerSec: 2000,
      durationMs: 10_000,
      labels: [
        { label: "GET /a", response: scaledUs(10_000, scaleA) },
        { label: "GET /b", response: scaledUs(10_000, scaleB) },
      ],
    }]);
  const past = baselineOf(TIGHT.map((s) => run(s, s)));
  const verdicts = evaluateRegression(run(1, 1.3), past, { floors: { p99: 0.1 } });
  assert.deepEqual(verdicts.map((v) => v.name), [
    "p99 vs baseline: main",
    "p99 vs baseline: main [GET /a]",
    "p99 vs baseline: main [GET /b]",
  ]);
  const [, a, b] = verdicts;
  assert.equal(a.label, "GET /a");
  assert.equal(a.status, "pass");
  assert.equal(b.label, "GET /b");
  assert.equal(b.status, "fail");
  assert.equal(verdicts[0].label, undefined);
  const single = evaluateRegression(mainRun(1), history(TIGHT), { floors: { p99: 0.1 } });
  assert.deepEqual(single.map((v) => v.name), ["p99 vs baseline: main"], "one label: no split");
});

Deno.test("ksDistance is 0 against an identical history and large against a shifted one", () => {
  const past = history([1, 1, 1]);
  const same = evaluateRegression(mainRun(1), past);
  assert.ok(same.every((v) => v.ksDistance === 0));
  const shifted = evaluateRegression(mainRun(2), past);
  assert.ok(shifted.every((v) => v.ksDistance! > 0.7), `${shifted[0].ksDistance}`);
  assert.match(shifted[0].message, /KS distance 0\.7\d\d/);
});

Deno.test("floors given replace the defaults, and only the last maxRuns runs are used", () => {
  const past = history([2, 2, ...TIGHT]);
  const all = evaluateRegression(mainRun(1.3), past, { floors: { p99: 0.5 } });
  assert.deepEqual(all.map((v) => v.name), ["p99 vs baseline: main"]);
  assert.equal(all[0].status, "pass", "30% is under a 50% floor");
  const recent = evaluateRegression(mainRun(1.3), past, { floors: { p99: 0.1 }, maxRuns: 5 });
  assert.equal(recent[0].status, "fail");
  assert.match(recent[0].message, /from 5 runs/);
  const everything = evaluateRegression(mainRun(1.3), past, { floors: { p99: 0.1 } });
  assert.match(everything[0].message, /from 7 runs/);
  assert.equal(
    everything[0].status,
    "fail",
    "two old runs at 2x neither drag the robust centre nor hide the regression",
  );
});

Deno.test("a regression verdict says its bound comes from Holm over the run's checks", () => {
  const verdicts = evaluateRegression(mainRun(1.3), history(TIGHT));
  const p50 = verdictOf(verdicts, "p50");
  assert.equal(p50.status, "fail");
  assert.match(p50.message, new RegExp(`Holm over ${verdicts.length - 1} checks`));
});

Deno.test("a stored run with no answered request is no latency baseline: max and mean skip it", () => {
  const floors = { max: 0.2, mean: 0.2, error_rate: 0.001 };
  // Every request of the stored run failed: its latency histogram is empty.
  const failed = history([1], { requests: 0, errors: 10_000 });
  const alone = evaluateRegression(mainRun(1), failed, { floors });
  assert.deepEqual(alone.map((v) => v.name), ["error_rate vs baseline: main"]);
  assert.ok(alone.every((v) => !v.message.includes("Infinity")), alone[0].message);
  // Beside an answered run, max and mean are judged against that one only.
  const mixed = baselineOf([mainRun(1, { requests: 0, errors: 10_000 }), mainRun(1)]);
  const verdicts = evaluateRegression(mainRun(1), mixed, { floors });
  for (const metric of ["max", "mean"]) {
    const v = verdictOf(verdicts, metric);
    assert.equal(v.status, "pass", v.message);
    assert.match(v.message, /1 baseline run/);
  }
});

Deno.test("what the long history's baseline runs reached counts too, not a contended one", () => {
  // The window's 10 runs are scattered up to 2.1×; 20 runs before them reached 2.6×.
  const scattered = [1, 2, 1.05, 2.1, 0.95, 1.9, 1, 2.05, 1.02, 1.95];
  const older = [...Array(20)].map((_, i) => (i % 2 ? 2.6 : 1));
  const withHistory = (marked: boolean) => {
    const b = history(scattered);
    b.history = [...older, ...scattered].map((scale, i) => ({
      ...historyEntryFromRun(storedRunFrom(mainRun(scale))),
      ...(marked && i < 20 && scale > 2 ? { notBaseline: ["contended" as const] } : {}),
    }));
    return b;
  };
  const run = mainRun(2.4);
  const alone = verdictOf(evaluateRegression(run, history(scattered)), "p50");
  assert.equal(alone.status, "inconclusive", "beyond the window's 10 runs alone");
  const seen = verdictOf(evaluateRegression(run, withHistory(false)), "p50");
  assert.equal(seen.status, "pass", seen.message);
  assert.match(seen.message, /within what the last 30 baseline runs stored reached \(highest 2\.6/);
  // The older runs that reached 2.6× were contended: no baseline, no reach.
  const marked = verdictOf(evaluateRegression(run, withHistory(true)), "p50");
  assert.equal(marked.status, "inconclusive", marked.message);
});
