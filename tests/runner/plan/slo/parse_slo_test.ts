import assert from "node:assert/strict";
import { parseSlo } from "../../../../runner/plan/slo/parse_slo.ts";

function ok(text: string) {
  const r = parseSlo(text);
  if (!r.ok) throw new Error(`${text}: ${r.problems[0].message}`);
  return r.value;
}

function err(text: string) {
  const r = parseSlo(text);
  if (r.ok) throw new Error(`${text} parsed but should not`);
  return r.problems[0];
}

Deno.test("parseSlo() reads a percentile bound to a rate, in microseconds", () => {
  const slo = ok("p99.9 < 10ms at 20k/s");
  assert.deepEqual(slo.metric, { kind: "percentile", percentile: 99.9 });
  assert.equal(slo.operator, "<");
  assert.equal(slo.bound, 10_000);
  assert.equal(slo.atRatePerSec, 20_000);
  assert.equal(slo.label, undefined);
});

Deno.test("parseSlo() reads the seed wording 99.9%ile as p99.9", () => {
  assert.deepEqual(ok("99.9%ile < 10ms at 20k/s").metric, { kind: "percentile", percentile: 99.9 });
});

Deno.test("parseSlo() reads max, mean, error_rate and throughput with their units", () => {
  assert.equal(ok("max < 1s").bound, 1_000_000);
  assert.deepEqual(ok("mean < 5ms").metric, { kind: "mean" });
  assert.equal(ok("p50 <= 2ms").operator, "<=");
  assert.equal(ok("error_rate < 0.1%").bound, 0.001);
  const t = ok("throughput >= 19.5k/s");
  assert.equal(t.bound, 19_500);
  assert.equal(t.operator, ">=");
});

Deno.test("parseSlo() scopes to a quoted label, before or after the rate", () => {
  assert.equal(ok('p99 < 50ms for "POST /orders"').label, "POST /orders");
  const both = ok("p99 < 50ms for 'GET /a' at 1k/s");
  assert.equal(both.label, "GET /a");
  assert.equal(both.atRatePerSec, 1000);
});

Deno.test("parseSlo() points at the offending part of the line", () => {
  const e = err("p99.9 less than 10ms");
  assert.equal(e.offset, 6);
  assert.equal(e.length, 4);
  const unit = err("p99 < 10parsecs");
  assert.equal(unit.offset, 6);
});

Deno.test("parseSlo() suggests the metric a user from another tool meant", () => {
  assert.equal(err("avg < 5ms").hint, "did you mean `mean`?");
  assert.equal(err("p100 < 1s").hint, "use `max`");
  assert.equal(err("errors < 1%").hint, "did you mean `error_rate`?");
});

Deno.test("parseSlo() refuses bounds in the wrong direction", () => {
  assert.match(err("p99 > 10ms").message, /floor on latency/);
  assert.match(err("throughput < 10k/s").message, /floor/);
  assert.match(err("p99 = 10ms").message, /expected </);
});

Deno.test("parseSlo() refuses a label without quotes and trailing words", () => {
  assert.equal(err("p99 < 50ms for GET").hint, 'write `for "GET"`');
  assert.match(err("p99 < 50ms please").message, /unexpected `please`/);
  assert.match(err("p99 < 50ms at").message, /needs a rate/);
});

Deno.test("parseSlo() reads trend(p50|p99) with a slope, stalls with a count, sustainable_rate with a rate", () => {
  assert.deepEqual(ok("trend(p99) < 1ms/min").metric, { kind: "trend", percentile: 99 });
  assert.equal(ok("trend(p99) < 1ms/min").bound, 1_000);
  assert.equal(ok("trend( p50 ) <= 50us/s at 1k/s").bound, 3_000);
  assert.equal(ok("trend( p50 ) <= 50us/s at 1k/s").atRatePerSec, 1_000);
  const zero = ok("stalls == 0");
  assert.deepEqual([zero.metric.kind, zero.operator, zero.bound], ["stalls", "<=", 0]);
  assert.equal(ok("stalls <= 2 at 20k/s").bound, 2);
  const rate = ok("sustainable_rate >= 20k/s");
  assert.deepEqual([rate.metric.kind, rate.operator, rate.bound], [
    "sustainable_rate",
    ">=",
    20_000,
  ]);
});

Deno.test("parseSlo() refuses what the time-domain and capacity SLOs cannot mean", () => {
  assert.match(err("trend(p90) < 1ms/min").hint!, /trend\(p99\) < 1ms\/min/);
  assert.match(err("trend(p99) < 1ms").message, /`1ms` is not a slope/);
  assert.match(err("stalls == 2").hint!, /write `stalls <= 2`/);
  assert.match(err("stalls < 0").hint!, /write `stalls == 0`/);
  assert.match(err("stalls > 1").message, /floor on stalls/);
  assert.match(err("p99 == 3ms").message, /expected <, <=, > or >= but found `==`/);
  assert.match(err("sustainable_rate <= 2k/s").message, /judged against a floor/);
  assert.match(err("sustainable_rate >= 2k/s at 1k/s").message, /takes no `at`/);
  assert.match(err('stalls == 0 for "GET /"').message, /`stalls` takes no `for`/);
  assert.equal(err("capacity >= 1k/s").hint, "did you mean `sustainable_rate`?");
  const e = err("trend(p99) < 1ms/day");
  assert.deepEqual([e.offset, e.length], [13, 7]);
});

