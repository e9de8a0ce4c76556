import assert from "node:assert/strict";
import { problemText } from "../../../runner/model/result.ts";
import { join } from "node:path";
import {
  appendToHistory,
  HistoryError,
  historyName,
  historyPath,
  historySlug,
  loadHistoryFile,
  MAX_HISTORY_BYTES,
  notBaselineReasons,
} from "../../../runner/history/history_store.ts";
import { planFingerprint, runnerFingerprint } from "../../../runner/history/fingerprints.ts";
import { matchStages, type StageMatch } from "../../../runner/history/stage_match.ts";
import {
  HISTORY_FILE_SCHEMA,
  HISTORY_FILE_VERSION,
} from "../../../runner/history/history_types.ts";
import { decodeHistogram } from "../../../runner/hdr/hdr_codec.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { ENVIRONMENT, sampleResult } from "../../_helpers/result_fixtures.ts";
import { makeFifo, settlesWithin } from "../../_helpers/special_files.ts";
import { valueOf } from "../../_helpers/result_value.ts";

/** A fresh temporary folder, removed when the test is done. */
async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "tailgate-baseline-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** The sample result, started at `2025-01-0<day>T00:00:00Z`. */
function resultOn(day: number): RunResult {
  return sampleResult({ startedAt: new Date(`2025-01-0${day}T00:00:00.000Z`) });
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) out.push(e.name);
  return out.sort();
}

Deno.test("an appended run loads back with byte-identical stage and label histograms", async () => {
  await using dir = await tempDir();
  const result = sampleResult();
  assert.deepEqual(await loadHistoryFile(dir.path, "shop"), { ok: true, value: undefined });
  await appendToHistory(dir.path, result);
  const loaded = await loadHistoryFile(dir.path, "shop");
  assert.ok(loaded.ok && loaded.value, loaded.ok ? "no baseline" : problemText(loaded.problems[0]));
  const baseline = loaded.value;
  assert.equal(baseline.schema, HISTORY_FILE_SCHEMA);
  assert.equal(baseline.version, HISTORY_FILE_VERSION);
  assert.equal(baseline.plan, "shop");
  assert.equal(baseline.runs.length, 1);
  const [run] = baseline.runs;
  assert.equal(run.date, result.run.startedAt);
  assert.deepEqual(run.environment, ENVIRONMENT);
  assert.equal(run.stages.length, result.stages.length);
  for (const [i, stage] of result.stages.entries()) {
    const stored = run.stages[i];
    assert.deepEqual(
      [stored.index, stored.name, stored.warmup, stored.fromPerSec, stored.toPerSec],
      [stage.index, stage.name, stage.warmup, stage.fromPerSec, stage.toPerSec],
    );
    assert.equal(stored.durationMs, stage.durationMs);
    assert.deepEqual(stored.counts, stage.counts);
    assert.equal(stored.response.hdr, stage.response.hdr);
    assert.equal(stored.service.hdr, stage.service.hdr);
    assert.equal(decodeHistogram(stored.response.hdr).totalCount, stage.response.count);
    // A label is stored with its counts and histograms, not its slowest requests or checks.
    assert.deepEqual(
      stored.labels,
      stage.labels.map(({ label, counts, response, service }) => ({
        label,
        counts,
        response,
        service,
      })),
    );
    assert.ok(!("intervals" in stored) && !("startMs" in stored) && !("kind" in stored));
  }
  assert.ok(run.stages.every((s) => s.labels.length === 2 && s.response.count > 0));
  assert.deepEqual(await names(dir.path), ["shop.json"]);
});

Deno.test("the history keeps the newest `keep` runs, oldest first", async () => {
  await using dir = await tempDir();
  for (const day of [1, 2, 3, 4, 5]) {
    const written = valueOf(await appendToHistory(dir.path, resultOn(day), 3));
    assert.equal(written.runs.length, Math.min(day, 3));
  }
  const loaded = await loadHistoryFile(dir.path, "shop");
  assert.ok(loaded.ok && loaded.value);
  assert.deepEqual(loaded.value.runs.map((r) => r.date.slice(0, 10)), [
    "2025-01-03",
    "2025-01-04",
    "2025-01-05",
  ]);
  await assert.rejects(() => appendToHistory(dir.path, resultOn(6), 0), RangeError);
});

