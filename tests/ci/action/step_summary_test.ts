import assert from "node:assert/strict";
import { appendStepSummary, renderCiSummary } from "../../../ci/action/step_summary.ts";
import type { PlanOutcome } from "../../../ci/action/plan_outcome.ts";
import { renderMarkdown } from "../../../reporters/text/markdown.ts";
import { gateResult, pointsUs } from "../../_helpers/gate_fixtures.ts";
import { readOutcome } from "../../../ci/action/plan_outcome.ts";
import { judge } from "../../../runner/api/judge.ts";
import { computeRunVerdict } from "../../../runner/gates/run_verdict.ts";
import { join } from "node:path";
import { HOSTILE_PLAN_TEXT, markdownProblems } from "../../_helpers/markdown_assertions.ts";

function outcome(plan: string, exitCode: number, summaryMd?: string): PlanOutcome {
  return {
    plan,
    dir: `out/${plan}`,
    exitCode,
    verdict: exitCode === 0 ? "pass" : "invalid",
    stderr: "",
    ...(summaryMd === undefined ? {} : { summaryMd }),
  };
}

Deno.test("renderCiSummary() tables every plan, then appends each plan's summary.md as written", () => {
  const text = renderCiSummary([
    outcome("plans/a.yaml", 0, "### a\n\nall good\n"),
    outcome("plans/b|c.yaml", 4),
  ], "invalid");
  assert.equal(
    text,
    [
      "## tailgate: invalid",
      "",
      "| plan | name | verdict | exit code |",
      "| --- | --- | --- | --- |",
      "| plans/a.yaml |  | **pass** | 0 (every gate passed, or only regression checks undecided) |",
      "| plans/b\\|c.yaml |  | **invalid** | 4 (target unreachable) |",
      "",
      "### a",
      "",
      "all good",
      "",
      "### plans/b\\|c.yaml",
      "",
      "No report: target unreachable (exit 4); see the job log.",
      "",
    ].join("\n"),
  );
});

Deno.test("renderCiSummary() says when only regression checks are undecided: a warning", () => {
  const undecided: PlanOutcome = {
    ...outcome("plans/a.yaml", 0),
    verdict: "inconclusive",
    regressionOnly: true,
  };
  const text = renderCiSummary([undecided, outcome("plans/b.yaml", 0)], {
    status: "inconclusive",
    regressionOnly: true,
  });
  const lines = text.split("\n");
  assert.equal(lines[0], "## tailgate: inconclusive");
  assert.match(lines[2], /^⚠️ Only regression checks are undecided: a warning, not a failure/);
  assert.ok(
    lines.includes(
      "| plans/a.yaml |  | **inconclusive** (regression checks only: a warning) | 0 (every " +
        "gate passed, or only regression checks undecided) |",
    ),
    text,
  );
  const slo = renderCiSummary([{ ...undecided, regressionOnly: undefined, exitCode: 3 }], {
    status: "inconclusive",
  });
  assert.doesNotMatch(slo, /a warning/);
});

Deno.test("renderCiSummary() renders hostile plan files and names inert: no image, link, tag or mention, no broken row", () => {
  const result = gateResult([]);
  result.plan.name = HOSTILE_PLAN_TEXT;
  result.verdict = computeRunVerdict(result);
  const text = renderCiSummary([
    {
      ...outcome(`plans/${HOSTILE_PLAN_TEXT}\n| forged | row |.yaml`, 0, renderMarkdown(result)),
      result,
    },
    outcome(`plans/\`${HOSTILE_PLAN_TEXT}\`.yaml`, 4),
  ], "invalid");
  assert.deepEqual(markdownProblems(text), []);
  assert.equal(text.split("\n").filter((l) => l.startsWith("| ")).length, 4, "header, 2 plans");
});

Deno.test("renderCiSummary() leaves out the plan summaries past the size limit and says how many", () => {
  const big = "x".repeat(600);
  const plans = [1, 2, 3].map((i) => outcome(`p${i}.yaml`, 0, big));
  const text = renderCiSummary(plans, "pass", 1_100);
  assert.ok(new TextEncoder().encode(text).length < 1_100 + 200);
  assert.equal(text.split(big).length - 1, 1);
  assert.match(text, /_2 more plan summaries do not fit here: see the reports artifact\._/);
});

