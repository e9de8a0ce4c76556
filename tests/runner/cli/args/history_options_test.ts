import assert from "node:assert/strict";
import { readHistoryOptions, readMinChange } from "../../../../runner/cli/args/history_options.ts";
import { problemText } from "../../../../runner/model/result.ts";

Deno.test("--min-change reads a bare number as percent: 1 is 1%, as 1% is", () => {
  for (
    const [text, fraction] of [["1", 0.01], ["1%", 0.01], ["5", 0.05], ["2.5%", 0.025]] as const
  ) {
    assert.deepEqual(readMinChange(text), { ok: true, value: { fraction } }, text);
  }
  assert.deepEqual(readMinChange("0"), { ok: true, value: { fraction: 0 } });
  assert.deepEqual(readMinChange("150%"), { ok: true, value: { fraction: 1.5 } });
});

Deno.test("--min-change below 1 without % is still percent, and a note says how to write 5%", () => {
  const read = readMinChange("0.05");
  assert.ok(read.ok);
  assert.equal(read.value.fraction, 0.0005);
  assert.equal(
    read.value.note,
    "--min-change 0.05 is read as 0.05% (a bare number is percent): for 5% write 5%",
  );
  assert.deepEqual(readMinChange("0.5%"), { ok: true, value: { fraction: 0.005 } });
});

Deno.test("--min-change refuses a negative, a word, an empty value and 1000% or more", () => {
  for (const bad of ["-1", "-1%", "NaN", "five", "", "%", "1000", "1000%", "5 %%", "1e1"]) {
    const read = readMinChange(bad);
    assert.ok(!read.ok, bad);
    assert.equal(
      problemText(read.problems[0]),
      `--min-change \`${bad}\` is not a percentage from 0% to below 1000%; give e.g. 5% or 5 ` +
        "(a bare number is read as percent)",
    );
  }
});

Deno.test("readHistoryOptions reads every flag and names every problem", () => {
  assert.deepEqual(
    readHistoryOptions({
      "fail-recent": "5",
      window: "30",
      last: "40",
      since: "9FCEB02",
      "p-value": "0.01",
      "min-change": "0.5",
    }),
    {
      ok: true,
      value: {
        settings: {
          failRecent: 5,
          windowRuns: 30,
          lastRuns: 40,
          sinceCommit: "9FCEB02",
          maxPValue: 0.01,
          minMagnitude: 0.005,
        },
        notes: ["--min-change 0.5 is read as 0.5% (a bare number is percent): for 50% write 50%"],
      },
    },
  );
  const bad = readHistoryOptions({ last: "5", "min-change": "-3", since: "" });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.problems.map(problemText), [
    "--last `5` is not a whole number of runs, at least 6",
    "--since `` is not a commit, e.g. --since 9fceb02",
    "--min-change `-3` is not a percentage from 0% to below 1000%; give e.g. 5% or 5 (a bare " +
    "number is read as percent)",
  ]);
});

Deno.test("--window is bounded: a first pass over more than 2,000 runs is refused, saying the range", () => {
  const at = readHistoryOptions({ window: "2000" });
  assert.ok(at.ok);
  assert.equal(at.value.settings.windowRuns, 2000);
  const over = readHistoryOptions({ window: "1000000" });
  assert.ok(!over.ok);
  assert.match(over.problems[0].message, /--window `1000000` .* from 4 to 2,000/);
});