Deno.test("historySlug() makes a safe, bounded file name from any plan name", () => {
  assert.equal(historySlug("shop"), "shop");
  assert.equal(historySlug("Shop API / Checkout v2.1"), "shop-api-checkout-v2.1");
  assert.equal(historySlug("a  --  b__c"), "a-b__c");
  assert.equal(historySlug("../../etc/passwd"), "etc-passwd");
  assert.equal(historySlug("Café Über"), "cafe-uber");
  assert.equal(historySlug(".hidden"), "hidden");
  assert.equal(historySlug(""), "plan");
  assert.equal(historySlug("日本語"), "plan");
  assert.equal(historySlug("x".repeat(150)), "x".repeat(100));
  assert.equal(historySlug(`${"y".repeat(99)} z`), "y".repeat(99));
  assert.equal(historyPath("base", "Shop API"), join("base", "shop-api.json"));
});

Deno.test("a corrupt baseline is left byte-identical and the append fails saying so", async () => {
  await using dir = await tempDir();
  const path = historyPath(dir.path, "shop");
  const damaged = '{"schema":"tailgate/baseline","version":1,"plan":"shop","runs":[{"da';
  await Deno.writeTextFile(path, damaged);
  const loaded = await loadHistoryFile(dir.path, "shop");
  assert.ok(!loaded.ok);
  assert.ok(
    problemText(loaded.problems[0]).includes(path) &&
      /not valid JSON/.test(problemText(loaded.problems[0])),
    problemText(loaded.problems[0]),
  );
  assert.match(problemText(loaded.problems[0]), /move it away/);
  await assert.rejects(
    () => appendToHistory(dir.path, sampleResult()),
    (e) => e instanceof HistoryError && e.kind === "invalid_file" && e.message.includes(path),
  );
  assert.equal(await Deno.readTextFile(path), damaged);
  assert.deepEqual(await names(dir.path), ["shop.json"]);
});

Deno.test("an append over a corrupt file throws an invalid_file HistoryError", async () => {
  await using dir = await tempDir();
  const path = historyPath(dir.path, "shop");
  const runsDamaged = JSON.stringify({
    schema: HISTORY_FILE_SCHEMA,
    version: 1,
    plan: "shop",
    runs: [{ date: "2025-01-01", environment: ENVIRONMENT, stages: [{ index: 0 }] }],
  });
  await Deno.writeTextFile(path, runsDamaged);
  try {
    await appendToHistory(dir.path, sampleResult());
    assert.fail("append over a damaged file succeeded");
  } catch (e) {
    assert.ok(e instanceof HistoryError && e.kind === "invalid_file", String(e));
    assert.match(e.message, /run 1 is incomplete/);
  }
  assert.equal(await Deno.readTextFile(path), runsDamaged);
});

Deno.test("a failed write leaves the previous baseline intact", async () => {
  await using dir = await tempDir();
  await appendToHistory(dir.path, resultOn(1));
  const path = historyPath(dir.path, "shop");
  const before = await Deno.readTextFile(path);
  const failing = () => Promise.reject(new Error("disk full"));
  try {
    await appendToHistory(dir.path, resultOn(2), 10, failing);
    assert.fail("append with a failing writer succeeded");
  } catch (e) {
    assert.ok(e instanceof HistoryError && e.kind === "write_failed", String(e));
    assert.match(e.message, /disk full.*unchanged/);
  }
  assert.equal(await Deno.readTextFile(path), before);
});

Deno.test("incomplete, tool-limited and target-lost runs are refused and nothing is written", async () => {
  await using dir = await tempDir();
  const incomplete = sampleResult({ complete: false });
  const limited = sampleResult();
  limited.health.toolLimited = true;
  limited.health.reasons = ["send lag p99 4.2ms exceeds 1ms"];
  // From its second interval on, every request failed on the connection: the target was gone.
  const lost = sampleResult();
  lost.intervals = lost.intervals.map((iv, i) =>
    i === 0 ? iv : {
      ...iv,
      counts: {
        ...iv.counts,
        ok: 0,
        errors: { refused: iv.counts.completed },
        statusCodes: {},
      },
    }
  );
  for (
    const [result, why] of [
      [incomplete, /incomplete/],
      [limited, /tool-limited.*4\.2ms/],
      [lost, /target stopped answering/],
    ]
  ) {
    const refused = await appendToHistory(dir.path, result as RunResult);
    assert.ok(!refused.ok, "an unsound run was appended");
    assert.match(refused.problems[0].message, why as RegExp);
  }
  assert.deepEqual(await names(dir.path), []);
});

