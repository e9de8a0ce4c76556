import assert from "node:assert/strict";
import {
  appendToHistory,
  historyPath,
  loadHistoryFile,
} from "../../../runner/history/history_store.ts";
import { exitCodeOf, gatesVerdict } from "../../../runner/result/read/mod.ts";
import { BASELINE_WINDOW_RUNS } from "../../../runner/gates/regression/mod.ts";
import { DEFAULT_BASELINE_RUNS } from "../../../runner/history/mod.ts";
import { judge, type JudgeOptions } from "../../../runner/api/judge.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import {
  gateResult,
  type GateResultOptions,
  pointsUs,
  scaledUs,
  uniformUs,
} from "../../_helpers/gate_fixtures.ts";
import type { ConfirmTimes } from "../../../runner/gates/confirm_gates.ts";
import {
  confirmJudgement,
  type HistoryRead,
  judgeRun as judgeGates,
  rerunVerdicts,
} from "../../../runner/gates/judge_run.ts";

/** 9,800 requests spread as the stored runs' are, and 200 (2%) at 4.5 ms: only the tail moved. */
function tailHeavy() {
  const h = uniformUs(9_800, 500, 1_500);
  h.add(pointsUs([[4_500, 200]]));
  return h;
}
import { MINIMAL_PLAN, parseText } from "../../_helpers/plan_fixtures.ts";

/** A fresh temporary folder, removed when the test is done. */
async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "tailgate-judge-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** Plan "shop": one 10 s stage at 1k/s, latencies 500..1500 µs × `scale`, SLO `p99 < 5ms`. */
function run(scale: number, day = 9, over: GateResultOptions = {}): RunResult {
  return gateResult([{
    name: "main",
    ratePerSec: 1000,
    durationMs: 10_000,
    labels: [{ label: "GET /a", response: scaledUs(10_000, scale) }],
  }], { slos: ["p99 < 5ms"], startedAt: `2025-02-0${day}T00:00:00.000Z`, ...over });
}

/**
 * Appends runs, by default five within 0.4% of each other (days 1 to 5): with fewer, a prediction
 * bound held family-wise over a run's checks is too wide to see 30%.
 */
async function seedHistory(dir: string, scales = [1, 1.004, 0.996, 1.002, 0.998]): Promise<void> {
  for (const [i, scale] of scales.entries()) {
    await appendToHistory(dir, run(scale, i + 1));
  }
}

/**
 * Judging as the front door does it (runner/api/judge.ts): the history read, the gates of
 * judge_run.ts, the run filed; the judged document and what it noted.
 */
async function judgeRun(measured: RunResult, options: JudgeOptions = {}) {
  const { result, judgement: { notes, ioFailures } } = await judge(measured, options);
  return { result, notes, ioFailures };
}

/** What judging noted, without the judged document. */
const noted = ({ notes, ioFailures }: { notes: string[]; ioFailures: string[] }) => ({
  notes,
  ioFailures,
});

const p99Regression = (r: RunResult) => r.verdicts.find((v) => v.name === "p99 vs baseline: main");

Deno.test("with no baseline yet, only the SLOs are judged and a note says so", async () => {
  await using dir = await tempDir();
  const { result, notes } = await judgeRun(run(1), { baselineDir: dir.path });
  assert.equal(notes.length, 1);
  assert.match(notes[0], /no baseline for "shop" in .* yet: regression gates skipped/);
  assert.deepEqual(result.verdicts.map((v) => [v.kind, v.status]), [["slo", "pass"]]);
  assert.equal(result.warnings, undefined);
  assert.equal(result.baseline, undefined);
  const without = await judgeRun(run(1), {});
  assert.deepEqual(noted(without), { notes: [], ioFailures: [] });
  assert.deepEqual(without.result.verdicts.map((v) => v.kind), ["slo"]);
});

