import assert from "node:assert/strict";
import { decodeRuns, historyDamage, runsDamage } from "../../../runner/history/history_damage.ts";
import { decodeHistogram } from "../../../runner/hdr/mod.ts";
import { parseHistory } from "../../../runner/history/history_parse.ts";
import { valueOf } from "../../_helpers/result_value.ts";
import { storedRunFrom } from "../../../runner/history/history_store.ts";
import { gateResult, scaledUs } from "../../_helpers/gate_fixtures.ts";

function history() {
  const result = gateResult([{
    name: "main",
    ratePerSec: 100,
    durationMs: 10_000,
    labels: [
      { label: "GET /a", response: scaledUs(500, 1) },
      { label: "GET /b", response: scaledUs(500, 2) },
    ],
  }]);
  return { runs: [storedRunFrom(result), storedRunFrom(result)] };
}

Deno.test("runsDamage() is undefined for a sound history and names the first damaged histogram", () => {
  const baseline = history();
  assert.equal(runsDamage(baseline as never), undefined);
  baseline.runs[1].stages[0].labels[1].response.hdr = "not base64 at all!";
  const damage = runsDamage(baseline as never)!;
  assert.equal(damage.run, 2);
  assert.equal(damage.where, 'stage "main" label "GET /b", response time');
  assert.ok(damage.error.length > 0);
});

Deno.test("historyDamage() names the long history's first stage histogram that does not decode", async () => {
  const text = await Deno.readTextFile(
    new URL("../../testdata/baseline_v1/shop.json", import.meta.url),
  );
  const baseline = valueOf(parseHistory(text, "shop"));
  assert.equal(historyDamage(baseline), undefined);
  // One character changed, as a bad merge or a hand might.
  const hdr = baseline.history[2].stages[1].response.hdr;
  baseline.history[2].stages[1].response.hdr = hdr.slice(0, 20) + "!" + hdr.slice(21);
  const damage = historyDamage(baseline)!;
  assert.deepEqual([damage.run, damage.date, damage.where], [
    3,
    "2025-01-03T00:00:00.000Z",
    'stage "main", response time',
  ]);
});

Deno.test("decodeRuns() decodes each stored histogram once and hands the same one to every reader", () => {
  const baseline = history();
  const decoded = decodeRuns(baseline as never);
  assert.ok(decoded.ok);
  const stage = baseline.runs[0].stages[0];
  const first = decoded.value.histogram(stage.labels[1].response);
  assert.equal(decoded.value.histogram(stage.labels[1].response), first);
  assert.equal(first.totalCount, decodeHistogram(stage.labels[1].response.hdr).totalCount);
  assert.notEqual(decoded.value.histogram(stage.labels[0].response), first);
  assert.ok(decoded.value.histogram(stage.service).totalCount >= 0);
  // A histogram that is not one of the history's runs' is a bug, not a silent decode.
  assert.throws(() => decoded.value.histogram({ ...stage.response }), RangeError);
  baseline.runs[1].stages[0].labels[1].response.hdr = "not base64 at all!";
  const damaged = decodeRuns(baseline as never);
  assert.ok(!damaged.ok);
  assert.deepEqual(damaged.problems[0].damage, runsDamage(baseline as never));
});
