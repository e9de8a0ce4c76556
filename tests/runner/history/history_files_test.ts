import assert from "node:assert/strict";
import { join } from "node:path";
import {
  appendToHistory,
  historyPath,
  loadHistories,
  loadHistory,
} from "../../../runner/history/mod.ts";
import { problemText } from "../../../runner/model/result.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";
import { valueOf } from "../../_helpers/result_value.ts";

/** A fresh temporary folder, removed when the test is done. */
async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "tailgate-histories-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** The sample result under another plan name, started on 2025-01-0`day`. */
function resultOf(plan: string, day: number) {
  const result = sampleResult({ startedAt: new Date(`2025-01-0${day}T00:00:00.000Z`) });
  result.plan.name = plan;
  return result;
}

Deno.test("loadHistory() gives the plan's history with its file, or nothing yet", async () => {
  await using dir = await tempDir();
  assert.deepEqual(await loadHistory(dir.path, "shop"), { ok: true, value: undefined });
  await appendToHistory(dir.path, resultOf("shop", 1));
  const read = valueOf(await loadHistory(dir.path, "shop"))!;
  assert.equal(read.path, historyPath(dir.path, "shop"));
  assert.equal(read.file.history.length, 1);
  await Deno.writeTextFile(read.path, "{");
  const damaged = await loadHistory(dir.path, "shop");
  assert.ok(!damaged.ok && problemText(damaged.problems[0]).includes(read.path));
});

Deno.test("loadHistories() reads every plan's history in a folder, not kept or search ones", async () => {
  await using dir = await tempDir();
  await appendToHistory(dir.path, resultOf("shop", 1));
  await appendToHistory(dir.path, resultOf("shop", 2));
  await appendToHistory(dir.path, resultOf("Admin API", 1));
  // The search history has a schema of its own: never read as a baseline.
  await Deno.writeTextFile(
    join(dir.path, "shop.search.json"),
    '{"schema":"tailgate/search-history"}',
  );
  const v1 = new URL("../../testdata/baseline_v1/shop.json", import.meta.url);
  await Deno.copyFile(v1, join(dir.path, "shop.superseded-20250101T000000Z.json"));
  const histories = valueOf(await loadHistories(dir.path));
  assert.deepEqual(histories.map((h) => [h.path, h.file.plan, h.file.history.length]), [
    [join(dir.path, "admin-api.json"), "Admin API", 1],
    [join(dir.path, "shop.json"), "shop", 2],
  ]);
});

Deno.test("loadHistories() names every file it cannot use, and a missing folder", async () => {
  await using dir = await tempDir();
  await appendToHistory(dir.path, resultOf("shop", 1));
  await Deno.writeTextFile(join(dir.path, "broken.json"), "{");
  await Deno.writeTextFile(join(dir.path, "other.json"), '{"schema":"tailgate/result"}');
  const read = await loadHistories(dir.path);
  assert.ok(!read.ok);
  const text = read.problems.map(problemText);
  assert.equal(text.length, 2);
  assert.match(text[0], /broken\.json is not valid JSON/);
  assert.match(text[1], /other\.json is not a tailgate baseline/);
  const missing = await loadHistories(join(dir.path, "nope"));
  assert.ok(
    !missing.ok && /cannot read the baseline folder .*nope/.test(problemText(missing.problems[0])),
  );
});