Deno.test("a newer baseline format is refused with 'upgrade tailgate'", async () => {
  await using dir = await tempDir();
  const path = historyPath(dir.path, "shop");
  const newer = JSON.stringify({
    schema: HISTORY_FILE_SCHEMA,
    version: HISTORY_FILE_VERSION + 1,
    plan: "shop",
    runs: [],
  });
  await Deno.writeTextFile(path, newer);
  const loaded = await loadHistoryFile(dir.path, "shop");
  assert.ok(
    !loaded.ok && problemText(loaded.problems[0]).includes(path) &&
      /upgrade tailgate/.test(problemText(loaded.problems[0])),
  );
  await assert.rejects(() => appendToHistory(dir.path, sampleResult()), HistoryError);
  assert.equal(await Deno.readTextFile(path), newer);
});

Deno.test("other documents and other plans' baselines under the same file are refused", async () => {
  await using dir = await tempDir();
  const path = historyPath(dir.path, "shop");
  await Deno.writeTextFile(path, JSON.stringify({ schema: "tailgate/result", version: 1 }));
  const other = await loadHistoryFile(dir.path, "shop");
  assert.ok(!other.ok && /not a tailgate baseline/.test(problemText(other.problems[0])));
  await Deno.writeTextFile(
    path,
    JSON.stringify({ schema: HISTORY_FILE_SCHEMA, version: 1, plan: "Shop", runs: [] }),
  );
  const clash = await loadHistoryFile(dir.path, "shop");
  assert.ok(!clash.ok && /holds plan "Shop", not "shop"/.test(problemText(clash.problems[0])));
});

Deno.test("runs appended at once all stay: each re-reads the history under the lock", async () => {
  await using dir = await tempDir();
  // Without the lock every append read the same old history and the last write won.
  await Promise.all([1, 2, 3, 4, 5].map((day) => appendToHistory(dir.path, resultOn(day))));
  const loaded = await loadHistoryFile(dir.path, "shop");
  assert.ok(loaded.ok && loaded.value);
  assert.equal(loaded.value.runs.length, 5);
  assert.deepEqual(await names(dir.path), ["shop.json"], "no lock file is left behind");
});

Deno.test("a run whose stages changed starts a new history; the old one is kept whole beside it", async () => {
  await using dir = await tempDir();
  await appendToHistory(dir.path, resultOn(1));
  await appendToHistory(dir.path, resultOn(2));
  const before = await Deno.readTextFile(join(dir.path, "shop.json"));
  const changed = resultOn(3);
  const steady = changed.stages.find((s) => !s.warmup)!;
  steady.durationMs *= 2; // the plan now runs this stage twice as long
  const written = valueOf(await appendToHistory(dir.path, changed));
  assert.equal(written.runs.length, 1, "the incomparable run is not mixed into the old history");
  assert.ok(written.supersededPath?.match(/shop\.superseded-\d{8}T\d{6}Z\.json$/));
  assert.equal(await Deno.readTextFile(written.supersededPath!), before);
  assert.equal((await names(dir.path)).length, 2);
  // A comparable run appends as before.
  const again = valueOf(await appendToHistory(dir.path, changed));
  assert.equal(again.runs.length, 2);
  assert.equal(again.supersededPath, undefined);
});

/** Files `result` into `dir` as judging does: with the stage match its judgement carries. */
function fileWith(dir: string, result: RunResult, match: StageMatch) {
  return appendToHistory(dir, result, undefined, undefined, undefined, undefined, match);
}

/** A history of one run (day 1), and the run of `day` matched against it as judging it does. */
async function judgedAgainstOne(dir: string, day: number) {
  await appendToHistory(dir, resultOn(1));
  const runs = valueOf(await loadHistoryFile(dir, "shop"))!.runs;
  const run = resultOn(day);
  return { run, runs, match: matchStages(run.stages, runs) };
}

/** The run of `day` of a plan that now holds its measured stage twice as long. */
function longerOn(day: number): RunResult {
  const longer = resultOn(day);
  longer.stages.find((s) => !s.warmup)!.durationMs *= 2;
  return longer;
}

