import assert from "node:assert/strict";
import { problemText } from "../../../../runner/model/result.ts";
import { readRunInputs } from "../../../../ci/action/action_inputs.ts";

Deno.test("history: auto runs the history after an update only, with 10 newest runs, report only", () => {
  const updating = readRunInputs({ TAILGATE_UPDATE_BASELINE: "true" });
  assert.ok(updating.ok);
  assert.deepEqual(updating.value.history, { recentRuns: 10, failOnWorse: false });
  const reading = readRunInputs({ TAILGATE_UPDATE_BASELINE: "false" });
  assert.ok(reading.ok);
  assert.equal(reading.value.history, undefined);
});

Deno.test("history: true runs it on a read-only job; history-recent and history-fail are passed", () => {
  const r = readRunInputs({
    TAILGATE_HISTORY: "true",
    TAILGATE_HISTORY_RECENT: "25",
    TAILGATE_HISTORY_FAIL: "true",
  });
  assert.ok(r.ok);
  assert.deepEqual(r.value.history, { recentRuns: 25, failOnWorse: true });
  const off = readRunInputs({ TAILGATE_HISTORY: "false", TAILGATE_UPDATE_BASELINE: "true" });
  assert.ok(off.ok);
  assert.equal(off.value.history, undefined);
});

Deno.test("the history inputs are refused with what is wrong: values, no baseline, the A/B mode", () => {
  const bad = readRunInputs({
    TAILGATE_HISTORY: "yes",
    TAILGATE_HISTORY_RECENT: "0",
    TAILGATE_HISTORY_FAIL: "always",
  });
  assert.equal(bad.ok, false);
  if (!bad.ok) {
    assert.deepEqual(bad.problems.map(problemText), [
      "history: `yes` is not auto, true or false",
      "history-recent: `0` is not a whole number of runs from 1 to 500",
      "history-fail: `always` is not true or false",
    ]);
  }
  for (const recent of ["2.5", "501", "-1", "ten", ""]) {
    const r = readRunInputs({ TAILGATE_HISTORY_RECENT: recent });
    assert.equal(r.ok, false, recent);
  }
  const none = readRunInputs({ TAILGATE_HISTORY: "true", TAILGATE_BASELINE: "none" });
  assert.equal(none.ok, false);
  if (!none.ok) assert.match(problemText(none.problems[0]), /^history: true needs a baseline/);
  const ab = readRunInputs({
    TAILGATE_HISTORY: "true",
    TAILGATE_AB_BASE: "http://127.0.0.1:8081",
    TAILGATE_AB_HEAD: "http://127.0.0.1:8082",
  });
  assert.equal(ab.ok, false);
  if (!ab.ok) {
    assert.deepEqual(ab.problems.map(problemText), [
      "history: true and the A/B mode exclude each other: an A/B run keeps no history",
    ]);
  }
});

Deno.test("history: auto stays off in the A/B mode and on a shard, whatever the update says", () => {
  const ab = readRunInputs({
    TAILGATE_UPDATE_BASELINE: "true",
    TAILGATE_AB_BASE: "http://127.0.0.1:8081",
    TAILGATE_AB_HEAD: "http://127.0.0.1:8082",
  });
  assert.ok(ab.ok);
  assert.equal(ab.value.history, undefined);
  const shard = readRunInputs({ TAILGATE_UPDATE_BASELINE: "true", TAILGATE_SHARD: "0/2" });
  assert.ok(shard.ok);
  assert.equal(shard.value.history, undefined);
});
