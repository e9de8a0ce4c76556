import assert from "node:assert/strict";
import { MAX_HISTORY_RUNS, readHistoryArgs } from "../../../../runner/cli/args/history_args.ts";
import { readResultArgs } from "../../../../runner/cli/args/result_args.ts";
import { parseRunArgs } from "../../../../runner/cli/run_args.ts";
import { problemText } from "../../../../runner/model/result.ts";
import { DEFAULT_HISTORY_RUNS } from "../../../../runner/history/mod.ts";

Deno.test("--commit takes 7 to 40 hex digits, lowercased, and refuses a name", () => {
  assert.deepEqual(readHistoryArgs({ commit: "ABCDEF1" }), {
    ok: true,
    value: { commit: "abcdef1", historyRuns: DEFAULT_HISTORY_RUNS },
  });
  for (const bad of ["main", "abc12", "HEAD~1", "g".repeat(40), "a".repeat(41)]) {
    const read = readHistoryArgs({ commit: bad });
    assert.ok(!read.ok, bad);
    assert.match(
      problemText(read.problems[0]),
      /^--commit: `.*` is not a commit SHA; give 7 to 40/,
    );
  }
});

Deno.test("--history-runs takes a whole number from 10 to the most a file holds", () => {
  for (const good of ["10", "500", String(MAX_HISTORY_RUNS)]) {
    const read = readHistoryArgs({ "history-runs": good });
    assert.ok(read.ok && read.value.historyRuns === Number(good), good);
  }
  for (const bad of ["9", "0", "-20", "12.5", "1e3", "", "many", String(MAX_HISTORY_RUNS + 1)]) {
    const read = readHistoryArgs({ "history-runs": bad });
    assert.ok(!read.ok, bad);
    assert.match(read.problems[0].message, /--history-runs `.*` is not a number of runs from 10/);
    assert.match(read.problems[0].hint ?? "", /newest 10 runs is always kept/);
  }
});

Deno.test("every mistake among the three flags is reported at once", () => {
  const read = readHistoryArgs({ commit: "x", branch: "a b", "history-runs": "3" });
  assert.ok(!read.ok);
  assert.equal(read.problems.length, 3);
});

Deno.test("tailgate run and merge read the flags into their options, or refuse them", () => {
  const run = parseRunArgs(["plan.yaml", "--commit", "C0FFEE1", "--branch", "main"]);
  assert.ok(run.ok);
  assert.equal(run.value.commit, "c0ffee1");
  assert.equal(run.value.branch, "main");
  assert.equal(run.value.historyRuns, DEFAULT_HISTORY_RUNS);
  const refused = parseRunArgs(["plan.yaml", "--commit", "main", "--history-runs", "5"]);
  assert.ok(!refused.ok);
  const text = refused.problems.map(problemText).join("\n");
  assert.match(text, /--commit: `main` is not a commit SHA/);
  assert.match(text, /--history-runs `5`/);
  const merge = readResultArgs({ "history-runs": "50" });
  assert.ok(merge.ok && merge.value.historyRuns === 50);
});
