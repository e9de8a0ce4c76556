import assert from "node:assert/strict";
import { join } from "node:path";
import { capAnnotations, publishOutcomes } from "../../../ci/action/publish.ts";
import type { PlanOutcome } from "../../../ci/action/plan_outcome.ts";

function outcome(verdict: PlanOutcome["verdict"], exitCode: number, stderr = ""): PlanOutcome {
  return { plan: `plans/${verdict}.yaml`, dir: "", exitCode, verdict, stderr };
}

Deno.test("publishOutcomes() takes the worst plan's verdict and its exit code, then applies fail-on", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "tailgate-publish-" });
  const output = join(cwd, "output");
  try {
    const lines: string[] = [];
    const p = await publishOutcomes(
      [outcome("pass", 0), outcome("inconclusive", 3), outcome("pass", 0)],
      {
        out: "out",
        cwd,
        failOn: "fail",
        paths: { workspace: cwd, cwd },
        annotate: false,
        outputFile: output,
      },
      (l) => lines.push(l),
    );
    assert.deepEqual(
      [p.verdict, p.exitCode, p.jobExitCode, p.summaryPath],
      ["inconclusive", 3, 0, "out/summary.md"],
    );
    assert.match(
      await Deno.readTextFile(join(cwd, "out/summary.md")),
      /^## tailgate: inconclusive\n/,
    );
    assert.match(await Deno.readTextFile(output), /^verdict<<(\S+)\ninconclusive\n\1\n/);
    assert.deepEqual(lines, [
      "tailgate: inconclusive over 3 plan(s), exit code 3; the job passes with fail-on: fail " +
      "(junit.xml: undecided gates as junit-inconclusive: auto)",
    ]);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("publishOutcomes() annotates plan errors of runs that wrote no result, only on GitHub", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "tailgate-publish-" });
  try {
    const invalid = outcome("invalid", 2, "plans/invalid.yaml:6:32: error: unknown unit `sec`\n");
    const options = {
      out: "out",
      cwd,
      failOn: "inconclusive" as const,
      paths: { workspace: cwd, cwd },
    };
    const github: string[] = [];
    const p = await publishOutcomes(
      [invalid],
      { ...options, annotate: true },
      (l) => github.push(l),
    );
    assert.equal(p.jobExitCode, 2);
    assert.equal(
      github[0],
      "::error file=plans/invalid.yaml,line=6,col=32,title=tailgate plan::unknown unit `sec`",
    );
    const elsewhere: string[] = [];
    await publishOutcomes([invalid], { ...options, annotate: false }, (l) => elsewhere.push(l));
    assert.ok(elsewhere.every((l) => !l.startsWith("::")));
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("capAnnotations(): errors first, ten of each, one notice for the rest", () => {
  const errors = Array.from({ length: 13 }, (_, i) => `::error title=t::gate ${i}`);
  const warnings = Array.from({ length: 4 }, (_, i) => `::warning title=t::warn ${i}`);
  const shown = capAnnotations([...warnings, ...errors]);
  assert.deepEqual(shown.slice(0, 10), errors.slice(0, 10));
  assert.deepEqual(shown.slice(10, 14), warnings);
  assert.equal(shown.length, 15);
  assert.match(
    shown[14],
    /^::notice title=tailgate::3 more annotations \(3 errors, 0 warnings\) are not shown/,
  );
  assert.deepEqual(capAnnotations(warnings), warnings, "nothing left out: no notice");
});

Deno.test("publishOutcomes() annotates an I/O failure (exit 5) as an error saying what was not written", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "tailgate-publish-" });
  try {
    const failed: PlanOutcome = {
      ...outcome("invalid", 5),
      ioFailure: "I/O failure: html report not written to out/report.html: No space left on device",
    };
    const lines: string[] = [];
    const p = await publishOutcomes([failed], {
      out: "out",
      cwd,
      failOn: "fail",
      paths: { workspace: cwd, cwd },
      annotate: true,
    }, (l) => lines.push(l));
    assert.deepEqual([p.verdict, p.exitCode, p.jobExitCode], ["invalid", 5, 5]);
    assert.equal(
      lines[0],
      "::error title=tailgate%3A I/O failure::plans/invalid.yaml: I/O failure: html report not " +
        "written to out/report.html: No space left on device",
    );
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
