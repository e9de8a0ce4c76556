import assert from "node:assert/strict";
import type { Slo } from "../../../../runner/plan/types.ts";
import { parseSlo } from "../../../../runner/plan/slo/parse_slo.ts";
import {
  ageBeyondUs,
  certainlyBeyond,
  certainReason,
  decidedEarly,
  failsForCertain,
} from "../../../../runner/gates/fail_fast/certain_failure.ts";

function slo(text: string): Slo {
  const parsed = parseSlo(text);
  if (!parsed.ok) throw new Error(parsed.problems[0].message);
  return { ...parsed.value, line: 1 };
}

Deno.test("a request is beyond a latency bound once outstanding for the bound plus max(bound, 50ms)", () => {
  assert.equal(ageBeyondUs(10_000), 60_000);
  assert.equal(ageBeyondUs(50_000), 100_000);
  assert.equal(ageBeyondUs(200_000), 400_000);
});

Deno.test("only a percentile, max or error_rate is decided early", () => {
  for (
    const text of ["p99 < 10ms", "p99.9 <= 1s", "max < 1s", "error_rate < 1%", "error_rate <= 0%"]
  ) {
    assert.equal(decidedEarly(slo(text)), true, text);
  }
  for (const text of ["mean < 5ms", "throughput >= 100/s", "stalls == 0", "trend(p99) < 1ms/min"]) {
    assert.equal(decidedEarly(slo(text)), false, text);
  }
  // Undecided SLOs never fail early, whatever the evidence.
  assert.equal(failsForCertain(slo("mean < 5ms"), { planned: 10, failed: 10, overdue: 0 }), false);
});

Deno.test("a percentile fails for certain once the share beyond it is above what it allows, at 95%", () => {
  // 10,000 planned: p99 allows about 100 beyond 10 ms.
  const p99 = slo("p99 < 10ms");
  const at = (failed: number, overdue: number) =>
    failsForCertain(p99, { planned: 10_000, failed, overdue });
  assert.equal(at(0, 100), false); // the share allowed, not above it
  assert.equal(at(0, 110), false); // above it, but within the interval's reach
  assert.equal(at(0, 240), true);
  // Failed and overdue requests count alike for a latency bound.
  assert.equal(at(120, 120), true);
  // With fewer planned, the same count is a larger share.
  assert.equal(failsForCertain(p99, { planned: 1_000, failed: 0, overdue: 24 }), true);
});

Deno.test("max fails once one request is beyond it; error_rate only on failures", () => {
  const max = slo("max < 1s");
  assert.equal(failsForCertain(max, { planned: 10_000, failed: 0, overdue: 0 }), false);
  assert.equal(failsForCertain(max, { planned: 10_000, failed: 0, overdue: 1 }), true);
  assert.equal(failsForCertain(max, { planned: 10_000, failed: 1, overdue: 0 }), true);
  const errors = slo("error_rate < 1%");
  // Overdue requests may yet answer well: they are no error.
  assert.equal(failsForCertain(errors, { planned: 10_000, failed: 50, overdue: 9_000 }), false);
  assert.equal(failsForCertain(errors, { planned: 10_000, failed: 200, overdue: 0 }), true);
  assert.equal(
    failsForCertain(slo("error_rate <= 0%"), { planned: 10_000, failed: 1, overdue: 0 }),
    true,
  );
});

Deno.test("the count beyond is never more than planned, and nothing planned never fails", () => {
  const p99 = slo("p99 < 10ms");
  assert.equal(certainlyBeyond(p99, { planned: 100, failed: 80, overdue: 80 }), 100);
  assert.equal(
    certainlyBeyond(slo("error_rate < 1%"), { planned: 100, failed: 8, overdue: 80 }),
    8,
  );
  assert.equal(certainlyBeyond(p99, { planned: 0, failed: 3, overdue: 0 }), 0);
  assert.equal(failsForCertain(p99, { planned: 0, failed: 3, overdue: 0 }), false);
});

Deno.test("the reason names the count, what made it certain, the requests judged and the SLO", () => {
  const p99 = slo("p99 < 10ms");
  assert.equal(
    certainReason(p99, { planned: 10_000, failed: 40, overdue: 200 }, "the 10000 planned"),
    "240 requests already failed or are outstanding for over 60ms, of the 10000 planned: " +
      "`p99 < 10ms` fails whatever the rest do",
  );
  assert.equal(
    certainReason(p99, { planned: 10_000, failed: 240, overdue: 0 }, "the 10000 planned"),
    "240 requests already failed, of the 10000 planned: `p99 < 10ms` fails whatever the rest do",
  );
});

Deno.test("a ttfb SLO counts only failed requests as certainly beyond: an outstanding one may have its first byte", () => {
  const ttfb = { metric: { kind: "percentile", percentile: 99 }, series: "ttfb" } as const;
  assert.equal(certainlyBeyond(ttfb, { planned: 1000, failed: 3, overdue: 7 }), 3);
});
