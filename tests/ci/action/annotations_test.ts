import assert from "node:assert/strict";
import {
  abAnnotationsFor,
  annotationsFor,
  planIssueAnnotations,
  repoRelative,
} from "../../../ci/action/annotations.ts";
import { abResult } from "../../_helpers/ab_fixtures.ts";
import { judge } from "../../../runner/api/judge.ts";
import { inertLine } from "../../../runner/plan/printable.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { gateResult, scaledUs } from "../../_helpers/gate_fixtures.ts";

const PATHS = { workspace: "/repo", cwd: "/repo" };

/** 1,000 requests of 500..1500 µs: p99 about 1.49 ms, too few to pass p99.9; SLOs at lines 20-22. */
async function judged(options: { toolLimited?: boolean } = {}): Promise<RunResult> {
  const result = gateResult([{
    name: "main",
    ratePerSec: 100,
    durationMs: 10_000,
    labels: [{ label: "GET /", response: scaledUs(1_000, 1) }],
  }], { slos: ["p50 < 5ms", "p99 < 1ms", "p99.9 < 5ms"], ...options });
  result.plan.file = "plans/shop.yaml";
  return (await judge(result)).result;
}

Deno.test("annotationsFor() puts a failed SLO as an error on its line and an inconclusive one as fail-on makes it", async () => {
  const result = await judged();
  assert.deepEqual(result.verdicts.map((v) => v.status), ["pass", "fail", "inconclusive"]);
  // p99.9 is undecided for want of requests: red by default, so an error; a warning where the
  // job's fail-on lets it pass.
  assert.match(annotationsFor(result, PATHS)[1], /^::error file=plans\/shop\.yaml,line=22,/);
  const lines = annotationsFor(result, PATHS, "fail");
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^::error file=plans\/shop\.yaml,line=21,title=p99 < 1ms::shop: failed: /);
  assert.ok(lines[0].includes(result.verdicts[1].message.replaceAll("%", "%25")));
  // The SLO's message says "failed:" itself: the status is not said twice.
  assert.ok(!lines[0].includes("failed: failed:"), lines[0]);
  assert.match(
    lines[1],
    /^::warning file=plans\/shop\.yaml,line=22,title=p99\.9 < 5ms::shop: inconclusive: /,
  );
  assert.ok(!lines[1].includes("inconclusive: inconclusive:"), lines[1]);
  assert.match(lines[1], /about 3688 requests \(0 failed\) would decide it/);
});