Deno.test("filing follows the judgement's stage match while the history is the one it matched", async () => {
  await using dir = await tempDir();
  const { run, runs, match } = await judgedAgainstOne(dir.path, 2);
  assert.deepEqual(match, { unmatched: [], newestDate: runs[0].date, sameAsNewest: true });
  // A judgement that found the stages changed restarts the history: filing does not match again.
  const restarted = valueOf(await fileWith(dir.path, run, { ...match, sameAsNewest: false }));
  assert.ok(restarted.supersededPath, "the judgement's match decided");
  assert.equal(restarted.runs.length, 1);
  // And one that found them the same appends, whatever the file's runs would say.
  const appended = valueOf(
    await fileWith(dir.path, longerOn(3), {
      unmatched: [],
      newestDate: run.run.startedAt,
      sameAsNewest: true,
    }),
  );
  assert.equal(appended.supersededPath, undefined);
  assert.equal(appended.runs.length, 2);
});

Deno.test("a history another run restarted after the judging is matched again when filing", async () => {
  await using dir = await tempDir();
  const { run, match } = await judgedAgainstOne(dir.path, 3);
  assert.equal(match.sameAsNewest, true, "judged against a history of its stages");
  // Meanwhile a run whose plan holds a stage twice as long was filed: the history restarted.
  assert.ok(valueOf(await appendToHistory(dir.path, longerOn(2))).supersededPath);
  const written = valueOf(await fileWith(dir.path, run, match));
  assert.ok(written.supersededPath, "never mixed into a history of other stages");
  assert.equal(written.runs.length, 1);
  assert.equal(written.runs[0].date, run.run.startedAt);
});

Deno.test("a run with command-line overrides keeps a history of its own beside the plan's", async () => {
  await using dir = await tempDir();
  await appendToHistory(dir.path, resultOn(1));
  const short = resultOn(2);
  short.plan.overrides = ["--rate-scale 0.25", "--stage steady:duration=30s"];
  short.stages = short.stages.map((s) => ({ ...s, durationMs: s.durationMs / 2 }));
  const written = valueOf(await appendToHistory(dir.path, short));
  // The plan's own history is neither superseded nor appended to.
  assert.equal(written.supersededPath, undefined);
  assert.deepEqual(await names(dir.path), [
    "shop-rate-scale-0.25-stage-steady-duration-30s.json",
    "shop.json",
  ]);
  const own = await loadHistoryFile(dir.path, "shop");
  assert.equal(own.ok && own.value?.runs.length, 1);
  assert.equal(
    historyName(short.plan),
    "shop --rate-scale 0.25 --stage steady:duration=30s",
  );
});

Deno.test("a baseline that is a FIFO or a link to /dev/zero is refused at once, never read", async () => {
  await using dir = await tempDir();
  const path = historyPath(dir.path, "shop");
  await makeFifo(path);
  // A pull request could commit either: the run must end, saying which file and why.
  const fifo = await settlesWithin(loadHistoryFile(dir.path, "shop"), 2_000, path);
  assert.ok(!fifo.ok);
  assert.match(problemText(fifo.problems[0]), /is not a regular file \(a device, pipe or socket\)/);
  assert.ok(problemText(fifo.problems[0]).includes(path), problemText(fifo.problems[0]));
  await Deno.remove(path);
  await Deno.symlink("/dev/zero", path);
  const zero = await loadHistoryFile(dir.path, "shop");
  assert.ok(
    !zero.ok && /is not a regular file/.test(problemText(zero.problems[0])),
    JSON.stringify(zero),
  );
});

Deno.test("a baseline over the size limit is refused from its size, before it is read", async () => {
  await using dir = await tempDir();
  const path = historyPath(dir.path, "shop");
  // A sparse file: refused from its size, never read into memory.
  using f = await Deno.open(path, { write: true, create: true });
  await f.truncate(MAX_HISTORY_BYTES + 1);
  const loaded = await loadHistoryFile(dir.path, "shop");
  assert.ok(!loaded.ok);
  assert.match(
    problemText(loaded.problems[0]),
    new RegExp(`is ${MAX_HISTORY_BYTES + 1} bytes; at most`),
  );
});

/** The sample result, started `n` days after 2025-01-01, at commit n (40 hex digits). */
function resultAt(n: number): RunResult {
  const result = sampleResult({ startedAt: new Date(Date.UTC(2025, 0, 1 + n)) });
  result.environment = { ...ENVIRONMENT, gitSha: n.toString(16).padStart(40, "0") };
  return result;
}

