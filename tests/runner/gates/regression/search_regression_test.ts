import assert from "node:assert/strict";
import type { Environment } from "../../../../runner/model/run_result.ts";
import {
  SEARCH_HISTORY_RUNS,
  type SearchHistoryEntry,
} from "../../../../runner/history/search_history.ts";
import { MAX_HISTORY_RUNS } from "../../../../runner/gates/stats/mod.ts";
import {
  judgeSearchRegression,
  searchRegressionLimit,
} from "../../../../runner/gates/regression/search_regression.ts";
import { sampleResult } from "../../../_helpers/result_fixtures.ts";

const environment: Environment = sampleResult().environment;
const entry = (ratePerSec: number, env: Partial<Environment> = {}): SearchHistoryEntry => ({
  date: "2026-11-20T10:00:00.000Z",
  status: "found",
  ratePerSec,
  failPerSec: ratePerSec * 1.05,
  environment: { ...environment, ...env },
});

Deno.test("the history's limit: 10% under its median, or its prediction bound when that is lower", () => {
  const two = searchRegressionLimit([entry(20_000), entry(22_000)], environment)!;
  assert.equal(two.medianPerSec, 21_000);
  assert.equal(two.limitPerSec, 18_900);
  assert.equal(two.predictionPerSec, undefined);
  // A noisy history widens the limit below the floor.
  const noisy = searchRegressionLimit(
    [10_000, 20_000, 14_000, 26_000, 18_000].map((r) => entry(r)),
    environment,
  )!;
  assert.ok(noisy.predictionPerSec! < 0.9 * noisy.medianPerSec, JSON.stringify(noisy));
  assert.equal(noisy.limitPerSec, noisy.predictionPerSec);
  // Other machines and searches that found no bracket do not count.
  const other = entry(90_000, { cores: environment.cores + 2 });
  const atLeast = { ...entry(90_000), status: "at_least" as const };
  assert.equal(searchRegressionLimit([other, atLeast], environment), undefined);
  assert.equal(searchRegressionLimit([other, entry(20_000)], environment)!.n, 1);
});

Deno.test("the found rate regresses when even its failing rate is under the limit", () => {
  const limit = { limitPerSec: 18_000, medianPerSec: 20_000, n: 4 };
  const fail = judgeSearchRegression(
    { status: "found", ratePerSec: 15_000, failPerSec: 16_000 },
    limit,
  );
  assert.equal(fail.status, "fail");
  assert.equal(fail.kind, "regression");
  assert.match(
    fail.message,
    /16k\/s already failed, so the sustainable rate is below the history median 20k\/s over 4 searches, lowest allowed 18k\/s/,
  );
  const ok = judgeSearchRegression(
    { status: "found", ratePerSec: 18_500, failPerSec: 19_000 },
    limit,
  );
  assert.equal(ok.status, "pass");
  const straddles = judgeSearchRegression({
    status: "found",
    ratePerSec: 17_000,
    failPerSec: 19_000,
  }, limit);
  assert.equal(straddles.status, "inconclusive");
  assert.equal(
    judgeSearchRegression({ status: "at_least", ratePerSec: 30_000 }, limit).status,
    "pass",
  );
  assert.equal(
    judgeSearchRegression({ status: "inconclusive", reason: "x" }, limit).status,
    "inconclusive",
  );
});

Deno.test("the search history keeps as many searches as the prediction bound reads", () => {
  assert.equal(SEARCH_HISTORY_RUNS, MAX_HISTORY_RUNS);
});
