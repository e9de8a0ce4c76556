import assert from "node:assert/strict";
import {
  changeLine,
  commitLinks,
  MAX_LISTED_CHANGES,
  renderHistorySummary,
} from "../../../../ci/action/history/history_summary.ts";
import type { HistoryOutcome } from "../../../../ci/action/history/history_runs.ts";
import { commitOf, historyReport, planHistory } from "./_history_doc.ts";

const GITHUB = { GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "acme/shop" };

function outcome(report = historyReport([shop()], 10)): HistoryOutcome {
  return { planFile: "plans/shop.yaml", dir: "tailgate-out/history/shop", exitCode: 1, report };
}

/** 40 runs of shop: p99 up 20% at run 12 (old), up 10% at run 35 (new, within the newest 10). */
function shop() {
  return planHistory("shop", {
    runs: 40,
    startUs: 10_000,
    steps: [{ index: 12, levelUs: 12_000 }, { index: 35, levelUs: 13_200 }],
    recentRuns: 10,
  });
}

Deno.test("the summary lists only the new change, its sentence with the commit and compare links in 7 characters", () => {
  const text = renderHistorySummary([outcome()], [], 10, commitLinks(GITHUB));
  const [c35, c34] = [commitOf(35), commitOf(34)];
  assert.equal(
    text,
    [
      "## tailgate history",
      "",
      "### shop (plans/shop.yaml)",
      "",
      `- **worse**: p99 of stage main rose 10% (95% interval 8% to 12%) near commit ${
        c35.slice(0, 7)
      }, between ${c34.slice(0, 7)} and ${c35.slice(0, 7)} (commit [${
        c35.slice(0, 7)
      }](https://github.com/acme/shop/commit/${c35}), compare [${c34.slice(0, 7)}...${
        c35.slice(0, 7)
      }](https://github.com/acme/shop/compare/${c34}...${c35}))`,
      "",
      "40 runs in the history, 1 earlier change: the page is tailgate-out/history/shop/history.html " +
      "in the reports artifact.",
      "",
    ].join("\n"),
  );
  assert.doesNotMatch(text, new RegExp(commitOf(12).slice(0, 7)), "the old change is not new");
});

Deno.test("a history without a new change says so, with the newest runs counted", () => {
  const quiet = planHistory("shop", {
    runs: 40,
    startUs: 10_000,
    steps: [{ index: 12, levelUs: 12_000 }],
    recentRuns: 5,
  });
  const text = renderHistorySummary([outcome(historyReport([quiet], 5))], [], 5, undefined);
  assert.match(
    text,
    /### shop \(plans\/shop\.yaml\)\n\nNo new change point in the newest 5 runs\.\n/,
  );
  assert.match(text, /40 runs in the history, 1 earlier change: /);
});

Deno.test("a change for the better is marked so; without a forge's variables commits are plain text", () => {
  const line = changeLine({
    worse: false,
    text: "p99 fell 9%",
    commit: commitOf(7),
    previousCommit: commitOf(6),
  }, commitLinks({}));
  assert.equal(
    line,
    `- **better**: p99 fell 9% (commit ${commitOf(7).slice(0, 7)}, between ${
      commitOf(6).slice(0, 7)
    }...${commitOf(7).slice(0, 7)})`,
  );
});

Deno.test("GitLab's project URL gives its commit and compare links", () => {
  const links = commitLinks({ CI_PROJECT_URL: "https://gitlab.example.com/acme/shop" })!;
  assert.equal(links.commit("abc1234"), "https://gitlab.example.com/acme/shop/-/commit/abc1234");
  assert.equal(
    links.compare("abc1234", "def5678"),
    "https://gitlab.example.com/acme/shop/-/compare/abc1234...def5678",
  );
});

Deno.test("a commit that is no commit id (--commit v1.2 [x](y)) is never a link, and plan text stays text", () => {
  const line = changeLine({
    worse: true,
    text: "p99 of stage <img src=x> rose 12% @team #12",
    commit: "v1.2 [x](https://evil.example)",
    previousCommit: commitOf(3),
  }, commitLinks(GITHUB));
  assert.doesNotMatch(line, /<img|\]\(https:\/\/evil/);
  assert.doesNotMatch(line, /https:\/\/github\.com/, "neither commit is linked alone");
  assert.match(line, /&lt;img src=x&gt;/);
  assert.match(line, /@\u200bteam/);
});

Deno.test("the summary lists at most MAX_LISTED_CHANGES changes per plan and points at the rest", () => {
  const steps = Array.from({ length: MAX_LISTED_CHANGES + 3 }, (_, i) => ({
    index: 20 + i,
    levelUs: 10_000 * 1.1 ** (i + 1),
  }));
  const many = planHistory("shop", { runs: 50, startUs: 10_000, steps, recentRuns: 30 });
  const text = renderHistorySummary([outcome(historyReport([many], 30))], [], 30, undefined);
  assert.equal(text.match(/^- \*\*worse\*\*/gm)?.length, MAX_LISTED_CHANGES);
  assert.match(text, /^- … and 3 more: history\.md in the artifact$/m);
});

Deno.test("a history that did not finish says why; a lost one leads the section with a warning", () => {
  const text = renderHistorySummary(
    [{
      planFile: "plans/cart.yaml",
      dir: "tailgate-out/history/cart",
      exitCode: 5,
      problem: "tailgate history ended with exit 5; see the job log",
    }],
    [{ file: "cart.json", plan: "cart", lost: true }],
    10,
    undefined,
  );
  assert.equal(
    text,
    [
      "## tailgate history",
      "",
      "⚠️ No stored history for cart was restored (the cache expired or was evicted, or none was " +
      "saved yet): the history starts again here.",
      "",
      "### plans/cart.yaml",
      "",
      "tailgate history ended with exit 5; see the job log.",
      "",
    ].join("\n"),
  );
  assert.equal(renderHistorySummary([], [], 10, undefined), "");
});

Deno.test("a change that coincides with a runner or plan change says so beside its sentence", () => {
  const line = changeLine({
    worse: true,
    text: "p99 rose 30%",
    commit: commitOf(9),
    coincides: ["the runner changed (cpu: A vs B)", "the plan changed"],
  }, undefined);
  assert.equal(
    line,
    "- **worse**: p99 rose 30%; at the same run the runner changed (cpu: A vs B); the plan changed " +
      `(commit ${commitOf(9).slice(0, 7)})`,
  );
});