Deno.test("after five appended runs, a run 30% slower fails the regression gate", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path);
  const judgedSteady = await judgeRun(run(1.002), { baselineDir: dir.path });
  assert.deepEqual(noted(judgedSteady), { notes: [], ioFailures: [] });
  const steady = judgedSteady.result;
  assert.ok(steady.verdicts.some((v) => v.kind === "regression"));
  assert.ok(steady.verdicts.every((v) => v.status === "pass"), JSON.stringify(steady.verdicts));
  assert.equal(exitCodeOf(gatesVerdict(steady.verdicts)), 0);
  // The compared baseline travels in the result: the newest stored run, for overlays and deltas.
  assert.equal(steady.baseline?.runs, 5);
  assert.equal(steady.baseline?.date, run(0.998, 5).run.startedAt);
  assert.match(steady.baseline?.source ?? "", /shop\.json$/);
  assert.deepEqual(steady.baseline?.stages.map((s) => s.index), steady.stages.map((s) => s.index));
  assert.notEqual(steady.baseline?.stages[0].response.hdr, steady.stages[0].response.hdr);

  const { result: slower } = await judgeRun(run(1.3), { baselineDir: dir.path });
  assert.equal(slower.verdicts[0].kind, "slo", "SLOs first");
  assert.equal(slower.verdicts[0].status, "pass", "1.9 ms is still under the 5 ms SLO");
  assert.equal(p99Regression(slower)?.status, "fail");
  assert.match(p99Regression(slower)!.message, /from 5 runs/);
  assert.equal(exitCodeOf(gatesVerdict(slower.verdicts)), 1);
  assert.equal(slower.warnings, undefined);
});

Deno.test("a baseline from another fingerprint is still compared, with a warning", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path);
  const measured = run(1, 9, { environment: { cores: 8, cpuModel: "other cpu" } });
  measured.warnings = ["an earlier warning"];
  const { result } = await judgeRun(measured, { baselineDir: dir.path });
  assert.ok(result.warnings);
  assert.equal(result.warnings.length, 2);
  assert.equal(result.warnings[0], "an earlier warning");
  assert.match(result.warnings[1], /different machine/);
  assert.match(result.warnings[1], /cpu: test cpu vs other cpu/);
  assert.match(result.warnings[1], /cores: 4 vs 8/);
  assert.ok(p99Regression(result), "regression verdicts are still given");
});

Deno.test("an unreadable baseline makes the run invalid, says why, and is left as it is", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(historyPath(dir.path, "shop"), "{ not json");
  const { result, notes } = await judgeRun(run(1), {
    baselineDir: dir.path,
    updateBaseline: true,
  });
  assert.deepEqual(result.verdicts.map((v) => [v.kind, v.status]), [
    ["slo", "pass"],
    ["validity", "invalid"],
  ]);
  assert.match(result.verdicts[1].message, /baseline cannot be read: .*not valid JSON/);
  assert.equal(result.verdict?.status, "invalid");
  assert.equal(exitCodeOf(gatesVerdict(result.verdicts)), 3);
  assert.match(notes.join("\n"), /baseline not updated/);
  assert.equal(await Deno.readTextFile(historyPath(dir.path, "shop")), "{ not json");
});

Deno.test("updateBaseline appends the run after judging it against the old history", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path);
  const { result: slower, notes } = await judgeRun(run(1.3), {
    baselineDir: dir.path,
    updateBaseline: true,
  });
  assert.equal(p99Regression(slower)?.status, "fail", "not judged against itself");
  assert.deepEqual(notes, [
    'baseline updated: "shop" keeps 6 run(s) for the regression gate and 6 in its history',
  ]);
  const loaded = await loadHistoryFile(dir.path, "shop");
  assert.ok(loaded.ok && loaded.value);
  assert.equal(loaded.value.runs.length, 6);
  assert.equal(loaded.value.runs.at(-1)!.date, slower.run.startedAt);
  assert.equal(loaded.value.runs.at(-1)!.stages[0].response.hdr, slower.stages[0].response.hdr);

  const at = run(1, 8);
  at.environment = { ...at.environment, gitSha: "c0ffee1234567890c0ffee1234567890c0ffee12" };
  const kept = await judgeRun(at, {
    baselineDir: dir.path,
    updateBaseline: true,
    keepRuns: 2,
    historyRuns: 4,
  });
  assert.deepEqual(kept.notes, [
    'baseline updated: "shop" keeps 2 run(s) for the regression gate and 4 in its history ' +
    "(this one at c0ffee1)",
  ]);
  const trimmed = await loadHistoryFile(dir.path, "shop");
  assert.ok(trimmed.ok && trimmed.value);
  assert.equal(trimmed.value.history.at(-1)!.commit, at.environment.gitSha);
});

