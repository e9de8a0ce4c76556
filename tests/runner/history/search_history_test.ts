import assert from "node:assert/strict";
import { problemText } from "../../../runner/model/result.ts";
import { join } from "node:path";
import {
  appendSearchHistory,
  loadSearchHistory,
  searchHistoryPath,
} from "../../../runner/history/search_history.ts";
import { HistoryError } from "../../../runner/history/history_store.ts";
import type { SearchResult } from "../../../runner/model/search_result.ts";
import { searchResult } from "../../_helpers/search_fixtures.ts";
import { makeFifo, settlesWithin } from "../../_helpers/special_files.ts";
import { valueOf } from "../../_helpers/result_value.ts";

function search(over: Partial<SearchResult> = {}): SearchResult {
  return searchResult({
    plan: { ...searchResult().plan, name: "Orders API" },
    conclusion: { status: "found", ratePerSec: 400, failPerSec: 420 },
    ...over,
  });
}

Deno.test("a search that found a rate is appended; one that found none is refused, the file unchanged", async () => {
  const dir = await Deno.makeTempDir();
  assert.equal(searchHistoryPath(dir, "Orders API"), join(dir, "orders-api.search.json"));
  assert.deepEqual(await loadSearchHistory(dir, "Orders API"), { ok: true, value: [] });
  await appendSearchHistory(dir, search());
  const second = valueOf(
    await appendSearchHistory(
      dir,
      search({ conclusion: { status: "at_least", ratePerSec: 1000 } }),
    ),
  );
  assert.deepEqual(second.entries.map((e) => [e.status, e.ratePerSec, e.failPerSec]), [
    ["found", 400, 420],
    ["at_least", 1000, undefined],
  ]);
  const before = await Deno.readTextFile(searchHistoryPath(dir, "Orders API"));
  const refused = await appendSearchHistory(
    dir,
    search({ conclusion: { status: "inconclusive", reason: "no rate held" } }),
  );
  assert.ok(!refused.ok && /no rate held/.test(refused.problems[0].message));
  assert.equal((await appendSearchHistory(dir, search({ complete: false }))).ok, false);
  assert.equal(await Deno.readTextFile(searchHistoryPath(dir, "Orders API")), before);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a damaged or foreign history is named with its fix and never overwritten", async () => {
  const dir = await Deno.makeTempDir();
  const path = searchHistoryPath(dir, "Orders API");
  await Deno.writeTextFile(path, "{ not json");
  const damaged = await loadSearchHistory(dir, "Orders API");
  assert.ok(
    !damaged.ok && problemText(damaged.problems[0]).includes(path) &&
      /not valid JSON.*move it away/.test(problemText(damaged.problems[0])),
  );
  await assert.rejects(
    appendSearchHistory(dir, search()),
    (e) => e instanceof HistoryError && e.kind === "invalid_file",
  );
  assert.equal(await Deno.readTextFile(path), "{ not json");
  await Deno.writeTextFile(
    path,
    JSON.stringify({ schema: "tailgate/search-history", version: 1, plan: "Other", entries: [] }),
  );
  const foreign = await loadSearchHistory(dir, "Orders API");
  assert.ok(!foreign.ok && /belongs to plan "Other"/.test(problemText(foreign.problems[0])));
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      schema: "tailgate/search-history",
      version: 1,
      plan: "Orders API",
      entries: [{ ratePerSec: -1 }],
    }),
  );
  const entry = await loadSearchHistory(dir, "Orders API");
  assert.ok(!entry.ok && /damaged entry \(number 1\)/.test(problemText(entry.problems[0])));
  // A failed write leaves the previous file.
  await Deno.remove(path);
  await appendSearchHistory(dir, search());
  const kept = await Deno.readTextFile(path);
  await assert.rejects(
    appendSearchHistory(dir, search(), () => Promise.reject(new Error("disk full"))),
    (e) => e instanceof HistoryError && e.kind === "write_failed",
  );
  assert.equal(await Deno.readTextFile(path), kept);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a search history that is a FIFO or a link to /dev/zero is refused at once, never read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = searchHistoryPath(dir, "Orders API");
    await makeFifo(path);
    const fifo = await settlesWithin(loadSearchHistory(dir, "Orders API"), 2_000, path);
    assert.ok(!fifo.ok && problemText(fifo.problems[0]).includes(path), JSON.stringify(fifo));
    assert.match(
      problemText(fifo.problems[0]),
      /is not a regular file \(a device, pipe or socket\)/,
    );
    await Deno.remove(path);
    await Deno.symlink("/dev/zero", path);
    const zero = await loadSearchHistory(dir, "Orders API");
    assert.ok(
      !zero.ok && /is not a regular file/.test(problemText(zero.problems[0])),
      JSON.stringify(zero),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
