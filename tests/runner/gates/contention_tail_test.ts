import assert from "node:assert/strict";
import { evaluateSlos } from "../../../runner/gates/slo/mod.ts";
import { contendedIntervals, withoutContended } from "../../../runner/gates/contention_tail.ts";
import { contendedResult, pointsUs, type SecondSpec } from "../../_helpers/gate_fixtures.ts";
import { evaluateRegression } from "../../../runner/gates/regression/mod.ts";
import { decodedRuns } from "../../_helpers/history_fixtures.ts";
import { storedRunFrom } from "../../../runner/history/history_store.ts";
import {
  HISTORY_FILE_SCHEMA,
  HISTORY_FILE_VERSION,
  type HistoryFile,
} from "../../../runner/history/history_types.ts";

/** A second of 1,000 requests: `slow` of them at 30 ms, the rest at 500 µs. */
function second(slow: number, serviceWaitMs = 0): SecondSpec {
  const points: [number, number][] = [[500, 1000 - slow], [30_000, slow]];
  return { response: pointsUs(points.filter(([, n]) => n > 0)), serviceWaitMs };
}

Deno.test("an SLO excess confined to the seconds the service waited for a CPU is undecided", () => {
  // 300 slow requests (3% of 10,000) all in the one second the service waited 300 ms: without
  // the machine's measure p99 < 10ms fails; with it, the machine explains the excess.
  const seconds = [...Array(9)].map(() => second(0, 2));
  seconds.push(second(300, 300));
  const [slo] = evaluateSlos(contendedResult(seconds, ["p99 < 10ms"]));
  assert.equal(slo.status, "inconclusive", slo.message);
  assert.deepEqual(slo.causes, ["contention"]);
  assert.match(slo.message, /the runner was contended: the service \(server\) waited 318ms/);
  assert.match(slo.message, /300ms of it in the second from 9 s/);
  assert.match(slo.message, /tailgate ab/);

  const [unmeasured] = evaluateSlos(
    contendedResult(seconds, ["p99 < 10ms"], { measured: false }),
  );
  assert.equal(unmeasured.status, "fail", unmeasured.message);
});

Deno.test("an SLO whose interval reaches the bound only through a contended second is the runner's", () => {
  // 100 slow requests, 1% of 10,000, all in the second the service waited 300 ms: p99's interval
  // straddles 10 ms. Too few requests would be the plan's to fix (red by default); here the
  // machine could have made every one of them slow, so the runner left it undecided: a warning.
  const seconds = [...Array(9)].map(() => second(0, 2));
  seconds.push(second(100, 300));
  const [slo] = evaluateSlos(contendedResult(seconds, ["p99 < 10ms"]));
  assert.equal(slo.status, "inconclusive", slo.message);
  assert.deepEqual(slo.causes, ["contention"]);
  assert.match(slo.message, /95% interval would be 500us to 500us, so the machine could explain/);

  const [unmeasured] = evaluateSlos(
    contendedResult(seconds, ["p99 < 10ms"], { measured: false }),
  );
  assert.equal(unmeasured.status, "inconclusive", unmeasured.message);
  assert.deepEqual(unmeasured.causes, ["sampling"]);
});