Deno.test("the long history keeps the newest historyRuns while runs keeps the gate's 10", async () => {
  await using dir = await tempDir();
  for (let n = 1; n <= 14; n++) {
    await appendToHistory(dir.path, resultAt(n), undefined, undefined, undefined, 12);
  }
  const baseline = valueOf(await loadHistoryFile(dir.path, "shop"))!;
  assert.equal(baseline.version, HISTORY_FILE_VERSION);
  assert.deepEqual(
    baseline.runs.map((r) => r.environment.gitSha),
    [5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((n) => resultAt(n).environment.gitSha),
  );
  assert.deepEqual(
    baseline.history.map((e) => e.commit),
    [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((n) => resultAt(n).environment.gitSha),
  );
  assert.deepEqual(
    baseline.history.map((e) => e.date),
    baseline.history.map((e) => e.date).toSorted(),
  );
  await assert.rejects(
    () => appendToHistory(dir.path, resultAt(15), 10, undefined, undefined, 0),
    RangeError,
  );
});

Deno.test("a history entry holds the run's commit, branch, fingerprints and stage summaries", async () => {
  await using dir = await tempDir();
  const result = resultAt(1);
  result.environment.gitBranch = "main";
  const written = valueOf(await appendToHistory(dir.path, result));
  const [entry] = written.history;
  assert.equal(entry.date, result.run.startedAt);
  assert.equal(entry.commit, result.environment.gitSha);
  assert.equal(entry.branch, "main");
  assert.equal(entry.runner, runnerFingerprint(result.environment));
  assert.equal(entry.plan, planFingerprint(result));
  assert.equal(entry.migrated, undefined);
  for (const [i, stage] of result.stages.entries()) {
    const kept = entry.stages[i];
    assert.equal(kept.response.hdr, stage.response.hdr);
    assert.deepEqual(kept.counts, stage.counts);
    assert.ok(!("service" in kept) && !("startMs" in kept), "no service histogram, no timing");
    assert.deepEqual(
      kept.labels,
      stage.labels.map((l) => ({
        label: l.label,
        counts: l.counts,
        responsePercentilesUs: l.response.percentilesUs,
      })),
    );
  }
  // The entry is smaller than the full run kept for the regression gate.
  assert.ok(JSON.stringify(entry).length < JSON.stringify(written.runs[0]).length);
});

Deno.test("appending to a version-1 file writes version 2, its runs first in the history", async () => {
  await using dir = await tempDir();
  const v1 = new URL("../../testdata/baseline_v1/shop.json", import.meta.url);
  await Deno.copyFile(v1, historyPath(dir.path, "shop"));
  const result = resultAt(4);
  valueOf(await appendToHistory(dir.path, result));
  const stored = JSON.parse(await Deno.readTextFile(historyPath(dir.path, "shop")));
  assert.equal(stored.version, 2);
  assert.equal(stored.runs.length, 4);
  assert.equal(stored.history.length, 4);
  assert.deepEqual(stored.history.map((e: { migrated?: true }) => e.migrated), [
    true,
    true,
    true,
    undefined,
  ]);
  assert.equal(stored.history[3].plan, planFingerprint(result));
  assert.equal(stored.history[3].commit, result.environment.gitSha);
  assert.deepEqual(valueOf(await loadHistoryFile(dir.path, "shop")), stored);
});

Deno.test("a run whose stages changed starts the long history anew as well", async () => {
  await using dir = await tempDir();
  await appendToHistory(dir.path, resultAt(1));
  await appendToHistory(dir.path, resultAt(2));
  const changed = resultAt(3);
  changed.stages.find((s) => !s.warmup)!.durationMs *= 2;
  const written = valueOf(await appendToHistory(dir.path, changed));
  assert.equal(written.history.length, 1);
  const old = JSON.parse(await Deno.readTextFile(written.supersededPath!));
  assert.equal(old.history.length, 2, "the old history is kept whole");
});

Deno.test("a regression check the runner's usual contention explained keeps the run a baseline", () => {
  const explained = (kind: "slo" | "regression") => [{
    kind,
    status: "inconclusive" as const,
    causes: ["contention" as const],
  }];
  // As much contention as this runner's stored runs usually show: its usual noise, and spread.
  const usual = [0.04, 0.06, 0.05];
  const health = { contention: { share: 0.06 } };
  assert.deepEqual(notBaselineReasons({ verdicts: explained("regression"), health }, usual), []);
  // An SLO it explained may have failed: no baseline.
  assert.deepEqual(notBaselineReasons({ verdicts: explained("slo"), health }, usual), [
    "contended",
  ]);
  // Twice the usual and over 5%: an unusual hour, whatever it explained.
  assert.deepEqual(
    notBaselineReasons({ verdicts: [], health: { contention: { share: 0.13 } } }, usual),
    ["contended"],
  );
});