Deno.test("updateBaseline refuses a tool-limited or incomplete run, leaving the file as it was", async () => {
  await using dir = await tempDir();
  const options = { baselineDir: dir.path, updateBaseline: true };
  const first = await judgeRun(run(1, 8, { toolLimited: true }), options);
  assert.match(first.notes.at(-1)!, /^baseline not updated: refusing to add a tool-limited run/);
  await assert.rejects(() => Deno.stat(historyPath(dir.path, "shop")), Deno.errors.NotFound);

  await seedHistory(dir.path);
  const before = await Deno.readFile(historyPath(dir.path, "shop"));
  const { result: limited, notes } = await judgeRun(run(1, 8, { toolLimited: true }), options);
  assert.match(notes.at(-1)!, /^baseline not updated: refusing to add a tool-limited run/);
  // Never a silent green: every report and the Action's annotations show the result's warnings.
  assert.match(
    limited.warnings?.at(-1) ?? "",
    /^this run was not stored in the history of "shop": refusing to add a tool-limited run/,
  );
  assert.ok(
    limited.verdicts.filter((v) => v.unit === "us").every((v) => v.status !== "pass"),
    "a run 4.2 ms behind passes no latency gate of a few milliseconds",
  );
  const incomplete = await judgeRun(run(1, 8, { complete: false }), options);
  assert.match(incomplete.notes.at(-1)!, /^baseline not updated: refusing to add an incomplete/);
  assert.deepEqual(incomplete.ioFailures, [], "a refused run is no file's fault");
  assert.deepEqual(await Deno.readFile(historyPath(dir.path, "shop")), before);
});

Deno.test("the plan's `regression:` floors replace the default metrics and floors", async () => {
  await using dir = await tempDir();
  // Identical runs: the prediction bound is the repeated value, so the floor alone decides.
  await seedHistory(dir.path, [1, 1, 1, 1, 1]);
  const { plan, issues } = parseText(`${MINIMAL_PLAN}regression:\n  p99: 7%\n`);
  assert.ok(plan?.regression, JSON.stringify(issues));
  const judged = async (scale: number) => {
    const measured = run(scale, 9, { regression: plan.regression });
    const { result } = await judgeRun(measured, { baselineDir: dir.path });
    return result.verdicts.filter((v) => v.kind === "regression");
  };
  const within = await judged(1.05);
  assert.deepEqual(within.map((v) => [v.name, v.status]), [["p99 vs baseline: main", "pass"]]);
  assert.match(within[0].message, /floor 7%;/);
  const beyond = await judged(1.085);
  assert.deepEqual(beyond.map((v) => v.status), ["fail"], "8.5% is over 7, under the default 10");
});

