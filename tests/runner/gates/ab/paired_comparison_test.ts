import assert from "node:assert/strict";
import { judgePaired, type PairedCheck } from "../../../../runner/gates/ab/paired_comparison.ts";

const latency = (base: number[], head: number[], floor = 0.05): PairedCheck => ({
  base,
  head,
  scale: "ratio",
  higherIsWorse: true,
  floor,
});
const BASE = [10, 10.4, 9.8, 10.1, 10.2];

Deno.test("judgePaired(): head 10% slower in every round is a regression; the same build is ok", () => {
  const [slower] = judgePaired([latency(BASE, BASE.map((x) => x * 1.1))]);
  assert.equal(slower.status, "fail");
  assert.ok(Math.abs(slower.change - 0.1) < 1e-9, `${slower.change}`);
  assert.ok(slower.p < 0.001);
  // The same figures give no change at all; small noise around them stays within the floor.
  const [same] = judgePaired([latency(BASE, BASE)]);
  assert.equal(same.status, "pass");
  const [noisy] = judgePaired([latency(BASE, [10.1, 10.3, 9.9, 10.0, 10.3])]);
  assert.equal(noisy.status, "pass", JSON.stringify(noisy));
  assert.ok(noisy.ci95[0] < 0 && noisy.ci95[1] > 0);
});

Deno.test("judgePaired(): the pairing cancels what each round did to both", () => {
  // Rounds differ by 40% (a neighbour came and went); head is 8% slower within each round.
  const base = [10, 14, 10.2, 13.8, 10.1];
  const [paired] = judgePaired([latency(base, base.map((x) => x * 1.08))]);
  assert.equal(paired.status, "fail");
  // Unpaired, the same figures would hide it: the rounds' spread dwarfs 8%.
  const sd = Math.sqrt(base.reduce((a, x) => a + (x - 11.62) ** 2, 0) / 4);
  assert.ok(sd / 11.62 > 0.15);
});

Deno.test("judgePaired(): a change that the rounds' spread leaves open is inconclusive, with why", () => {
  const [open] = judgePaired([latency(BASE, [10.5, 12.5, 9.6, 11.9, 10.3])]);
  assert.equal(open.status, "inconclusive");
  assert.match(open.reason!, /more rounds decide/);
  const [few] = judgePaired([latency([10, 10], [12, 12])]);
  assert.equal(few.status, "inconclusive");
  assert.match(few.reason!, /needs 3 or more/);
});

Deno.test("judgePaired(): throughput regresses by a drop, the error rate by points", () => {
  const throughput: PairedCheck = {
    base: [1000, 1010, 990, 1005, 995],
    head: [900, 905, 895, 910, 899],
    scale: "ratio",
    higherIsWorse: false,
    floor: 0.05,
  };
  const more = { ...throughput, head: [1100, 1110, 1090, 1105, 1095] };
  const errors: PairedCheck = {
    base: [0, 0, 0.001, 0, 0],
    head: [0.02, 0.021, 0.019, 0.02, 0.022],
    scale: "difference",
    higherIsWorse: true,
    floor: 0.001,
  };
  const [drop, rise, err] = judgePaired([throughput, more, errors]);
  assert.equal(drop.status, "fail");
  assert.ok(drop.change > 0.09 && drop.change < 0.11, `${drop.change}`);
  assert.equal(rise.status, "pass");
  assert.equal(err.status, "fail");
  assert.ok(Math.abs(err.change - 0.0202) < 1e-4, `${err.change}`);
});

Deno.test("judgePaired(): Holm's step-down over the checks: more checks, a stricter level each", () => {
  const slight = latency(BASE, BASE.map((x, i) => x * (1.06 + (i % 2 ? 0.004 : -0.004))));
  const alone = judgePaired([slight], 0.95)[0];
  const crowd = judgePaired(
    [slight, latency(BASE, BASE), latency(BASE, BASE), latency(BASE, BASE)],
    0.95,
  );
  assert.ok(
    crowd[0].confidence > alone.confidence,
    `${crowd[0].confidence} vs ${alone.confidence}`,
  );
  assert.equal(alone.confidence, 0.95);
});