Deno.test("a server slow in every second fails whatever one contended second explains", () => {
  const seconds = [...Array(9)].map(() => second(30, 2));
  seconds.push(second(30, 300));
  const [slo] = evaluateSlos(contendedResult(seconds, ["p99 < 10ms"]));
  assert.equal(slo.status, "fail", slo.message);
  assert.match(slo.message, /beyond what the machine's contention could/);
});

Deno.test("contention never turns a pass or a fail of a lower bound into anything else", () => {
  const seconds = [...Array(10)].map(() => second(0, 400));
  const [p99, throughput] = evaluateSlos(
    contendedResult(seconds, ["p99 < 10ms", "throughput >= 2000/s"]),
  );
  assert.equal(p99.status, "pass", p99.message);
  assert.equal(throughput.status, "fail", throughput.message);
});

Deno.test("a max beyond its bound only in a contended second is undecided; elsewhere it fails", () => {
  const quietSlow = [...Array(10)].map((_, i) => second(i === 3 ? 1 : 0, i === 8 ? 300 : 0));
  const [fails] = evaluateSlos(contendedResult(quietSlow, ["max < 10ms"]));
  assert.equal(fails.status, "fail", fails.message);

  const busySlow = [...Array(10)].map((_, i) => second(i === 8 ? 1 : 0, i === 8 ? 300 : 0));
  const [undecided] = evaluateSlos(contendedResult(busySlow, ["max < 10ms"]));
  assert.equal(undecided.status, "inconclusive", undecided.message);
  assert.deepEqual(undecided.causes, ["contention"]);
});

Deno.test("a windowed SLO's window the machine explains is undecided, not failed", () => {
  const seconds = [...Array(20)].map((_, i) => second(i === 12 ? 300 : 0, i === 12 ? 300 : 1));
  const [slo] = evaluateSlos(contendedResult(seconds, ["p99 < 10ms over 5s"]));
  assert.equal(slo.status, "inconclusive", slo.message);
  assert.ok(slo.causes?.includes("contention"), slo.message);
  assert.equal(slo.windows?.failed, 0);
});

Deno.test("withoutContended takes off only what each interval's wait can explain, the smallest excess first", () => {
  const a = pointsUs([[100, 990], [11_000, 5], [14_000, 5]]);
  const b = pointsUs([[100, 995], [30_000, 5]]);
  const all = pointsUs([[100, 1985], [11_000, 5], [14_000, 5], [30_000, 5]]);
  const bucketsOf = (h: typeof a) => [...h.recordedValues()];
  const iv = (h: typeof a, waitMs: number) => ({
    startMs: 0,
    durationMs: 1000,
    waitMs,
    buckets: bucketsOf(h),
  });
  // 6 ms of wait in a's second, over a 10 ms threshold: its 1 ms excesses go, its 4 ms ones do
  // too (2 × 1000 × 2 / 1000 = 4 of them at least), and b's 20 ms excess stays: b's second was
  // quiet.
  const taken = withoutContended(all, [iv(a, 6), iv(b, 0)], 10_000)!;
  assert.equal(taken.takenOff, 10);
  assert.equal(taken.adjusted.totalCount, all.totalCount);
  assert.equal(taken.adjusted.maxValue, all.maxValue, "b's slow requests are not the machine's");
  // 2 ms of wait explains the 1 ms excesses (at most 2 × 1000 × 1 / 1000 = 2, and 2 waits in
  // flight at 0.1 ms each, so 3), none of the 4 ms ones.
  assert.equal(withoutContended(all, [iv(a, 2)], 10_000)?.takenOff, 3);
  assert.equal(withoutContended(all, [iv(a, 0.5)], 10_000), undefined);
});

Deno.test("a few milliseconds of wait in every second never excuse a server tens of milliseconds over", () => {
  // A quiet runner: the service waits 12 ms a second (softirqs, a neighbour's short bursts), and
  // the server answers 2% of its requests 40 ms past a 10 ms bound. That is the server's.
  const seconds = [...Array(10)].map(() => ({
    response: pointsUs([[500, 980], [50_000, 20]]),
    serviceWaitMs: 12,
  }));
  const [slo] = evaluateSlos(contendedResult(seconds, ["p99 < 10ms"]));
  assert.equal(slo.status, "fail", slo.message);
});

Deno.test("contendedIntervals lists only the bound stages' intervals in which the service waited", () => {
  const seconds = [second(0, 0), second(0, 0), second(0, 50)];
  const result = contendedResult(seconds, []);
  const listed = contendedIntervals(result, [0]);
  // Second 1 takes its neighbour's wait (a request late in it is answered in second 2).
  assert.deepEqual(listed.map((c) => [c.startMs, c.waitMs]), [[1000, 50], [2000, 50]]);
  assert.deepEqual(contendedIntervals(result, [1]), []);
  assert.deepEqual(contendedIntervals(contendedResult(seconds, [], { measured: false }), [0]), []);
});

Deno.test("a p99 regression confined to the seconds the service waited is undecided, not red", () => {
  const quiet = (jitter: number) =>
    contendedResult([...Array(10)].map(() => ({
      response: pointsUs([[500 + jitter, 990], [2_000 + jitter, 10]]),
      serviceWaitMs: 1,
    })));
  const past: HistoryFile = {
    schema: HISTORY_FILE_SCHEMA,
    version: HISTORY_FILE_VERSION,
    plan: "shop",
    runs: [0, 2, 4, 6, 8].map((j) => storedRunFrom(quiet(j))),
    history: [],
  };
  // One second with the service kept from a CPU for 300 ms: 300 requests at 30 ms.
  const seconds = [...Array(9)].map(() => ({
    response: pointsUs([[500, 990], [2_000, 10]]),
    serviceWaitMs: 1,
  }));
  seconds.push({ response: pointsUs([[500, 700], [30_000, 300]]), serviceWaitMs: 300 });
  const busy = contendedResult(seconds);
  const p99 = evaluateRegression(busy, decodedRuns(past)).find((v) => v.name.startsWith("p99 "))!;
  assert.equal(p99.status, "inconclusive", p99.message);
  assert.deepEqual(p99.causes, ["contention"]);
  assert.match(p99.message, /^regressed: .*not beyond doubt: the runner was contended/);

  // The same run without the machine's measure is a regression beyond doubt.
  const blind = contendedResult(seconds, [], { measured: false });
  assert.equal(
    evaluateRegression(blind, decodedRuns(past)).find((v) => v.name.startsWith("p99 "))!.status,
    "fail",
  );
});
