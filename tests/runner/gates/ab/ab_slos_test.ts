import assert from "node:assert/strict";
import { abVerdict } from "../../../../runner/gates/ab/ab_verdict.ts";
import { abSloVerdicts } from "../../../../runner/gates/ab/ab_slos.ts";
import { judge } from "../../../../runner/api/judge.ts";
import type { RunResult } from "../../../../runner/model/run_result.ts";
import { gateResult, pointsUs, scaledUs, uniformUs } from "../../../_helpers/gate_fixtures.ts";

/** A head run of 20,000 requests, `errors` of them failed, judged as `tailgate ab` judges it. */
async function head(errors: number, slos: string[] = ["p50 < 10ms"]): Promise<RunResult> {
  const r = gateResult([{
    ratePerSec: 1000,
    durationMs: 20_000,
    labels: [{ label: "GET /a", response: scaledUs(20_000 - errors, 1), errors }],
  }], { slos });
  return (await judge(r)).result;
}

/** A run of 10,000 requests at 0.5..1.5 ms, `slowShare` of them at 30 ms, judged as ab does. */
async function run(slowShare: number, over: { complete?: boolean } = {}): Promise<RunResult> {
  const slow = Math.round(10_000 * slowShare);
  const response = uniformUs(10_000 - slow, 500, 1_500);
  if (slow > 0) response.add(pointsUs([[30_000, slow]]));
  const r = gateResult([{
    ratePerSec: 1000,
    durationMs: 10_000,
    labels: [{ label: "GET /", response }],
  }], {
    slos: ["p99 < 10ms"],
    ...over,
  });
  return (await judge(r)).result;
}

