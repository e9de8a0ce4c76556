import assert from "node:assert/strict";
import { join } from "node:path";
import { reportCommand } from "../../../runner/cli/report_command.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";
import { makeFifo, settlesWithin } from "../../_helpers/special_files.ts";

/** A folder holding `result.json` (the sample result, changed by `alter`), removed afterwards. */
async function stored(
  alter: (r: RunResult) => void = () => {},
): Promise<AsyncDisposable & { dir: string; file: string }> {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-report-" });
  const result = sampleResult();
  alter(result);
  const file = join(dir, "result.json");
  await Deno.writeTextFile(file, JSON.stringify(result));
  return { dir, file, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("tailgate report on a FIFO or a link to /dev/zero exits 2 at once, naming it", async () => {
  await using s = await stored();
  const fifo = join(s.dir, "fifo.json");
  await makeFifo(fifo);
  const outcome = await settlesWithin(reportCommand([fifo, "--no-color"]), 2_000, fifo);
  assert.equal(outcome.exitCode, 2);
  assert.deepEqual(outcome.errors, [
    `cannot read ${fifo}: it is not a regular file (a device, pipe or socket)`,
  ]);
  const zero = join(s.dir, "zero.json");
  await Deno.symlink("/dev/zero", zero);
  const device = await reportCommand([zero, "--no-color"]);
  assert.equal(device.exitCode, 2);
  assert.match(device.errors[0], /is not a regular file/);
});

Deno.test("tailgate report refuses impossible counts with the JSON path, never printing them", async () => {
  await using s = await stored((r) => {
    r.totals.counts.completed = 1e308;
    r.totals.counts.scheduled = -5;
  });
  const outcome = await reportCommand([s.file, "--no-color"]);
  assert.equal(outcome.exitCode, 2);
  assert.deepEqual(outcome.errors, [
    `${s.file}: totals.counts.scheduled is -5: a count is a whole number from 0 to 2^53`,
  ]);
  assert.equal(outcome.output, undefined);
});

Deno.test("tailgate report names the stage and label of a damaged histogram, exit 2", async () => {
  await using s = await stored((r) => {
    r.stages[1].labels[0].service.hdr = "AAAA" + r.stages[1].labels[0].service.hdr.slice(4);
  });
  const outcome = await reportCommand([s.file, "--no-color"]);
  assert.equal(outcome.exitCode, 2);
  assert.match(
    outcome.errors[0],
    /: stages\[1\]\.labels\[0\]\.service\.hdr \(stage "main", label "GET \/a", service time\) is damaged: /,
  );
});

Deno.test("tailgate report exits 5 naming a report it could not write, and writes the others", async () => {
  await using s = await stored();
  await Deno.mkdir(join(s.dir, "report.html"));
  await Deno.writeTextFile(join(s.dir, "report.html", "keep"), "");
  const outcome = await reportCommand([s.file, "--no-color"]);
  assert.equal(outcome.exitCode, EXIT_CODES.ioFailed);
  assert.equal(outcome.errors.length, 1);
  assert.match(outcome.errors[0], /^html report not written to .*report\.html: /);
  assert.match(outcome.output!, /wrote .*junit\.xml\nwrote .*summary\.md$/);
});

Deno.test("tailgate report refuses to write into the baseline folder, where a history may share a report's name", async () => {
  await using s = await stored();
  // The default baseline folder is relative to where tailgate runs: run it in the test's folder.
  const history = join(s.dir, ".tailgate", "baselines", "result.json");
  await Deno.mkdir(join(s.dir, ".tailgate", "baselines"), { recursive: true });
  await Deno.writeTextFile(history, "the history of plan `result`");
  const cli = new URL("../../../cli.ts", import.meta.url).pathname;
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, "report", s.file, "--format", "json", "--out", ".tailgate/baselines"],
    cwd: s.dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(run.stderr);
  assert.equal(run.code, EXIT_CODES.usage, stderr);
  assert.match(
    stderr,
    /^tailgate report: --out \.tailgate\/baselines is the baseline folder \.tailgate\/baselines: /,
  );
  assert.equal(await Deno.readTextFile(history), "the history of plan `result`");
});

Deno.test("tailgate report --junit-inconclusive failure counts each undecided gate a failed test", async () => {
  const { undecidedRegressionRun } = await import("../../reporters/_judged_results.ts");
  const result = await undecidedRegressionRun();
  const undecided = result.verdicts.filter((v) => v.status === "inconclusive").length;
  await using s = await stored((r) => Object.assign(r, result));
  const args = [s.file, "--format", "junit", "--no-color"];
  assert.equal((await reportCommand([...args, "--junit-inconclusive", "failure"])).exitCode, 0);
  const xml = await Deno.readTextFile(join(s.dir, "junit.xml"));
  assert.match(xml, new RegExp(`<testsuites [^>]*failures="${undecided}"`));
  const bad = await reportCommand([...args, "--junit-inconclusive", "yes"]);
  assert.equal(bad.exitCode, EXIT_CODES.usage);
  assert.match(bad.errors[0], /^--junit-inconclusive: `yes` is not one of auto, skipped, failure/);
});

Deno.test("tailgate report --fail-on levels each undecided gate in junit.xml as the job's fail-on would", async () => {
  const { undecidedRegressionRun } = await import("../../reporters/_judged_results.ts");
  const result = await undecidedRegressionRun();
  const undecided = result.verdicts.filter((v) => v.status === "inconclusive").length;
  assert.ok(undecided > 0);
  await using s = await stored((r) => Object.assign(r, result));
  const args = [s.file, "--format", "junit", "--no-color"];
  const xml = async (failOn: string) => {
    assert.equal((await reportCommand([...args, "--fail-on", failOn])).exitCode, 0);
    return await Deno.readTextFile(join(s.dir, "junit.xml"));
  };
  // Every undecided gate turns a job that fails on any inconclusive red: an error each.
  const strict = await xml("inconclusive");
  assert.match(strict, new RegExp(`<testsuites [^>]*errors="${undecided}"`));
  assert.match(strict, /name="junit.failOn" value="inconclusive"/);
  // A job that fails only on fail: none of them does, so each is skipped.
  const lenient = await xml("fail");
  assert.match(lenient, new RegExp(`<testsuites [^>]*skipped="${undecided}"`));
  assert.match(lenient, /<testsuites [^>]*errors="0"/);
  const bad = await reportCommand([...args, "--fail-on", "often"]);
  assert.equal(bad.exitCode, EXIT_CODES.usage);
  assert.match(bad.errors[0], /^--fail-on: /);
});
