import assert from "node:assert/strict";
import {
  coarseBucket,
  labelTailFields,
  mergeTails,
  SlowestTally,
} from "../../../runner/recorder/slowest_tally.ts";
import { createHistogram, toEncodedHistogram } from "../../../runner/hdr/mod.ts";
import { Prng, traceIdHex } from "../../../runner/schedule/mod.ts";
import { SLOWEST_KEPT } from "../../../runner/model/mod.ts";

/** Seeded response times: mostly 1-2 ms, a few slow ones up to a second. */
function responseTimes(count: number, seed: number): number[] {
  const prng = new Prng(seed);
  return Array.from({ length: count }, () => {
    const u = prng.next();
    return u < 0.995 ? 1000 + Math.floor(prng.next() * 1000) : Math.floor(prng.next() * 1e6);
  });
}

Deno.test("the slowest are the ten longest response times, slowest first, failures too", () => {
  const times = responseTimes(5_000, 1);
  const t = new SlowestTally();
  times.forEach((us, n) =>
    t.add(n, 0, n / 10, us, n === 77 ? 0 : 200, n === 77 ? "timeout" : undefined, true)
  );
  const { slowest } = t.tail(undefined);
  const expected = times.map((us, n) => ({ us, n })).sort((a, b) => b.us - a.us || a.n - b.n)
    .slice(0, SLOWEST_KEPT);
  assert.deepEqual(slowest.map((r) => [r.n, r.responseUs]), expected.map((e) => [e.n, e.us]));
  assert.equal(slowest[0].intendedMs, expected[0].n / 10);
  assert.equal(slowest.every((r) => r.traceId === undefined), true, "no trace: no trace ids");
});

Deno.test("a failed request among the slowest keeps its error; equal times go by n", () => {
  const t = new SlowestTally();
  for (let n = 0; n < 20; n++) t.add(n, 0, n, 500, 200, undefined, true);
  t.add(20, 0, 20, 5_000_000, 0, "timeout", false);
  const { slowest } = t.tail(3);
  assert.deepEqual(slowest[0], {
    n: 20,
    step: 0,
    intendedMs: 20,
    responseUs: 5_000_000,
    status: 0,
    error: "timeout",
  });
  assert.deepEqual(slowest.slice(1).map((r) => r.n), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  assert.equal(slowest[1].traceId, traceIdHex(3, 0, 0), "a written request has its trace id");
});

Deno.test("each exemplar lies in its percentile's bucket and is the latest request there", () => {
  const times = responseTimes(20_000, 2);
  const t = new SlowestTally();
  const h = createHistogram();
  times.forEach((us, n) => {
    t.add(n, 0, n, us, 200, undefined, true);
    h.recordValue(us);
  });
  const response = toEncodedHistogram(h);
  const { exemplars } = labelTailFields(t.tail(9), response);
  assert.deepEqual(exemplars.map((e) => e.percentile), ["90", "99", "99.9", "99.99"]);
  for (const e of exemplars) {
    const valueUs = response.percentilesUs[e.percentile];
    assert.equal(coarseBucket(e.responseUs), coarseBucket(valueUs), `p${e.percentile}`);
    // The latest request (highest intended time) of that bucket.
    const latest = times.findLastIndex((us) => coarseBucket(us) === coarseBucket(valueUs));
    assert.equal(e.intendedMs, latest);
    assert.equal(e.traceId, traceIdHex(9, latest, 0));
    assert.ok(Math.abs(e.responseUs - valueUs) <= valueUs * 0.07, `${e.responseUs} vs ${valueUs}`);
  }
});

Deno.test("exemplars are given for the percentiles the count supports, failed requests never", () => {
  const t = new SlowestTally();
  const h = createHistogram();
  for (let n = 0; n < 150; n++) {
    t.add(n, 0, n, 1000 + n, 200, undefined, true);
    h.recordValue(1000 + n);
  }
  t.add(150, 0, 150, 1149, 500, "unexpected_status", true);
  const { exemplars } = labelTailFields(t.tail(undefined), toEncodedHistogram(h));
  assert.deepEqual(exemplars.map((e) => e.percentile), ["90", "99"]);
  assert.equal(exemplars.some((e) => e.error !== undefined), false);
});

Deno.test("tails of several recorders merge into exactly the tail of one that saw all", () => {
  const times = responseTimes(6_000, 3);
  const parts = [new SlowestTally(), new SlowestTally(), new SlowestTally()];
  const all = new SlowestTally();
  times.forEach((us, n) => {
    // Workers take n mod 3; journeys' steps share an n.
    const step = n % 5 === 0 ? 1 : 0;
    parts[n % 3].add(n, step, n / 2, us, 200, undefined, true);
    all.add(n, step, n / 2, us, 200, undefined, true);
  });
  assert.deepEqual(mergeTails(parts.map((p) => p.tail(4))), all.tail(4));
});

Deno.test("coarse buckets are exact below 32 us and a sixteenth of an octave above", () => {
  assert.equal(coarseBucket(0), 0);
  assert.equal(coarseBucket(31), 31);
  assert.equal(coarseBucket(32), 32);
  assert.equal(coarseBucket(33), 32);
  assert.equal(coarseBucket(34), 33);
  assert.equal(coarseBucket(3_600_000_000) < 32 + 16 * 27, true);
  for (let us = 1; us < 1e7; us = Math.ceil(us * 1.01)) {
    assert.ok(coarseBucket(us + 1) - coarseBucket(us) <= 1);
  }
});
