import assert from "node:assert/strict";
import { finishResult } from "../../../runner/api/finish_result.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";
import type { FailOn } from "../../../runner/result/read/mod.ts";
import { undecidedRegressionRun } from "../../reporters/_judged_results.ts";

Deno.test("an interrupted run with --update-baseline says the history was left as it was", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const result = sampleResult({ complete: false });
    assert.equal(result.run.complete, false);
    const finished = await finishResult(result, {
      outDir: `${dir}/out`,
      reports: ["json"],
      judge: true,
      baselineDir: `${dir}/baselines`,
      updateBaseline: true,
      color: false,
    });
    assert.match(
      finished.notes.join("\n"),
      /baseline not updated: the run stopped early \(interrupted\), so the history in .* was left/,
    );
    await assert.rejects(Deno.stat(`${dir}/baselines`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a report that cannot be written exits 5 naming it; the others and the verdict are written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // A folder where report.html goes: the rename over it fails, whoever runs the test.
    await Deno.mkdir(`${dir}/out/report.html`, { recursive: true });
    await Deno.writeTextFile(`${dir}/out/report.html/keep`, "");
    const result = sampleResult();
    const finished = await finishResult(result, {
      outDir: `${dir}/out`,
      judge: true,
      color: false,
    });
    assert.equal(finished.exitCode, EXIT_CODES.ioFailed);
    assert.equal(finished.ioFailures.length, 1);
    assert.match(finished.ioFailures[0], /^html report not written to .*out\/report\.html: /);
    assert.deepEqual(Object.keys(finished.paths).sort(), ["json", "junit", "md"]);
    const stored = JSON.parse(await Deno.readTextFile(`${dir}/out/result.json`));
    const judged = finished.result;
    assert.ok(judged.verdict, "judged");
    assert.deepEqual(stored.verdict, judged.verdict, "the gates' verdict is still stored");
    assert.ok(finished.summary.includes(judged.verdict.summary), "and still printed");
    assert.equal(result.verdict, undefined, "the measured result is left as it was");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a baseline that cannot be updated exits 5 naming it, not 0 with a note", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // The baseline folder lies below a regular file: no history there, and none can be written.
    await Deno.writeTextFile(`${dir}/file`, "");
    const finished = await finishResult(sampleResult(), {
      outDir: `${dir}/out`,
      reports: [],
      judge: true,
      baselineDir: `${dir}/file/baselines`,
      updateBaseline: true,
      color: false,
    });
    assert.equal(finished.exitCode, EXIT_CODES.ioFailed);
    assert.match(finished.ioFailures.join("\n"), /^baseline not updated: .*file\/baselines/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a run whose only undecided gates are regression checks exits 0 with a warning, 3 under --fail-on inconclusive", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const result = await undecidedRegressionRun();
    assert.equal(result.verdict?.regressionOnly, true);
    const finish = (failOn?: FailOn) =>
      finishResult(result, {
        outDir: `${dir}/out`,
        reports: ["json"],
        judge: false,
        color: false,
        ...(failOn ? { failOn } : {}),
      });
    const lenient = await finish();
    assert.equal(lenient.exitCode, EXIT_CODES.ok);
    assert.match(lenient.summary, /^WARNING: only regression checks are undecided/m);
    assert.equal((await finish("inconclusive")).exitCode, EXIT_CODES.invalidRun);
    assert.equal((await finish("fail")).exitCode, EXIT_CODES.ok);
    const stored = JSON.parse(await Deno.readTextFile(`${dir}/out/result.json`));
    assert.equal(stored.verdict.status, "inconclusive", "the stored verdict keeps its status");
    assert.equal(stored.verdict.regressionOnly, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("junit.xml writes the undecided gates as --junit-inconclusive asks", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const result = await undecidedRegressionRun();
    const undecided = result.verdicts.filter((v) => v.status === "inconclusive").length;
    const junit = async (junitInconclusive?: "failure" | "skipped") => {
      await finishResult(result, {
        outDir: `${dir}/out`,
        reports: ["junit"],
        judge: false,
        color: false,
        ...(junitInconclusive ? { junitInconclusive } : {}),
      });
      return Deno.readTextFile(`${dir}/out/junit.xml`);
    };
    assert.match(await junit(), new RegExp(`<testsuites [^>]*skipped="${undecided}"`));
    assert.match(await junit("failure"), new RegExp(`<testsuites [^>]*failures="${undecided}"`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