Deno.test("--confirm N: a gate that fails again in a rerun stays red; one a rerun passes passes", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path);
  const judgedWith = async (reruns: number[], times: ConfirmTimes = 3) => {
    let made = 0;
    const { result, notes } = await judgeRun(run(1.3), {
      baselineDir: dir.path,
      confirm: { times, rerun: () => Promise.resolve(run(reruns[made++])) },
    });
    return { result, notes, made };
  };
  // Failed in the run and in the first rerun: it repeats, no more reruns are needed.
  const repeated = await judgedWith([1.31, 1.29, 1.3]);
  assert.equal(repeated.made, 1, "a gate that failed twice is settled");
  assert.equal(repeated.result.verdict?.status, "fail");
  assert.match(p99Regression(repeated.result)!.message, /confirmed: it failed in 2 of 2 runs/);
  assert.match(
    repeated.notes.at(-1)!,
    /^--confirm: 1 rerun of [1-9]\d* gate\(s\) a rerun could change: [1-9]\d* confirmed, 0 cleared, 0 undecided$/,
  );

  const cleared = await judgedWith([1.0, 1.3]);
  assert.equal(cleared.made, 1, "reruns stop once every gate is settled");
  assert.equal(cleared.result.verdict?.status, "pass");
  const p99 = p99Regression(cleared.result)!;
  assert.equal(p99.status, "pass");
  assert.match(p99.message, /not confirmed: rerun 1 of 1 passed it \(no regression: /);

  // A median regression is red at once under auto: only tail regressions alone are rerun.
  const auto = await judgedWith([1.0], "auto");
  assert.equal(auto.made, 0);
  assert.equal(auto.result.verdict?.status, "fail");
});

Deno.test("--confirm auto reruns a regression only the tail shows, once, and believes a repeat", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path);
  /** The median as stored, but 2% of the requests at 4.5 ms: p99 and p99.9 regress, p50 does not. */
  const tail = (day = 9) =>
    gateResult([{
      name: "main",
      ratePerSec: 1000,
      durationMs: 10_000,
      labels: [{ label: "GET /a", response: tailHeavy() }],
    }], { slos: ["p99 < 5ms"], startedAt: `2025-02-0${day}T00:00:00.000Z` });
  const judged = async (reruns: RunResult[]) => {
    let made = 0;
    const { result, notes } = await judgeRun(tail(), {
      baselineDir: dir.path,
      confirm: { times: "auto", rerun: () => Promise.resolve(reruns[made++]) },
    });
    return { result, notes, made };
  };
  const once = await judged([run(1)]);
  assert.equal(once.made, 1);
  assert.equal(p99Regression(once.result)?.status, "pass", p99Regression(once.result)?.message);
  assert.equal(once.result.verdict?.status, "pass");
  const twice = await judged([tail(), run(1)]);
  assert.equal(twice.made, 1, "auto reruns once at most");
  assert.equal(twice.result.verdict?.status, "fail");
});

Deno.test("--confirm reruns nothing when nothing could change: all pass, or auto and an SLO fails", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path);
  let made = 0;
  const rerun = () => {
    made++;
    return Promise.resolve(run(5));
  };
  await judgeRun(run(1.002), { baselineDir: dir.path, confirm: { times: 3, rerun } });
  const { result: sloFailing } = await judgeRun(run(5), {
    baselineDir: dir.path,
    confirm: { times: "auto", rerun },
  });
  assert.equal(sloFailing.verdict?.status, "fail");
  assert.equal(made, 0);
  // With N, a failed SLO is confirmed by a rerun that fails it too.
  const { result: confirmed } = await judgeRun(run(5), { confirm: { times: 3, rerun } });
  assert.equal(made, 1);
  assert.equal(confirmed.verdict?.status, "fail");
  assert.match(
    confirmed.verdicts.find((v) => v.kind === "slo")!.message,
    /confirmed: it failed in 2/,
  );
});

Deno.test("a damaged stored histogram is an invalid verdict naming the file and run, not a crash", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path);
  const path = historyPath(dir.path, "shop");
  const stored = JSON.parse(await Deno.readTextFile(path));
  // One altered character inside run 2's stage histogram.
  const hdr: string = stored.runs[1].stages[0].response.hdr;
  stored.runs[1].stages[0].response.hdr = hdr.slice(0, 20) + (hdr[20] === "A" ? "B" : "A") +
    hdr.slice(21);
  await Deno.writeTextFile(path, JSON.stringify(stored));
  const before = await Deno.readFile(path);
  const { result, notes } = await judgeRun(run(1.3), {
    baselineDir: dir.path,
    updateBaseline: true,
  });
  const validity = result.verdicts.find((v) => v.kind === "validity")!;
  assert.equal(validity.status, "invalid");
  assert.match(validity.message, /shop\.json is damaged: run 2 of 5 .*stage "main", response time/);
  assert.ok(result.verdicts.every((v) => v.kind !== "regression"), "no regression judged on it");
  assert.equal(result.verdicts[0].status, "pass", "the SLOs are still judged");
  assert.equal(result.verdict?.status, "invalid");
  assert.equal(result.baseline, undefined, "no overlay from a damaged history");
  assert.match(notes.at(-1)!, /baseline not updated: the stored history is damaged/);
  assert.deepEqual(await Deno.readFile(path), before, "the history is left as it was");
});

