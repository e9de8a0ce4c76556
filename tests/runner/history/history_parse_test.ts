import assert from "node:assert/strict";
import { parseHistory } from "../../../runner/history/history_parse.ts";
import { runnerFingerprint } from "../../../runner/history/fingerprints.ts";
import { HISTORY_FILE_VERSION, type HistoryFile } from "../../../runner/history/history_types.ts";
import { problemText } from "../../../runner/model/result.ts";
import { valueOf } from "../../_helpers/result_value.ts";

/** A version-1 file as tailgate wrote it before the long history: three runs of plan "shop". */
const V1_FILE = new URL("../../testdata/baseline_v1/shop.json", import.meta.url);

Deno.test("a version-1 file is migrated: its runs become the first history entries", async () => {
  const text = await Deno.readTextFile(V1_FILE);
  const v1 = JSON.parse(text) as HistoryFile;
  assert.equal(v1.version, 1);
  assert.equal("history" in v1, false);
  const read = valueOf(parseHistory(text, "shop"));
  assert.equal(read.version, HISTORY_FILE_VERSION);
  assert.deepEqual(read.runs, v1.runs, "the regression gate's runs are kept as they were");
  assert.equal(read.history.length, 3);
  for (const [i, entry] of read.history.entries()) {
    const run = v1.runs[i];
    assert.equal(entry.date, run.date);
    assert.equal(entry.commit, run.environment.gitSha);
    assert.equal(entry.runner, runnerFingerprint(run.environment));
    assert.match(entry.plan, /^[0-9a-f]{12}$/);
    assert.equal(entry.migrated, true);
    assert.deepEqual(
      entry.stages.map((s) => s.response.hdr),
      run.stages.map((s) => s.response.hdr),
    );
    assert.deepEqual(
      entry.stages.map((s) => s.labels.map((l) => l.responsePercentilesUs)),
      run.stages.map((s) => s.labels.map((l) => l.response.percentilesUs)),
    );
    assert.ok(entry.stages.every((s) => !("service" in s)), "no service histograms");
  }
  assert.deepEqual(read.history.map((e) => e.commit), [undefined, "2".repeat(40), "3".repeat(40)]);
  // Runs of the same stages share one plan fingerprint.
  assert.equal(new Set(read.history.map((e) => e.plan)).size, 1);
});

Deno.test("a version-2 file without its history, or with a damaged entry, is named", async () => {
  const v2 = valueOf(parseHistory(await Deno.readTextFile(V1_FILE), "shop"));
  const text = (doc: unknown) => JSON.stringify(doc);
  const refused = (doc: unknown) => {
    const read = parseHistory(text(doc), "shop");
    assert.ok(!read.ok, "a damaged history was accepted");
    return problemText(read.problems[0]);
  };
  assert.match(refused({ ...v2, history: undefined }), /`history` is not a list/);
  const noHistogram = structuredClone(v2);
  delete (noHistogram.history[1].stages[1] as Partial<typeof v2.history[0]["stages"][0]>).response;
  assert.match(
    refused(noHistogram),
    /history entry 2 of 3, 2025-01-02T00:00:00.000Z: stage 2: `response` is not a histogram\); move it away/,
  );
  const noRunner = structuredClone(v2);
  (noRunner.history[2] as { runner: unknown }).runner = 7;
  assert.match(refused(noRunner), /history entry 3 of 3, .*`runner` is not a string/);
  const badLabel = structuredClone(v2);
  (badLabel.history[0].stages[0].labels[1] as { label: unknown }).label = null;
  assert.match(refused(badLabel), /history entry 1 of 3, .*: stage 1: label 2 lacks its name/);
  assert.match(refused({ ...v2, history: [null] }), /history entry 1 of 1: it is not an object/);
  // Values no run stores: a negative count, a rate beyond any plan's, a percentile of NaN's kind.
  const negative = structuredClone(v2);
  negative.history[1].stages[0].counts.completed = -5;
  assert.match(
    refused(negative),
    /history entry 2 of 3, .*: stage 1: counts\.completed is -5: a count is a whole number/,
  );
  const fast = structuredClone(v2);
  fast.history[0].stages[1].fromPerSec = 1e308;
  assert.match(refused(fast), /stage 2: fromPerSec is 1e\+308: beyond the 100000000\/s a plan/);
  const label = structuredClone(v2);
  (label.history[2].stages[0].labels[0].responsePercentilesUs as Record<string, unknown>)["99"] =
    -1;
  assert.match(refused(label), /stage 1: label 1: responsePercentilesUs\.99 is -1/);
  // The window's runs too: the regression gate would judge against them.
  const window = structuredClone(v2);
  window.runs[0].stages[0].counts.completed = -5;
  assert.match(refused(window), /is damaged \(run 1, stage 1: counts\.completed is -5: a count/);
  // The whole, undamaged document reads back as written.
  assert.deepEqual(valueOf(parseHistory(text(v2), "shop")), v2);
});
