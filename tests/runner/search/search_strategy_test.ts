import assert from "node:assert/strict";
import {
  type JudgedStep,
  nextMove,
  type SearchConclusion,
  type SearchSettings,
  type StepOutcome,
} from "../../../runner/search/search_strategy.ts";

const SETTINGS: SearchSettings = {
  fromPerSec: 100,
  maxPerSec: 100_000,
  stepMs: 5_000,
  precision: 0.05,
  soakMs: 20_000,
  maxRetries: 2,
};

/** Runs the strategy against a judge of each step; returns the steps and the conclusion. */
function search(
  judge: (ratePerSec: number, durationMs: number, soak: boolean) => StepOutcome,
  settings = SETTINGS,
): { steps: JudgedStep[]; conclusion: SearchConclusion } {
  const steps: JudgedStep[] = [];
  for (let i = 0; i < 100; i++) {
    const move = nextMove(settings, steps);
    if (move.kind === "done") return { steps, conclusion: move.conclusion };
    steps.push({ ...move, outcome: judge(move.ratePerSec, move.durationMs, move.soak) });
  }
  throw new Error("the search did not end in 100 steps");
}

Deno.test("the search doubles, bisects to the precision and confirms the rate with a soak", () => {
  const capacity = 3_700;
  const { steps, conclusion } = search((rate) => rate <= capacity ? "pass" : "fail");
  assert.deepEqual(steps.slice(0, 7).map((s) => s.ratePerSec), [
    100,
    200,
    400,
    800,
    1600,
    3200,
    6400,
  ]);
  assert.equal(conclusion.status, "found");
  if (conclusion.status !== "found") return;
  assert.ok(conclusion.ratePerSec <= capacity && conclusion.failPerSec > capacity);
  assert.ok(conclusion.failPerSec - conclusion.ratePerSec <= 0.05 * conclusion.ratePerSec);
  const soak = steps.at(-1)!;
  assert.deepEqual([soak.soak, soak.ratePerSec, soak.durationMs], [
    true,
    conclusion.ratePerSec,
    20_000,
  ]);
});

Deno.test("an inconclusive step is repeated twice as long, and the search gives up after the retries", () => {
  const { steps, conclusion } = search((rate) => rate < 400 ? "pass" : "inconclusive");
  const at400 = steps.filter((s) => s.ratePerSec === 400);
  assert.deepEqual(at400.map((s) => s.durationMs), [5_000, 10_000, 20_000]);
  assert.equal(conclusion.status, "inconclusive");
  if (conclusion.status !== "inconclusive") return;
  assert.match(conclusion.reason, /400\/s stayed inconclusive over 3 runs up to 20 s/);
  assert.equal(conclusion.ratePerSec, 200, "the highest pass is kept as a lower bound");
  // A step that turns out decisive when longer goes on normally.
  const longer = search((rate, ms) =>
    rate <= 1000 ? (ms < 10_000 ? "inconclusive" : "pass") : "fail"
  );
  assert.equal(longer.conclusion.status, "found");
});

Deno.test("a rate tailgate could not send ends the search as the generator's limit, never a server figure", () => {
  const { steps, conclusion } = search((rate) => rate >= 6400 ? "limited" : "pass");
  assert.deepEqual(steps.filter((s) => s.ratePerSec === 6400).map((s) => s.durationMs), [
    5_000,
    10_000,
    20_000,
  ]);
  assert.equal(conclusion.status, "inconclusive");
  if (conclusion.status !== "inconclusive") return;
  assert.match(
    conclusion.reason,
    /could not send 6\.4k\/s in 3 runs: that is the generator's limit/,
  );
  assert.equal(conclusion.ratePerSec, 3200);
  // A passing pause of the machine is not the generator's limit: the rate is tried again.
  let first = true;
  const transient = search((rate) => {
    if (rate === 800 && first) {
      first = false;
      return "limited";
    }
    return rate <= 1_000 ? "pass" : "fail";
  });
  assert.equal(transient.conclusion.status, "found");
});

Deno.test("the plan's highest rate passing gives 'at least' that rate, after its soak", () => {
  const { steps, conclusion } = search(() => "pass", { ...SETTINGS, maxPerSec: 1_000 });
  assert.deepEqual(steps.map((s) => s.ratePerSec), [100, 200, 400, 800, 1_000, 1_000]);
  assert.deepEqual(conclusion, { status: "at_least", ratePerSec: 1_000 });
});

Deno.test("a failing first rate is halved; if nothing holds the search says so", () => {
  const low = search((rate) => rate <= 30 ? "pass" : "fail");
  assert.deepEqual(low.steps.slice(0, 3).map((s) => s.ratePerSec), [100, 50, 25]);
  assert.equal(low.conclusion.status, "found");
  const none = search(() => "fail");
  assert.equal(none.conclusion.status, "inconclusive");
  if (none.conclusion.status === "inconclusive") {
    assert.match(none.conclusion.reason, /the server holds none of the rates tried/);
  }
});

Deno.test("a failed soak lowers the bracket's top and the search goes on", () => {
  // Short steps pass up to 2000/s, but the 20 s soak only holds up to 1500/s (a slow leak).
  const { steps, conclusion } = search((rate, _ms, soak) =>
    rate <= (soak ? 1_500 : 2_000) ? "pass" : "fail"
  );
  const soaks = steps.filter((s) => s.soak);
  assert.ok(soaks.length >= 2, "a second soak after the first failed");
  assert.equal(soaks[0].outcome, "fail");
  assert.equal(conclusion.status, "found");
  if (conclusion.status === "found") assert.ok(conclusion.ratePerSec <= 1_500);
});

Deno.test("a gate's bound inside the bracket is tried as a step of its own, then bisection goes on", () => {
  const capacity = 3_700;
  const settings = { ...SETTINGS, soakMs: 0, gateRatesPerSec: [3_000, 50_000] };
  const { steps, conclusion } = search((rate) => rate <= capacity ? "pass" : "fail", settings);
  const rates = steps.map((s) => s.ratePerSec);
  // 100 … 3200 pass, 6400 fails: 3000 lies below the bracket, 50000 above it; neither is tried.
  assert.ok(!rates.includes(3_000) && !rates.includes(50_000), rates.join(","));
  const inside = search((rate) => rate <= capacity ? "pass" : "fail", {
    ...settings,
    gateRatesPerSec: [4_000],
  });
  const tried = inside.steps.map((s) => s.ratePerSec);
  // The bracket is 3200..6400 after the doubling; 4000 is tried next, before any midpoint.
  assert.equal(tried[tried.indexOf(6_400) + 1], 4_000);
  assert.equal(inside.conclusion.status, "found");
  assert.equal(conclusion.status, "found");
});