Deno.test("a stage the plan changed: its skipped regression gate is named, and the history restarts", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path);
  const { result: longer, notes } = await judgeRun(
    gateResult([{
      name: "main",
      ratePerSec: 1000,
      durationMs: 20_000, // the plan now holds the stage twice as long
      labels: [{ label: "GET /a", response: scaledUs(10_000, 1) }],
    }], { slos: ["p99 < 5ms"], startedAt: "2025-02-09T00:00:00.000Z" }),
    { baselineDir: dir.path, updateBaseline: true },
  );
  assert.ok(!longer.verdicts.some((v) => v.kind === "regression"));
  assert.equal(longer.warnings?.length, 1, JSON.stringify(longer.warnings));
  assert.match(longer.warnings![0], /regression gate skipped for main \(1k\/s for 20s\)/);
  assert.match(notes.join("\n"), /baseline restarted: .* kept as .*shop\.superseded-.*\.json/);
  const history = await loadHistoryFile(dir.path, "shop");
  assert.ok(history.ok && history.value);
  assert.equal(history.value.runs.length, 1, "the old runs are not mixed with the new");
});

Deno.test("the judgement carries the run's stage match, found once, that its warning names", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path);
  const read = { dir: dir.path, loaded: await loadHistoryFile(dir.path, "shop") };
  const longer = gateResult([{
    name: "main",
    ratePerSec: 1000,
    durationMs: 20_000,
    labels: [{ label: "GET /a", response: scaledUs(10_000, 1) }],
  }], { slos: ["p99 < 5ms"], startedAt: "2025-02-09T00:00:00.000Z" });
  const changed = judgeGates(longer, read);
  assert.deepEqual(changed.stages, {
    unmatched: ["main (1k/s for 20s)"],
    newestDate: run(1, 5).run.startedAt,
    sameAsNewest: false,
  });
  assert.match(changed.warnings.join("\n"), /regression gate skipped for main \(1k\/s for 20s\)/);
  const same = judgeGates(run(1), read);
  assert.deepEqual(same.stages, {
    unmatched: [],
    newestDate: run(1, 5).run.startedAt,
    sameAsNewest: true,
  });
  assert.equal(judgeGates(run(1), undefined).stages, undefined, "no history read, no match");
});

