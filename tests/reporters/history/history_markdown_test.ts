import assert from "node:assert/strict";
import { historyMarkdown } from "../../../reporters/history/history_markdown.ts";
import { commitOf, historyReport, planHistory, RUNS, STEP_AT } from "./_history_report.ts";

const short = (i: number) => commitOf(i).slice(0, 7);

Deno.test("historyMarkdown() states the verdict, the runs and each change in words and as a row", () => {
  const md = historyMarkdown(historyReport());
  assert.match(md, /^\*\*PASS\*\*: no worse change in the newest runs \(report only\)$/m);
  assert.ok(
    md.includes(
      `60 runs, from 2026-10-01 03:04Z (commit ${short(0)}) to 2026-11-29 03:04Z (commit ` +
        `${short(RUNS - 1)})`,
    ),
    md,
  );
  assert.ok(
    md.includes(
      `- **worse**: p99 of stage steady rose 12% (95% interval 8.1% to 16%) near commit ` +
        `${short(STEP_AT)}, between ${short(STEP_AT - 1)} and ${short(STEP_AT)}`,
    ),
  );
  const row = md.split("\n").find((l) => l.startsWith("| p99 |"));
  assert.equal(
    row,
    `| p99 | stage steady | step (worse) | rose 12% (95% interval +8.1% to +16%) | ` +
      `5.002ms → 5.601ms | near ${short(STEP_AT)}, between ${short(STEP_AT - 1)} and ` +
      `${short(STEP_AT)} | 40 / 20 | ≤ 0.00067 (the permutation floor: none of 2999 shuffles ` +
      `reached it) | the runner changed (cores: 4 vs 8) |`,
  );
  assert.ok(!md.includes(commitOf(STEP_AT)), "no commit is printed in full");
  assert.match(md, /^- the runner changed at run 41 \(cores: 4 vs 8\)$/m);
  assert.match(
    md,
    /\*\*Minimum change per series\*\*\n\n\| metric \| where \| min change \| why \|\n.*\n\| p99 \| stage steady \| 2\.1% \| 3 robust SDs of its runs \(SD 0\.7%\) \|\n/,
  );
  assert.doesNotMatch(md, /No change found/);
});

Deno.test("historyMarkdown() says plainly when a plan's history holds no change", () => {
  const plan = { ...planHistory(), changes: [], notes: [] };
  const md = historyMarkdown(historyReport([plan]));
  assert.match(md, /^No change found in 60 runs: every series held its level\.$/m);
  assert.doesNotMatch(md, /\| metric \| where \| kind \|/, "no empty table of changes");
  assert.doesNotMatch(md, /\*\*Notes\*\*/);
});

Deno.test("historyMarkdown() names a run without a commit by its place and date", () => {
  const plan = planHistory();
  plan.runs = plan.runs.map(({ commit: _, ...r }) => r);
  plan.changes = plan.changes.map(({ commit: _c, previousCommit: _p, ...c }) => c);
  const row = historyMarkdown(historyReport([plan])).split("\n").find((l) =>
    l.startsWith("| p99 |")
  );
  assert.ok(
    row?.includes("near run 41 (2026-11-10 03:04Z), between run 40 (2026-11-09 03:04Z) and run 41"),
    row,
  );
});

Deno.test("historyMarkdown() escapes an odd plan name, file and note: no HTML, link, table break or mention", () => {
  const odd = "orders | *api* <img src=x> [x](javascript:1) @team\n# not a heading";
  const plan = { ...planHistory(odd), planFile: "plans/a|b.yaml", notes: ["<script>x</script>"] };
  const md = historyMarkdown(historyReport([plan]));
  const heading = md.split("\n").find((l) => l.startsWith("## "));
  assert.equal(
    heading,
    "## orders \\| \\*api\\* &lt;img src=x&gt; \\[x\\](javascript:1) @\u200bteam" +
      "\\\\n\\#\u200b not a heading",
  );
  assert.ok(md.includes("plans/a\\|b.yaml"));
  assert.ok(md.includes("- &lt;script&gt;x&lt;/script&gt;"));
  assert.doesNotMatch(md, /<img|<script/);
});

