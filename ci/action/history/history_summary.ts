/**
 * The job summary's history section: for each plan, the change points among its newest runs, each
 * in tailgate's words with links to its commit and to the compare view of the commits on either
 * side; "no new change point" when there is none; and the histories that started again because
 * none was restored. Plan text (names, stage names in the sentences) is written by `markdownText`.
 *
 * @module
 */
import { type HistoryChange, type PlanHistory, shortCommit } from "../../../runner/model/mod.ts";
import { markdownText, markdownUrl } from "../../../reporters/mod.ts";
import type { HistoryOutcome } from "./history_runs.ts";
import { type StartedHistory, startedHistoryMessage } from "./started_histories.ts";

/** Links to a commit and to the comparison of two, on the forge the job runs on. */
export interface CommitLinks {
  /** The page of one commit. */
  commit(sha: string): string;
  /** The comparison of `before` with `after` (`before...after`). */
  compare(before: string, after: string): string;
}

/** The most changes listed per plan; the rest are in the artifact's history.md. */
export const MAX_LISTED_CHANGES = 20;

/**
 * The links of the repository the job runs in: GitHub's (`GITHUB_SERVER_URL`,
 * `GITHUB_REPOSITORY`) or GitLab's (`CI_PROJECT_URL`); undefined elsewhere.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commitLinks } from "./history_summary.ts";
 * const links = commitLinks({ GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "o/r" });
 * assert.equal(links?.compare("a1", "b2"), "https://github.com/o/r/compare/a1...b2");
 * ```
 */
export function commitLinks(env: Record<string, string | undefined>): CommitLinks | undefined {
  const base = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY
    ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}`
    : env.CI_PROJECT_URL
    ? `${env.CI_PROJECT_URL}/-`
    : undefined;
  if (base === undefined) return undefined;
  return {
    commit: (sha) => `${base}/commit/${sha}`,
    compare: (before, after) => `${base}/compare/${before}...${after}`,
  };
}

/** A commit id a link may carry: hexadecimal, 7 to 64 digits (SHA-1 or SHA-256). */
const COMMIT_ID = /^[0-9a-f]{7,64}$/i;

/** A commit as 7 characters, linked when it is a commit id and the links are known. */
function commitText(sha: string, links: CommitLinks | undefined): string {
  const short = markdownText(shortCommit(sha));
  return links && COMMIT_ID.test(sha) ? `[${short}](${markdownUrl(links.commit(sha))})` : short;
}

/**
 * One change as a list item: worse, better or unclear (its 95% interval includes no change: it
 * fails nothing), tailgate's sentence, what else changed at that run,
 * then its commit linked and, when the commit before it is known too, the compare view of the two.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changeLine, commitLinks } from "./history_summary.ts";
 * const links = commitLinks({ GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "o/r" });
 * const line = changeLine({ worse: true, text: "p99 rose 12%", commit: "abcdef0123" }, links);
 * assert.equal(line, "- **worse**: p99 rose 12% (commit [abcdef0](https://github.com/o/r/commit/abcdef0123))");
 * ```
 */
export function changeLine(
  change:
    & Pick<HistoryChange, "worse" | "text" | "commit" | "previousCommit">
    & Partial<Pick<HistoryChange, "coincides" | "direction">>,
  links: CommitLinks | undefined,
): string {
  const refs: string[] = [];
  if (change.commit) refs.push(`commit ${commitText(change.commit, links)}`);
  const { commit, previousCommit } = change;
  if (commit && previousCommit) {
    const span = `${markdownText(previousCommit.slice(0, 7))}...${
      markdownText(commit.slice(0, 7))
    }`;
    refs.push(
      links && COMMIT_ID.test(commit) && COMMIT_ID.test(previousCommit)
        ? `compare [${span}](${markdownUrl(links.compare(previousCommit, commit))})`
        : `between ${span}`,
    );
  }
  // What else changed at that run (the runner, the plan) may explain it: said beside it.
  const also = change.coincides?.length
    ? `; at the same run ${markdownText(change.coincides.join("; "))}`
    : "";
  // A document of version 1 has no direction: its `worse` was the estimate's sign.
  const direction = change.direction ?? (change.worse ? "worse" : "better");
  return `- **${direction}**: ${markdownText(change.text)}${also}` +
    (refs.length ? ` (${refs.join(", ")})` : "");
}

/**
 * The history section of the job summary, or "" when the job ran no history and started none.
 */
export function renderHistorySummary(
  outcomes: readonly HistoryOutcome[],
  started: readonly StartedHistory[],
  recentRuns: number | undefined,
  links: CommitLinks | undefined,
): string {
  if (outcomes.length === 0 && started.length === 0) return "";
  const lines = ["## tailgate history", ""];
  for (const s of started) {
    const message = startedHistoryMessage(s);
    lines.push(
      `${s.lost ? "⚠️ " : ""}${markdownText(message[0].toUpperCase() + message.slice(1))}.`,
      "",
    );
  }
  for (const o of outcomes) {
    if (o.report === undefined) {
      lines.push(`### ${markdownText(o.planFile)}`, "", `${markdownText(o.problem ?? "")}.`, "");
      continue;
    }
    for (const plan of o.report.plans) lines.push(...planLines(plan, o, recentRuns, links), "");
  }
  return lines.join("\n");
}

function planLines(
  plan: PlanHistory,
  outcome: HistoryOutcome,
  recentRuns: number | undefined,
  links: CommitLinks | undefined,
): string[] {
  const recent = plan.changes.filter((c) => c.recent);
  const newest = recentRuns === undefined ? "newest runs" : `newest ${recentRuns} runs`;
  const lines = [`### ${markdownText(plan.plan)} (${markdownText(outcome.planFile)})`, ""];
  if (recent.length === 0) lines.push(`No new change point in the ${newest}.`);
  for (const c of recent.slice(0, MAX_LISTED_CHANGES)) lines.push(changeLine(c, links));
  if (recent.length > MAX_LISTED_CHANGES) {
    lines.push(`- … and ${recent.length - MAX_LISTED_CHANGES} more: history.md in the artifact`);
  }
  const older = plan.changes.length - recent.length;
  lines.push(
    "",
    `${plan.runs.length} run${plan.runs.length === 1 ? "" : "s"} in the history` +
      (older > 0 ? `, ${older} earlier change${older === 1 ? "" : "s"}` : "") +
      `: the page is ${markdownText(outcome.dir)}/history.html in the reports artifact.`,
  );
  for (const note of plan.notes) lines.push("", `_${markdownText(note)}_`);
  return lines;
}
