import assert from "node:assert/strict";
import { selectRuns } from "../../../../runner/gates/history/mod.ts";
import { problemText } from "../../../../runner/model/result.ts";
import { commitOf, entryAt, stageAt } from "../../../_helpers/history_fixtures.ts";

const entries = Array.from({ length: 30 }, (_, i) => entryAt(i, [stageAt(2000)]));
const short = (i: number) => commitOf(i).slice(0, 7);

Deno.test("selectRuns keeps every run, and says nothing, unless asked", () => {
  assert.deepEqual(selectRuns(entries, "shop", {}), { ok: true, value: { entries } });
  // --last beyond the history keeps it all: nothing was left out to say.
  assert.deepEqual(selectRuns(entries, "shop", { lastRuns: 40 }), { ok: true, value: { entries } });
});

Deno.test("--last N keeps the newest N runs", () => {
  const read = selectRuns(entries, "shop", { lastRuns: 10 });
  assert.ok(read.ok);
  assert.deepEqual(read.value.entries, entries.slice(20));
  assert.equal(read.value.note, "the newest 10 of 30 stored runs (--last 10)");
});

Deno.test("--since keeps the runs from the first of the commit a prefix names, in any case", () => {
  const twice = [...entries.slice(0, 13), { ...entries[12], date: "2026-01-13T12:00:00Z" }];
  const read = selectRuns([...twice, ...entries.slice(13)], "shop", {
    sinceCommit: commitOf(12).slice(0, 9).toUpperCase(),
  });
  assert.ok(read.ok, JSON.stringify(read));
  assert.equal(read.value.entries.length, 19, "run 12, its rerun, and 13 to 29");
  assert.equal(read.value.entries[0], twice[12]);
  assert.equal(
    read.value.note,
    `19 of 31 stored runs: from commit ${short(12)} on (--since ${
      commitOf(12).slice(0, 9).toUpperCase()
    })`,
  );
  const both = selectRuns(entries, "shop", { sinceCommit: commitOf(12), lastRuns: 6 });
  assert.ok(both.ok);
  assert.deepEqual(both.value.entries, entries.slice(24));
  assert.equal(
    both.value.note,
    `6 of 30 stored runs: the newest from commit ${short(12)} on (--since ${
      commitOf(12)
    } --last 6)`,
  );
});

Deno.test("--since a commit the history does not hold names the commits it does, briefly", () => {
  const read = selectRuns(entries, "shop", { sinceCommit: "deadbeef" });
  assert.ok(!read.ok);
  assert.equal(
    problemText(read.problems[0]),
    `--since \`deadbeef\`: no stored run of "shop" measured a commit starting so; its 30 runs ` +
      `measured 30 commits, from ${short(0)} to ${short(29)}; give one of them (the newest: ` +
      `${[29, 28, 27, 26, 25].map(short).join(", ")}), or --last N`,
  );
  const none = selectRuns(entries.map(({ commit: _, ...e }) => e), "shop", { sinceCommit: "ab" });
  assert.ok(!none.ok);
  assert.match(problemText(none.problems[0]), /has a commit; name the runs by count instead/);
});

Deno.test("--since a prefix of several commits asks for more of it", () => {
  const alike = entries.map((e, i) => ({
    ...e,
    commit: `abc${String(i).padStart(2, "0")}`.padEnd(40, "0"),
  }));
  const read = selectRuns(alike, "shop", { sinceCommit: "abc" });
  assert.ok(!read.ok);
  assert.match(
    problemText(read.problems[0]),
    /^--since `abc` matches 30 commits of "shop": abc0000, abc0100, abc0200, abc0300, abc0400, …; give more of the commit$/,
  );
});