Deno.test("historyMarkdown() shows a failing verdict and marks a worse change within the newest runs", () => {
  const plan = planHistory();
  plan.changes = plan.changes.map((c) => ({ ...c, recent: true }));
  const report = {
    ...historyReport([plan]),
    settings: { maxPValue: 0.001, windowRuns: 50, minMagnitude: 0.05, failRecent: 25 },
    verdict: {
      status: "fail" as const,
      message: "p99 of stage steady rose 12% in the newest 25 runs",
    },
  };
  const md = historyMarkdown(report);
  assert.match(md, /^\*\*FAIL\*\*: p99 of stage steady rose 12% in the newest 25 runs$/m);
  assert.match(md, /a worse change within the newest 25 runs fails \(--fail-recent 25\)/);
  assert.match(md, /^\| p99 \| stage steady \| step \(worse\), recent \|/m);
});

Deno.test("historyMarkdown() prints a measured p as it is and a tiny trend's as < 0.0001", () => {
  const plan = planHistory();
  const [step] = plan.changes;
  plan.changes = [
    { ...step, pValue: 0.00042, pAtFloor: false, shuffles: 9999 },
    { ...step, kind: "trend", endIndex: STEP_AT + 10, pValue: 3e-12, pAtFloor: false },
  ];
  const rows = historyMarkdown(historyReport([plan])).split("\n").filter((l) =>
    l.startsWith("| p99 |")
  );
  assert.match(rows[0], /\| 0\.00042 \|/);
  assert.match(rows[1], /\| &lt; 0\.0001 \|/);
  assert.doesNotMatch(rows.join("\n"), /floor/);
});

Deno.test("historyMarkdown() gives an error rate's change in points, not as a ratio from zero", () => {
  const plan = planHistory();
  const [step] = plan.changes;
  plan.changes = [{
    ...step,
    series: 5,
    meanBefore: 0,
    meanAfter: 0.002,
    relativeChange: 999,
    interval95: [700, 1400],
    absoluteChange: 0.002,
    absoluteInterval95: [0.0012, 0.0028],
  }];
  const row = historyMarkdown(historyReport([plan])).split("\n").find((l) =>
    l.startsWith("| error rate |")
  );
  assert.match(
    row!,
    /\| rose 0\.2 points \(95% interval \+0\.12 to \+0\.28 points\) \| 0% → 0\.2% \|/,
  );
  assert.doesNotMatch(row!, /99900|\+70000%/);
});

Deno.test("historyMarkdown() calls a change whose interval includes no change neither worse nor better", () => {
  const plan = planHistory();
  plan.changes = [{
    ...plan.changes[0],
    direction: "unclear",
    worse: false,
    relativeChange: 0.002,
    interval95: [-0.038, 0.042],
    text: "p99 of stage steady changed by +0.2% (95% interval -3.8% to +4.2%, which includes " +
      "no change), from 5ms to 5.01ms near commit x",
  }];
  const md = historyMarkdown(historyReport([plan]));
  assert.match(md, /^- unclear: p99 of stage steady changed by \+0\.2% /m);
  const row = md.split("\n").find((l) => l.startsWith("| p99 |"))!;
  assert.match(
    row,
    /^\| p99 \| stage steady \| step \(unclear\) \| changed by \+0\.2% \(95% interval -3\.8% to \+4\.2%, which includes no change\) \|/,
  );
  const changes = md.slice(md.indexOf("## checkout"));
  assert.doesNotMatch(changes, /worse|rose/);
});

Deno.test("historyMarkdown() says which runs were looked at under --last and --since", () => {
  const report = historyReport();
  const md = historyMarkdown({
    ...report,
    settings: { ...report.settings, lastRuns: 20, sinceCommit: "9fceb02" },
  });
  assert.match(
    md,
    /^Runs looked at: the newest 20 \(--last\), from commit 9fceb02 on \(--since\)\. /m,
  );
  assert.doesNotMatch(historyMarkdown(report), /Runs looked at/);
});