Deno.test("appendStepSummary() appends with a closing newline and does nothing without the file", async () => {
  const file = await Deno.makeTempFile();
  try {
    await appendStepSummary("## one", file);
    await appendStepSummary("## two\n", file);
    await appendStepSummary("## never", undefined);
    assert.equal(await Deno.readTextFile(file), "## one\n## two\n");
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("renderCiSummary() tells an I/O failure (exit 5) as one, with what was not written", () => {
  const failed: PlanOutcome = {
    ...outcome("plans/a.yaml", 5, "### a\n\nall good\n"),
    ioFailure: "I/O failure: html report not written to out/report.html: No space left on device",
  };
  const text = renderCiSummary([failed], "invalid");
  assert.match(text, /^\| plans\/a\.yaml \| {2}\| \*\*invalid\*\* \| 5 \(I\/O failure\) \|$/m);
  assert.match(
    text,
    /### a\n\nall good\n\n\*\*I\/O failure: html report not written to out\/report\.html: No space left on device\*\*\n$/,
  );
  const none = renderCiSummary([{ ...failed, summaryMd: undefined } as PlanOutcome], "invalid");
  assert.match(
    none,
    /No report: I\/O failure \(exit 5\); see the job log\.\n\n\*\*I\/O failure: html/,
  );
});

Deno.test("renderCiSummary() of a plan without SLOs whose every request failed: fail, the implicit gate", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-summary-" });
  try {
    // What `tailgate run` leaves behind for a server that answered 403 to every request.
    const measured = gateResult([{
      ratePerSec: 100,
      durationMs: 10_000,
      labels: [{ label: "GET /", response: pointsUs([]), errors: 1_000 }],
    }]);
    const result = (await judge(measured)).result;
    await Deno.writeTextFile(join(dir, "result.json"), JSON.stringify(result));
    await Deno.writeTextFile(join(dir, "summary.md"), renderMarkdown(result));
    const read = await readOutcome("plans/shop.yaml", dir, 1, "");
    assert.equal(read.verdict, "fail");
    const text = renderCiSummary([read], read.verdict);
    assert.match(text, /^## tailgate: fail$/m);
    assert.match(text, /^\| plans\/shop\.yaml \| shop \| \*\*fail\*\* \| 1 \(a gate failed\) \|$/m);
    assert.match(text, /^## ❌ tailgate: shop — fail$/m);
    assert.match(text, /^\| ❌ fail \| error\\_rate &lt;= 1% \(implicit\) \| 100% \| 1% \| /m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("renderCiSummary() says how junit.xml wrote the undecided gates, and how to count them failed", async () => {
  const { undecidedRegressionRun } = await import("../../reporters/_judged_results.ts");
  const result = await undecidedRegressionRun();
  const n = result.verdicts.filter((v) => v.status === "inconclusive").length;
  assert.ok(n > 1);
  const plan: PlanOutcome = { ...outcome("plans/a.yaml", 0), result, verdict: "inconclusive" };
  const line = (text: string) => text.split("\n").find((l) => l.startsWith("**JUnit:**"));
  assert.equal(
    line(renderCiSummary([plan], "inconclusive")),
    `**JUnit:** of ${n} undecided gates, junit.xml writes ${n} as \`skipped\` (test views count ` +
      "those as neither passed nor failed). `junit-inconclusive: auto` writes each as " +
      "`fail-on: inconclusive-sampling` levels it (an `error` when it turns the job red, else " +
      "`skipped`); `junit-inconclusive: failure` counts each as a failed test.",
  );
  const strict = { failOn: "inconclusive", inconclusive: "auto" } as const;
  assert.match(
    line(renderCiSummary([plan], "inconclusive", undefined, strict))!,
    new RegExp(`junit\\.xml writes ${n} as \`error\`\\. .*\`fail-on: inconclusive\` levels it`),
  );
  const failing = { failOn: "inconclusive-sampling", inconclusive: "failure" } as const;
  assert.equal(
    line(renderCiSummary([plan], "inconclusive", undefined, failing)),
    `**JUnit:** of ${n} undecided gates, junit.xml writes ${n} as \`failure\`. ` +
      "`junit-inconclusive: failure` writes every one as a failed test.",
  );
  // Nothing undecided: nothing to say.
  assert.equal(line(renderCiSummary([outcome("plans/b.yaml", 0)], "pass")), undefined);
});

Deno.test("renderCiSummary() names each unexpected status by its code, in the table of the plan's summary", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-summary-" });
  try {
    // Every request of GET /a answered 500 (the fixture's failing status), none expected.
    const measured = gateResult([{
      ratePerSec: 100,
      durationMs: 10_000,
      labels: [{ label: "GET /a", response: pointsUs([]), errors: 1_000 }],
    }]);
    const result = (await judge(measured)).result;
    await Deno.writeTextFile(join(dir, "result.json"), JSON.stringify(result));
    await Deno.writeTextFile(join(dir, "summary.md"), renderMarkdown(result));
    const read = await readOutcome("plans/shop.yaml", dir, 1, "");
    const text = renderCiSummary([read], read.verdict);
    assert.match(text, /1000 errors \(500 × 1,000\)/);
    assert.match(text, /judged requests failed \(500 × 1,000\)/);
    assert.doesNotMatch(text, /unexpected\\?_status/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