Deno.test("abSloVerdicts(): one noisy head round of twelve does not decide; the pooled rounds do", async () => {
  // Round 3 had 2% of its requests at 30 ms (a neighbour's burst): that run fails p99 < 10ms on
  // its own, but over all twelve head runs 0.17% are beyond 10 ms, well within 1%.
  const heads = await Promise.all([...Array(12)].map((_, i) => run(i === 2 ? 0.02 : 0)));
  const bases = await Promise.all([...Array(12)].map(() => run(0)));
  const [slo] = abSloVerdicts(heads, bases);
  assert.equal(slo.perRound[2], "fail");
  assert.equal(slo.status, "pass", slo.message);
  assert.match(slo.message, /^head's 12 runs pooled: passed: /);
  assert.match(slo.message, /per run: head 1 fail, 11 pass, base 12 pass$/);
});

Deno.test("abSloVerdicts(): a head that fails where base passes fails; where base fails too, it is the runner's", async () => {
  const slowHead = await Promise.all([...Array(5)].map(() => run(0.03)));
  const quietBase = await Promise.all([...Array(5)].map(() => run(0)));
  const [fails] = abSloVerdicts(slowHead, quietBase);
  assert.equal(fails.status, "fail", fails.message);
  assert.equal(fails.base, "pass");

  // The same excess in base's runs: the runner (or the base build) failed it, not the change.
  const slowBase = await Promise.all([...Array(5)].map(() => run(0.03)));
  const [both] = abSloVerdicts(slowHead, slowBase);
  assert.equal(both.status, "inconclusive", both.message);
  assert.deepEqual(both.causes, ["base"]);
  assert.match(
    both.message,
    /^base fails it too \(its runs pooled fail it\): the runner or the base build/,
  );
  const verdict = abVerdict([], [both]);
  assert.equal(verdict.status, "inconclusive");
  assert.equal(verdict.runnerOnly, true, "a warning under the default fail-on");
});

Deno.test("abSloVerdicts(): the same build's bad runs split 3 to 1 by a busy runner are the runner's", async () => {
  // A busy neighbour put 3 head runs and 1 base run beyond the bound: base's pool passes (0.75%
  // beyond 10 ms), head's fails (2.25%), but which side a runner's bad run falls on is chance.
  const heads = [await run(0.03), await run(0.03), await run(0.03), await run(0)];
  const bases = [await run(0), await run(0), await run(0), await run(0.03)];
  const [slo] = abSloVerdicts(heads, bases);
  assert.deepEqual([slo.base, slo.basePerRound], ["pass", ["pass", "pass", "pass", "fail"]]);
  assert.equal(slo.status, "inconclusive", slo.message);
  assert.deepEqual(slo.causes, ["base"]);
  assert.match(
    slo.message,
    /^base fails it too \(in 1 of its runs\): the runner or the base build/,
  );
  assert.equal(abVerdict([], [slo]).runnerOnly, true, "a warning under the default fail-on");
});

Deno.test("abSloVerdicts(): a base run beyond the bound by the runner's contention excuses head; one short of requests does not", async () => {
  const heads = [await run(0.03), await run(0.03), await run(0)];
  /** Quiet base runs, the second's own verdict undecided for `cause`. */
  const bases = async (cause: "contention" | "sampling") => {
    const runs = [await run(0), await run(0), await run(0)];
    const verdict = runs[1].verdicts.find((v) => v.name === "p99 < 10ms")!;
    Object.assign(verdict, { status: "inconclusive", causes: [cause] });
    return runs;
  };
  const [contended] = abSloVerdicts(heads, await bases("contention"));
  assert.equal(contended.status, "inconclusive", contended.message);
  assert.deepEqual(contended.causes, ["base"]);
  assert.match(
    contended.message,
    /^base fails it too \(beyond it in 1 of its runs, an excess the runner could explain\)/,
  );
  // Too few requests to tell is no excess: base never went beyond it, so head's fail stands.
  const [sampled] = abSloVerdicts(heads, await bases("sampling"));
  assert.equal(sampled.status, "fail", sampled.message);
});

Deno.test("abSloVerdicts(): a head beyond the bound in 11 rounds more than base is no chance split", async () => {
  // Base failed it once (round 1, as head did); head alone in the other 11: 0.5^11 < 0.1%.
  const heads = await Promise.all([...Array(12)].map(() => run(0.03)));
  const bases = await Promise.all([...Array(12)].map((_, i) => run(i === 0 ? 0.03 : 0)));
  const [slo] = abSloVerdicts(heads, bases);
  assert.equal(slo.basePerRound?.filter((s) => s === "fail").length, 1);
  assert.equal(slo.status, "fail", slo.message);
  // Two rounds fewer, 9 of head's alone, and chance could have split them so.
  const [fewer] = abSloVerdicts(heads.slice(0, 10), bases.slice(0, 10));
  assert.equal(fewer.status, "inconclusive", fewer.message);
});

Deno.test("abSloVerdicts(): a run cut off by a stop is left out, never counted as the server's failure", async () => {
  // The last head run was stopped (SIGTERM): its cut-off requests are no evidence.
  const cut = await run(0.5, { complete: false });
  const heads = [await run(0), await run(0), cut];
  const [slo] = abSloVerdicts(heads, [await run(0), await run(0)]);
  assert.equal(slo.status, "pass", slo.message);
  assert.match(slo.message, /^head's 3 runs pooled/);
  assert.equal(abVerdict([], [slo], undefined, { round: 3 }).status, "invalid");
  assert.match(abVerdict([], [slo], undefined, { round: 3 }).message, /stopped in round 3/);
});

Deno.test("abSloVerdicts(): the implicit error gate joins once a head run needed it, judged on the pools", async () => {
  // 5% failed in round 1, none in the others: over the pool 1.7% failed, beyond 1% beyond doubt.
  const heads = [await head(1_000), await head(0), await head(0)];
  assert.deepEqual(heads.map((h) => h.verdicts.filter((v) => v.implicit).length), [1, 0, 0]);
  const slos = abSloVerdicts(heads, [await head(0), await head(0), await head(0)]);
  assert.deepEqual(slos.map((s) => [s.name, s.implicit, s.perRound, s.status]), [
    ["p50 < 10ms", undefined, ["pass", "pass", "pass"], "pass"],
    ["error_rate <= 1% (implicit)", true, ["fail", "pass", "pass"], "fail"],
  ]);
  assert.equal(slos[1].line, undefined);
  assert.equal(abVerdict([], slos).status, "fail");
  // 0.95% and 1.05% of two runs: the pool is just over 1%, and its interval reaches back under.
  const [close] = abSloVerdicts([await head(190), await head(210)], []).filter((s) => s.implicit);
  assert.equal(close.status, "inconclusive");
});

Deno.test("abSloVerdicts(): no implicit gate when no head run needed it or the plan sets errors", async () => {
  const clean = abSloVerdicts([await head(0), await head(100)], []);
  assert.deepEqual(clean.map((s) => s.name), ["p50 < 10ms"]);
  const written = abSloVerdicts([await head(1_000, ["error_rate < 10%"])], []);
  assert.deepEqual(written.map((s) => [s.name, s.status]), [["error_rate < 10%", "pass"]]);
});

Deno.test("abVerdict(): a head run stopped by fail-fast ends the comparison a fail, saying why", () => {
  const slo = {
    name: "error_rate < 1%",
    status: "fail" as const,
    perRound: ["fail" as const],
    message: "head's 1 run pooled: failed",
  };
  const stop = { round: 2, slo: "error_rate < 1%", reason: "90 requests already failed, …" };
  const verdict = abVerdict([], [slo], stop);
  assert.equal(verdict.status, "fail");
  assert.equal(
    verdict.message,
    "head's run in round 2 was stopped by fail-fast: 90 requests already failed, …",
  );
  // With nothing compared, no stop is a fail: it is the stop that decides.
  assert.equal(abVerdict([], [], stop).status, "fail");
  assert.equal(abVerdict([], []).status, "inconclusive");
});

Deno.test("abSloVerdicts(): a stall count's majority leaves out the runs a stop cut off", async () => {
  // Two complete head runs without a stall, three cut off by a stop that each read as a fail: the
  // cut-off runs are no evidence, so the SLO passes on the two that ran to their end.
  const judged = async (complete: boolean) => {
    const measured = gateResult([{
      ratePerSec: 1000,
      durationMs: 10_000,
      labels: [{ label: "GET /", response: uniformUs(10_000, 500, 1_500) }],
    }], { slos: ["stalls == 0"], complete });
    const r = (await judge(measured)).result;
    const stalls = r.verdicts.find((v) => v.name === "stalls == 0")!;
    stalls.status = complete ? "pass" : "fail";
    return r;
  };
  const heads = [await judged(true), await judged(false), await judged(true), await judged(false)];
  heads.push(await judged(false));
  const [slo] = abSloVerdicts(heads, [await judged(true), await judged(true)]);
  assert.equal(slo.status, "pass", slo.message);
  assert.deepEqual(slo.perRound, ["pass", "fail", "pass", "fail", "fail"]);
  assert.match(slo.message, /judged run by run/);
});