Deno.test("a history that cannot be written is an I/O failure, named with its folder", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/file`, "");
  const judged = await judgeRun(run(1), {
    baselineDir: `${dir.path}/file/baselines`,
    updateBaseline: true,
  });
  assert.equal(judged.ioFailures.length, 1);
  assert.match(
    judged.ioFailures[0],
    /^baseline not updated: cannot make the history folder .*\/file\/baselines \(/,
  );
  assert.ok(judged.notes.includes(judged.ioFailures[0]));
  assert.equal(judged.result.verdict?.status, "pass", "the gates are judged all the same");
});

Deno.test("a run of a plan without SLOs whose every request failed is no silent pass", async () => {
  const rejected = () =>
    gateResult([{
      name: "main",
      ratePerSec: 1000,
      durationMs: 10_000,
      labels: [{ label: "GET /a", response: scaledUs(0, 1), errors: 10_000 }],
    }]);
  const judged = await judgeRun(rejected(), {});
  assert.deepEqual(noted(judged), { notes: [], ioFailures: [] });
  const result = judged.result;
  assert.deepEqual(result.verdicts.map((v) => [v.name, v.status, v.implicit]), [
    ["error_rate <= 1% (implicit)", "fail", true],
  ]);
  assert.equal(result.verdict?.status, "fail");
  assert.equal(result.verdict?.summary, "1 gate: 1 fail");
  assert.equal(exitCodeOf(gatesVerdict(result.verdicts)), 1);
  // `allow_errors: true` is the plan's explicit word: nothing is judged.
  const measuredAllowed = rejected();
  measuredAllowed.plan.allowErrors = true;
  const { result: allowed } = await judgeRun(measuredAllowed, {});
  assert.deepEqual(allowed.verdicts, []);
  assert.equal(allowed.verdict?.summary, "no gates");
  // The written SLOs come first, the implicit gate after them.
  const measuredWithSlo = rejected();
  measuredWithSlo.plan.slos = [{ text: "p99 < 5ms", line: 20 }];
  const { result: withSlo } = await judgeRun(measuredWithSlo, {});
  assert.deepEqual(withSlo.verdicts.map((v) => [v.name, v.status]), [
    ["p99 < 5ms", "fail"],
    ["error_rate <= 1% (implicit)", "fail"],
  ]);
});

Deno.test("a run that failed an SLO or ran contended joins the history, marked, not the window", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path);
  const options = { baselineDir: dir.path, updateBaseline: true };
  // p99 of 4× the latencies is about 6 ms: over `p99 < 5ms`.
  const { result: failing, notes } = await judgeRun(run(4, 6), options);
  assert.equal(failing.verdicts.find((v) => v.kind === "slo")?.status, "fail");
  assert.match(
    notes.at(-1)!,
    /^baseline kept this run in the history of "shop" only, marked slo_failed/,
  );
  assert.match(notes.at(-1)!, /the regression gate keeps 5 run\(s\)/);
  let stored = (await loadHistoryFile(dir.path, "shop")) as {
    ok: true;
    value: { runs: unknown[]; history: { notBaseline?: string[] }[] };
  };
  assert.equal(stored.value.runs.length, 5);
  assert.equal(stored.value.history.length, 6);
  assert.deepEqual(stored.value.history.at(-1)!.notBaseline, ["slo_failed"]);

  const contended = run(1, 7);
  contended.health.contention = { source: "service", share: 0.2 };
  const marked = await judgeRun(contended, options);
  assert.match(marked.notes.at(-1)!, /marked contended/);
  stored = (await loadHistoryFile(dir.path, "shop")) as typeof stored;
  assert.equal(stored.value.runs.length, 5, "the window holds only baseline runs");
  assert.deepEqual(stored.value.history.at(-1)!.notBaseline, ["contended"]);

  // A sound run joins both, unmarked.
  await judgeRun(run(1.001, 8), options);
  stored = (await loadHistoryFile(dir.path, "shop")) as typeof stored;
  assert.equal(stored.value.runs.length, 6);
  assert.equal(stored.value.history.at(-1)!.notBaseline, undefined);
});

Deno.test("a history whose every run is marked has no baseline yet, and says why", async () => {
  await using dir = await tempDir();
  const options = { baselineDir: dir.path, updateBaseline: true };
  await judgeRun(run(4, 1), options);
  const next = await judgeRun(run(1, 2), { baselineDir: dir.path });
  assert.match(next.notes[0], /none of its 1 stored run\(s\) may be one \(each failed an SLO/);
});

Deno.test("a run is contended only beyond what the runner's stored runs usually show", async () => {
  await using dir = await tempDir();
  const options = { baselineDir: dir.path, updateBaseline: true };
  // A host whose hypervisor steals a few percent from every run: that is this runner.
  for (const [i, share] of [0.07, 0.06, 0.08].entries()) {
    const usual = run(1, i + 1);
    usual.health.contention = { source: "service", share };
    await judgeRun(usual, options);
  }
  let stored = await loadHistoryFile(dir.path, "shop");
  assert.ok(stored.ok && stored.value);
  // The first was contended against nothing stored; the next two were as usual as it.
  assert.deepEqual(stored.value.history.map((e) => e.notBaseline), [
    ["contended"],
    undefined,
    undefined,
  ]);
  assert.deepEqual(stored.value.history.map((e) => e.contentionShare), [0.07, 0.06, 0.08]);
  const busier = run(1, 4);
  busier.health.contention = { source: "service", share: 0.2 };
  await judgeRun(busier, options);
  stored = await loadHistoryFile(dir.path, "shop");
  assert.ok(stored.ok && stored.value);
  assert.deepEqual(stored.value.history.at(-1)!.notBaseline, ["contended"]);
  assert.equal(stored.value.runs.length, 2);
});

Deno.test("a window as long as the store keeps (keepRuns) is full: too noisy, not more runs", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path, [1, 1.3, 0.8]);
  const p50 = (r: RunResult) => r.verdicts.find((v) => v.name === "p50 vs baseline: main")!;
  const { result: three } = await judgeRun(run(2, 6), { baselineDir: dir.path, keepRuns: 3 });
  assert.match(p50(three).message, /^the runner is too noisy for a history gate on p50: /);
  // The default window holds 10: three runs are not yet all it will hold.
  const { result: ten } = await judgeRun(run(2, 6), { baselineDir: dir.path });
  assert.match(
    p50(ten).message,
    /it decides as more runs are stored \(--update-baseline, up to 10\)/,
  );
});

Deno.test("the regression gate's full window is the runs the store keeps", () => {
  assert.equal(BASELINE_WINDOW_RUNS, DEFAULT_BASELINE_RUNS);
});

/** Whether `judgeWith` leaves the result and the history it is given deep-equal to before. */
function leavesItsInputsAlone(
  judgeWith: (result: RunResult, read: HistoryRead) => unknown,
  result: RunResult,
  read: HistoryRead,
): boolean {
  const before = structuredClone({ result, read });
  judgeWith(result, read);
  try {
    assert.deepEqual({ result, read }, before);
    return true;
  } catch {
    return false;
  }
}

Deno.test("judging changes neither the result nor the history it is given, nor a judgement", async () => {
  await using dir = await tempDir();
  await seedHistory(dir.path);
  const read = { dir: dir.path, loaded: await loadHistoryFile(dir.path, "shop") };
  // A regression and a stage the history lacks: verdicts, a baseline and warnings to store.
  const result = gateResult([
    {
      name: "main",
      ratePerSec: 1000,
      durationMs: 10_000,
      labels: [{ label: "GET /a", response: scaledUs(10_000, 1.3) }],
    },
    {
      name: "new",
      ratePerSec: 500,
      durationMs: 5_000,
      labels: [{ label: "GET /a", response: scaledUs(2_500, 1) }],
    },
  ], { slos: ["p99 < 5ms"], startedAt: "2025-02-09T00:00:00.000Z" });
  const judged = judgeGates(result, read);
  assert.equal(judged.verdict.status, "fail");
  assert.ok(judged.baseline);
  assert.match(judged.warnings.join("\n"), /regression gate skipped for new/);
  assert.ok(leavesItsInputsAlone((r, h) => judgeGates(r, h), result, read));
  // The check sees a judge that stores what it decided in the result, as judging once did.
  const inPlace = (r: RunResult, h: HistoryRead) => {
    const j = judgeGates(r, h);
    r.verdicts = j.verdicts;
    r.verdict = j.verdict;
  };
  assert.equal(leavesItsInputsAlone(inPlace, structuredClone(result), read), false);
  // `--confirm` settles copies of the gates: the judgement it starts from keeps its own.
  const verdictsBefore = structuredClone(judged.verdicts);
  const resultBefore = structuredClone(result);
  const settled = confirmJudgement(result, judged, 3, [rerunVerdicts(run(1), judged)]);
  assert.equal(p99Regression({ ...result, verdicts: settled.verdicts })?.status, "pass");
  assert.deepEqual(judged.verdicts, verdictsBefore);
  assert.deepEqual(result, resultBefore);
});
