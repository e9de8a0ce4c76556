import assert from "node:assert/strict";
import { join } from "node:path";
import { readOutcome } from "../../../ci/action/plan_outcome.ts";
import { publishOutcomes } from "../../../ci/action/publish.ts";
import type { FailOn } from "../../../ci/action/verdict.ts";
import { undecidedRegressionRun } from "../../reporters/_judged_results.ts";
import { abResult } from "../../_helpers/ab_fixtures.ts";
import { judge } from "../../../runner/api/judge.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { gateResult, scaledUs } from "../../_helpers/gate_fixtures.ts";
import { makeFifo, settlesWithin } from "../../_helpers/special_files.ts";

/** Writes `dir/result.json`: 1 ms answers at 100/s for 10 s, judged by `slo`. */
async function writeJudged(dir: string, slo: string): Promise<RunResult> {
  const measured = gateResult([{
    ratePerSec: 100,
    durationMs: 10_000,
    labels: [{ label: "GET /", response: scaledUs(1_000, 1) }],
  }], { slos: [slo] });
  const result = (await judge(measured)).result;
  await Deno.writeTextFile(join(dir, "result.json"), JSON.stringify(result));
  return result;
}

Deno.test("readOutcome() reads the result and summary tailgate wrote and draws the verdict", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-outcome-" });
  try {
    await writeJudged(dir, "p99 < 1ms");
    await Deno.writeTextFile(join(dir, "summary.md"), "### shop\n");
    const o = await readOutcome("plans/shop.yaml", dir, 1, "");
    assert.equal(o.verdict, "fail");
    assert.equal(o.result?.plan.name, "shop");
    assert.equal(o.summaryMd, "### shop\n");
    // A result that cannot be read counts as none: exit 1 without a failed gate is a crash.
    await Deno.writeTextFile(join(dir, "result.json"), "{ not json");
    const broken = await readOutcome("plans/shop.yaml", dir, 1, "boom");
    assert.equal(broken.result, undefined);
    assert.equal(broken.verdict, "invalid");
    assert.equal(broken.stderr, "boom");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readOutcome() of a folder tailgate never wrote is invalid, without result or summary", async () => {
  const o = await readOutcome(
    "plans/x.yaml",
    "/nonexistent/tailgate-out/x",
    2,
    "plans/x.yaml:1:1: error: …",
  );
  assert.deepEqual(
    { verdict: o.verdict, result: o.result, summaryMd: o.summaryMd },
    { verdict: "invalid", result: undefined, summaryMd: undefined },
  );
});

Deno.test("readOutcome() of exit 5 is an I/O failure, invalid whatever the stored verdict, with tailgate's errors", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-outcome-" });
  try {
    const result = await writeJudged(dir, "p99 < 5ms");
    assert.equal(result.verdict?.status, "pass");
    const stderr = "[steady 1s/10s] intended 100/s\n" +
      "tailgate run: html report not written to out/report.html: No space left on device (os error 28)\n" +
      "tailgate run: baseline not updated: cannot take the history lock b/shop.json.lock: No space left on device (os error 28)\n";
    const o = await readOutcome("plans/shop.yaml", dir, EXIT_CODES.ioFailed, stderr);
    assert.equal(o.verdict, "invalid", "not a pass: its files are missing");
    assert.equal(
      o.ioFailure,
      "I/O failure: html report not written to out/report.html: No space left on device (os " +
        "error 28); baseline not updated: cannot take the history lock b/shop.json.lock: No " +
        "space left on device (os error 28)",
    );
    const passed = await readOutcome("plans/shop.yaml", dir, EXIT_CODES.ok, "");
    assert.equal(passed.ioFailure, undefined);
    assert.equal(passed.verdict, "pass");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readOutcome() never reads a result.json that is a FIFO", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-outcome-" });
  try {
    await makeFifo(join(dir, "result.json"));
    const o = await settlesWithin(
      readOutcome("plans/shop.yaml", dir, 0, ""),
      2_000,
      join(dir, "result.json"),
    );
    assert.deepEqual([o.result, o.summaryMd, o.verdict], [undefined, undefined, "pass"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readOutcome() keeps that only regression checks are undecided, and the job passes by default", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "tailgate-outcome-" });
  try {
    const dir = join(cwd, "plan");
    await Deno.mkdir(dir);
    await Deno.writeTextFile(
      join(dir, "result.json"),
      JSON.stringify(await undecidedRegressionRun()),
    );
    // tailgate run exits 0 for it by default, 3 with --fail-on inconclusive: both are its verdict.
    for (const code of [EXIT_CODES.ok, EXIT_CODES.invalidRun]) {
      const o = await readOutcome("plans/shop.yaml", dir, code, "");
      assert.deepEqual([o.verdict, o.regressionOnly], ["inconclusive", true], `exit ${code}`);
    }
    const o = await readOutcome("plans/shop.yaml", dir, EXIT_CODES.ok, "");
    const publish = (failOn: FailOn) =>
      publishOutcomes([o], {
        out: "out",
        cwd,
        failOn,
        paths: { workspace: cwd, cwd },
        annotate: false,
      }, () => {});
    assert.equal((await publish("inconclusive-slo")).jobExitCode, EXIT_CODES.ok);
    assert.equal((await publish("inconclusive")).jobExitCode, EXIT_CODES.invalidRun);
    assert.match(
      await Deno.readTextFile(join(cwd, "out/summary.md")),
      /^⚠️ Only regression checks are undecided: a warning, not a failure/m,
    );
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("readOutcome() of an A/B comparison whose only undecided gates are comparisons: inconclusive, regression-only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-outcome-" });
  try {
    const ab = abResult(1, "orders", [1.08, 0.98, 1.1, 0.99, 1]);
    assert.equal(ab.verdict.regressionOnly, true);
    await Deno.writeTextFile(join(dir, "ab.json"), JSON.stringify(ab));
    const o = await readOutcome("plans/orders.yaml", dir, EXIT_CODES.ok, "");
    assert.deepEqual([o.verdict, o.regressionOnly], ["inconclusive", true]);
    const failed = await readOutcome("plans/orders.yaml", dir, EXIT_CODES.gateFailed, "");
    assert.deepEqual([failed.verdict, failed.regressionOnly], ["invalid", undefined]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