Deno.test("annotationsFor() warns once of a tool-limited run, and each undecided gate says why", async () => {
  const result = await judged({ toolLimited: true });
  assert.deepEqual(result.verdicts.map((v) => v.status), [
    "inconclusive",
    "inconclusive",
    "inconclusive",
  ]);
  const lines = annotationsFor(result, PATHS);
  assert.equal(lines.length, 4);
  assert.match(
    lines[0],
    /^::warning file=plans\/shop\.yaml,title=tailgate%3A shop%3A tool-limited::/,
  );
  assert.match(
    lines[0],
    /tailgate fell behind its schedule: 3 gates withheld because the generator's lateness could matter to them: send lag p99 42ms exceeds 10ms$/,
  );
  // Undecided for the generator's lateness alone: warnings; p99.9 also wants requests: an error.
  assert.ok(lines.slice(1, 3).every((l) => l.startsWith("::warning ")), lines.join("\n"));
  assert.ok(lines[3].startsWith("::error "), lines[3]);
  assert.match(lines[1], /line=20,.*fell behind its schedule/);
  assert.match(lines[2], /line=21,.*generator's own delays/);
});

Deno.test("annotationsFor() escapes the message and the title by the workflow-command rules", async () => {
  const result = await judged();
  const failed = result.verdicts[1];
  failed.name = "p99 < 1ms, at 100/s: GET";
  failed.message = "50% over\r\nthe bound";
  const line = annotationsFor(result, PATHS)[0];
  assert.equal(
    line,
    "::error file=plans/shop.yaml,line=21,title=p99 < 1ms%2C at 100/s%3A GET::shop: failed: " +
      "50%25 over%0D%0Athe bound",
  );
});

Deno.test("annotationsFor() adds the result's warnings, and regression failures without a line", async () => {
  const result = await judged();
  result.warnings = ["the baseline was recorded on a different machine"];
  result.verdicts.push({
    kind: "regression",
    name: "p99 vs baseline: main",
    status: "fail",
    stageIndexes: [0],
    message: "regressed: 1.49ms against baseline 1.2ms",
  });
  const lines = annotationsFor(result, PATHS);
  assert.ok(lines.includes(
    "::error file=plans/shop.yaml,title=p99 vs baseline%3A main::shop: failed: regressed: " +
      "1.49ms against baseline 1.2ms",
  ));
  assert.ok(lines.includes(
    "::warning file=plans/shop.yaml,title=tailgate%3A shop::the baseline was recorded on a " +
      "different machine",
  ));
});

Deno.test("annotationsFor() says once that a run stopped early, judged or not", async () => {
  const result = gateResult([{
    name: "main",
    ratePerSec: 100,
    durationMs: 10_000,
    labels: [{ label: "GET /", response: scaledUs(1_000, 1) }],
  }], { slos: ["p50 < 5ms"] });
  result.plan.file = "plans/shop.yaml";
  result.run.complete = false;
  result.run.stopReason = "interrupted";
  // Not judged (or judged before soundness was a gate): the same gate, from the result.
  const before = annotationsFor(result, PATHS).filter((l) => /stopped|run complete/.test(l));
  assert.equal(before.length, 1, before.join("\n"));
  assert.match(
    before[0],
    /^::error file=plans\/shop\.yaml,title=run complete::shop: invalid: the run stopped early/,
  );
  const after = annotationsFor((await judge(result)).result, PATHS).filter((l) =>
    /stopped|run complete/.test(l)
  );
  assert.equal(after.length, 1, after.join("\n"));
  assert.match(
    after[0],
    /^::error file=plans\/shop\.yaml,title=run complete::shop: invalid: the run stopped early/,
  );
});

Deno.test("repoRelative() makes plan paths relative to the workspace whatever the run's folder", () => {
  assert.equal(repoRelative("/repo/plans/a.yaml", PATHS), "plans/a.yaml");
  assert.equal(repoRelative("a.yaml", { workspace: "/repo", cwd: "/repo/plans" }), "plans/a.yaml");
  assert.equal(repoRelative("plans/a.yaml", PATHS), "plans/a.yaml");
});

Deno.test("planIssueAnnotations() turns tailgate's located plan errors into annotations with the hint", () => {
  const stderr = [
    "plans/orders.yaml:14:32: error: unknown unit `sec` in `60sec`",
    "   14 |     - { rate: 20k/s, duration: 60sec }",
    "      |                                ^^^^^",
    "  hint: write `60s`",
    "",
    "plans/orders.yaml:20:5: warning: p99.9 needs 10,000 requests",
    "tailgate run: something else",
  ].join("\n");
  assert.deepEqual(planIssueAnnotations(stderr, PATHS), [
    "::error file=plans/orders.yaml,line=14,col=32,title=tailgate plan::unknown unit `sec` in " +
    "`60sec` (hint: write `60s`)",
    "::warning file=plans/orders.yaml,line=20,col=5,title=tailgate plan::p99.9 needs 10,000 requests",
  ]);
});

Deno.test("planIssueAnnotations() points at the plan file itself when tailgate printed its name inert", () => {
  // tailgate breaks `##[` and a leading `::` in what it prints; the annotation names the real file.
  const plan = "plans/a ##[error]x:1:2: error: y.yaml";
  const stderr = `${inertLine(plan)}:6:32: error: unknown unit \`sec\`\n  hint: write \`60s\`\n`;
  assert.deepEqual(planIssueAnnotations(stderr, PATHS, [plan]), [
    "::error file=plans/a ##[error]x%3A1%3A2%3A error%3A y.yaml,line=6,col=32,title=tailgate plan" +
    "::unknown unit `sec` (hint: write `60s`)",
  ]);
});

Deno.test("annotationsFor() makes a failed implicit error gate an error on the plan file", async () => {
  const result = gateResult([{
    name: "main",
    ratePerSec: 100,
    durationMs: 10_000,
    labels: [{ label: "GET /", response: scaledUs(0, 1), errors: 1_000 }],
  }]);
  result.plan.file = "plans/shop.yaml";
  const lines = annotationsFor((await judge(result)).result, PATHS);
  assert.equal(lines.length, 1);
  assert.match(
    lines[0],
    /^::error file=plans\/shop\.yaml,title=error_rate <= 1%25 \(implicit\)::shop: failed: measured 100%25/,
  );
  assert.match(lines[0], /`allow_errors: true` to let errors pass$/);
});

Deno.test("abAnnotationsFor() makes an A/B regression an error, a base that fails too a warning", () => {
  const slower = abResult(1.1);
  slower.plan.file = "plans/shop.yaml";
  const lines = abAnnotationsFor(slower, PATHS);
  assert.ok(lines.length > 0);
  assert.match(lines[0], /^::error file=plans\/shop\.yaml,title=p50 head vs base%3A steady::/);
  const same = abResult(1);
  same.plan.file = "plans/shop.yaml";
  same.slos = [{
    name: "p99 < 1ms",
    line: 21,
    status: "inconclusive",
    causes: ["base"],
    perRound: ["fail"],
    message: "base fails it too",
  }];
  const slo = abAnnotationsFor(same, PATHS).find((l) => l.includes("title=p99 < 1ms"))!;
  assert.match(slo, /^::warning file=plans\/shop\.yaml,line=21,title=p99 < 1ms::/);
  // An undecided comparison is a warning, and an error where the job's fail-on reddens it.
  same.comparisons = [{ ...same.comparisons[0], status: "inconclusive", message: "undecided" }];
  const check = (failOn?: "inconclusive") =>
    abAnnotationsFor(same, PATHS, failOn).find((l) => l.endsWith(": undecided"))!;
  assert.match(check(), /^::warning /);
  assert.match(check("inconclusive"), /^::error /);
  same.verdict = { status: "invalid", message: "the comparison was stopped in round 2" };
  assert.ok(abAnnotationsFor(same, PATHS).some((l) => /^::error .*stopped in round 2/.test(l)));
});