Deno.test("parseSlo() refuses an SLO no run can pass, pointing at its bound", () => {
  // No error rate is below 0%: `error_rate < 0%` would fail a server with no errors at all.
  const none = err("error_rate < 0%");
  assert.match(none.message, /no error rate is below 0%/);
  assert.match(none.hint!, /error_rate <= 0%/);
  assert.deepEqual([none.offset, none.length], [13, 2]);
  assert.match(err("error_rate < 0.0%").message, /below 0%/);
  // Latency is measured in whole microseconds: nothing is below 1us.
  const tiny = err("p99 < 0.5us");
  assert.match(
    tiny.message,
    /whole microseconds and none is below 1us, so this SLO can never pass/,
  );
  assert.deepEqual([tiny.offset, tiny.length], [6, 5]);
  assert.match(err("mean < 1us").message, /can never pass/);
  // What can pass still parses.
  assert.equal(ok("error_rate <= 0%").bound, 0);
  assert.equal(ok("p99 <= 1us").bound, 1);
  assert.equal(ok("max < 2us").bound, 2);
});

Deno.test("parseSlo() reads `over` as a window of whole seconds, beside `at` and `for`", () => {
  assert.equal(ok("p99 < 50ms over 10s").windowMs, 10_000);
  const all = ok('error_rate < 1% at 1k/s over 1m for "GET /"');
  assert.deepEqual([all.windowMs, all.atRatePerSec, all.label], [60_000, 1000, "GET /"]);
  assert.equal(ok("max < 1s over 5s").windowMs, 5_000);
  assert.equal(ok("mean < 2ms over 3s").windowMs, 3_000);
  assert.equal(ok("p99 < 50ms").windowMs, undefined);
});

Deno.test("parseSlo() refuses a window that is not whole seconds, or on a metric without one", () => {
  const half = err("p99 < 50ms over 1500ms");
  assert.match(half.message, /a window is a whole number of seconds/);
  assert.equal(half.hint, "write `over 2s`");
  assert.equal(half.offset, 16);
  assert.equal(err("p99 < 50ms over 500ms").hint, "write `over 1s`");
  for (
    const text of [
      "throughput > 1k/s over 10s",
      "stalls == 0 over 10s",
      "trend(p99) < 1ms/min over 10s",
    ]
  ) {
    const e = err(text);
    assert.match(e.message, /takes no `over`/, text);
    assert.equal(text.slice(e.offset, e.offset + e.length), "over");
  }
  assert.match(err("p99 < 50ms over").message, /`over` needs a window length/);
  assert.match(err("p99 < 50ms over soon").message, /soon/);
  assert.match(err("p99 < 50ms over 10s over 20s").message, /unexpected `over`/);
});

Deno.test("parseSlo() reads journey. and ttfb. before a percentile, max or mean", () => {
  const journey = ok('journey.p99 < 200ms for "order"');
  assert.deepEqual(journey.metric, { kind: "percentile", percentile: 99 });
  assert.equal(journey.series, "journey");
  assert.equal(journey.bound, 200_000);
  assert.equal(journey.label, "order");
  assert.equal(ok("journey.max < 2s").series, "journey");
  const ttfb = ok("ttfb.mean < 20ms");
  assert.deepEqual([ttfb.metric, ttfb.series, ttfb.bound], [{ kind: "mean" }, "ttfb", 20_000]);
  assert.equal(ok('ttfb.p90 < 5ms for "GET /"').label, "GET /");
  assert.equal(ok("p99 < 50ms").series, undefined, "response time, as before");
});

Deno.test("parseSlo() refuses journey. and ttfb. before what is not a latency", () => {
  const e = err("journey.error_rate < 1%");
  assert.equal(e.message, "`journey.` goes before a percentile, `max` or `mean`");
  assert.deepEqual([e.offset, e.length], [8, 10]);
  assert.equal(e.hint, "e.g. `journey.p99 < 200ms`");
  assert.equal(err("ttfb.throughput > 1k/s").message.startsWith("`ttfb.`"), true);
});

Deno.test('parseSlo() reads check_rate("…") as a failed share, for a label or all', () => {
  const all = ok('check_rate("/state == open") < 0.1%');
  assert.deepEqual(all.metric, { kind: "check_rate", check: "/state == open" });
  assert.equal(all.bound, 0.001);
  assert.equal(all.label, undefined);
  const one = ok("check_rate('status 201') <= 1% for \"order / create\"");
  assert.deepEqual([one.metric, one.operator, one.label], [
    { kind: "check_rate", check: "status 201" },
    "<=",
    "order / create",
  ]);
});

Deno.test("parseSlo() refuses check_rate without its check in quotes", () => {
  for (
    const text of ["check_rate < 1%", "check_rate(/state == open) < 1%", 'check_rate("") < 1%']
  ) {
    const e = err(text);
    assert.equal(e.message, "`check_rate` needs the check it counts, in quotes", text);
    assert.deepEqual([e.offset, e.length], [0, 10]);
  }
});