Deno.test("judgePaired(): a default floor rises to what the rounds' spread supports, never below its minimum", () => {
  // Identical builds whose tail swings ±10% from round to round: a 5% floor could never be shown
  // to hold, so the check would stay grey; raised to twice the one-sided margin, it decides.
  const swing = [1, 1.12, 0.9, 1.08, 0.93, 1.1, 0.92, 1.05];
  const base = swing.map((x) => 100 * x);
  const head = swing.map((x, i) => 100 * x * (i % 2 ? 1.1 : 0.91));
  const fixed = judgePaired([latency(base, head, 0.05)])[0];
  assert.equal(fixed.status, "inconclusive");
  assert.equal(fixed.floorSource, "plan");
  const adaptive = judgePaired([{ ...latency(base, head, 0.05), floorFromSpread: true }])[0];
  assert.equal(adaptive.status, "pass", JSON.stringify(adaptive));
  assert.equal(adaptive.floorSource, "spread");
  assert.ok(adaptive.floor > 0.05, `${adaptive.floor}`);
  // A steady median keeps the minimum, and a 10% slower head is far beyond it.
  const steady = [10, 10.05, 9.98, 10.02, 10.01];
  const slower = judgePaired([{
    ...latency(steady, steady.map((x) => x * 1.1), 0.02),
    floorFromSpread: true,
  }])[0];
  assert.equal(slower.status, "fail");
  assert.equal(slower.floor, 0.02);
  assert.equal(slower.floorSource, "minimum");
  // +5% is beyond a 2% minimum too: what a 10% floor let pass.
  const five = judgePaired([{
    ...latency(steady, steady.map((x) => x * 1.05), 0.02),
    floorFromSpread: true,
  }])[0];
  assert.equal(five.status, "fail");
});

Deno.test("judgePaired(): rounds too scattered raise a default floor only to its cap: undecided, not passed", () => {
  // A head about 10% slower, but the rounds swing by ±15%: twice their margin is a 28% floor, and
  // its upper end (25%) would pass within it. Capped at the history gate's 10%, it stays undecided.
  const base = [100, 100, 100, 100, 100];
  const head = [0.25, -0.05, 0.2, -0.02, 0.12].map((d) => 100 * Math.exp(d));
  const check = { ...latency(base, head, 0.02), floorFromSpread: true };
  const uncapped = judgePaired([check])[0];
  assert.equal(uncapped.status, "pass", JSON.stringify(uncapped));
  assert.ok(uncapped.floor > 0.25, `${uncapped.floor}`);
  const capped = judgePaired([{ ...check, spreadCap: 0.1 }])[0];
  assert.equal(capped.status, "inconclusive", JSON.stringify(capped));
  assert.equal(capped.floor, 0.1);
  assert.equal(capped.floorSource, "spread");
  assert.match(capped.reason!, /^the rounds vary too much to rule out a change beyond 10%/);
  // Within the cap the spread still decides, as before.
  const swing = [1, 1.04, 0.97, 1.03, 0.98];
  const same = judgePaired([{
    ...latency(
      swing.map((x) => 100 * x),
      swing.map((x, i) => 100 * x * (i % 2 ? 1.03 : 0.97)),
      0.02,
    ),
    floorFromSpread: true,
    spreadCap: 0.1,
  }])[0];
  assert.equal(same.status, "pass", JSON.stringify(same));
});

Deno.test("judgePaired(): a tail change within the runs' measured floor is the tool's own pauses", () => {
  // p99 of 150 µs against a measured floor of 600 µs: 40% slower is still within what the
  // generator's own pauses add at that percentile, so it is no regression, and it is decided.
  const base = [150, 152, 149, 151, 150];
  const [tail] = judgePaired([{
    ...latency(base, base.map((x) => x * 1.4), 0.05),
    absoluteFloor: 600,
  }]);
  assert.equal(tail.status, "pass", JSON.stringify(tail));
  assert.equal(tail.floorSource, "measured");
  assert.ok(Math.abs(tail.floor - 4) < 1e-9);
  // An absolute floor does not apply to a difference (the error rate).
  const [errors] = judgePaired([{
    base: [0, 0, 0, 0, 0],
    head: [0.02, 0.021, 0.019, 0.02, 0.022],
    scale: "difference",
    higherIsWorse: true,
    floor: 0.001,
    absoluteFloor: 600,
  }]);
  assert.equal(errors.status, "fail");
});
