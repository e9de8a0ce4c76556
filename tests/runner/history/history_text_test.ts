import assert from "node:assert/strict";
import { fitHistory, historyText } from "../../../runner/history/history_text.ts";
import { parseHistory } from "../../../runner/history/history_parse.ts";
import { valueOf } from "../../_helpers/result_value.ts";

/** The version-1 file of the migration test, read as version 2 (three runs, three entries). */
async function stored() {
  const text = await Deno.readTextFile(
    new URL("../../testdata/baseline_v1/shop.json", import.meta.url),
  );
  return valueOf(parseHistory(text, "shop"));
}

const bytes = (s: string) => new TextEncoder().encode(s).length;

Deno.test("the file holds one run or history entry a line, and reads back as written", async () => {
  const baseline = await stored();
  const text = historyText(baseline);
  assert.deepEqual(valueOf(parseHistory(text, "shop")), baseline);
  const lines = text.split("\n");
  for (const entry of [...baseline.runs, ...baseline.history]) {
    assert.equal(lines.filter((l) => l.includes(JSON.stringify(entry))).length, 1);
  }
  assert.ok(bytes(text) < bytes(JSON.stringify(baseline, null, 1)));
});

Deno.test("fitHistory() drops the oldest entries until the text fits, no more", async () => {
  const baseline = await stored();
  const full = bytes(historyText(baseline));
  const last = bytes(JSON.stringify(baseline.history[2]));
  for (const max of [full, full - 1, full - last, full - 10 * last]) {
    const { file: fitted, dropped } = fitHistory(baseline, max);
    assert.deepEqual(fitted.history, baseline.history.slice(dropped));
    assert.deepEqual(fitted.runs, baseline.runs);
    const size = bytes(historyText(fitted));
    if (dropped < 2) assert.ok(size <= max, `${size} > ${max}`);
    if (dropped > 0) {
      const oneFewer = { ...baseline, history: baseline.history.slice(dropped - 1) };
      assert.ok(bytes(historyText(oneFewer)) > max, "dropped one more entry than needed");
    }
  }
  assert.equal(fitHistory(baseline, full).dropped, 0);
  assert.equal(fitHistory(baseline, 0).dropped, 2, "the newest entry is always kept");
});
