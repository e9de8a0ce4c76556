import assert from "node:assert/strict";
import {
  renderSearchMarkdown,
  renderSearchTerminal,
  searchHeadline,
} from "../../reporters/search_report.ts";
import type { SearchResult, SearchStep } from "../../runner/model/search_result.ts";
import { SEARCH_SCHEMA, SEARCH_VERSION } from "../../runner/model/search_result.ts";
import { sampleResult } from "../_helpers/result_fixtures.ts";

function step(ratePerSec: number, outcome: SearchStep["outcome"], soak = false): SearchStep {
  return {
    ratePerSec,
    durationMs: 10_000,
    soak,
    outcome,
    summary: "",
    failedSlos: outcome === "fail" ? ["p99 < 10ms"] : [],
    completed: ratePerSec * 10,
    answeredPerSec: Math.min(ratePerSec, 1_500),
    responseUs: { p50: 1_000, p99: outcome === "fail" ? 25_000 : 4_000, p999: 6_000, max: 9_000 },
  };
}

function searchResult(over: Partial<SearchResult>): SearchResult {
  const run = sampleResult();
  return {
    schema: SEARCH_SCHEMA,
    version: SEARCH_VERSION,
    startedAt: "2026-11-24T10:00:00.000Z",
    endedAt: "2026-11-24T10:05:00.000Z",
    complete: true,
    plan: { ...run.plan, name: "orders | *api*" },
    environment: run.environment,
    settings: {
      fromPerSec: 500,
      maxPerSec: 10_000,
      stepMs: 10_000,
      warmupMs: 2_000,
      cooldownMs: 2_000,
      precision: 0.05,
      soakMs: 30_000,
      requirePerSec: 1_000,
    },
    steps: [
      step(500, "pass"),
      step(1_000, "pass"),
      step(2_000, "fail"),
      step(1_500, "pass"),
      step(
        1_500,
        "pass",
        true,
      ),
    ],
    conclusion: { status: "found", ratePerSec: 1_500, failPerSec: 2_000, bindingSlo: "p99 < 10ms" },
    verdict: { status: "pass", message: "sustainable rate 1.5k/s ≥ 1k/s" },
    ...over,
  };
}

Deno.test("the search's headline names the rate, its bracket, the binding SLO and the gate", () => {
  assert.equal(
    searchHeadline(searchResult({})),
    "sustainable rate 1.5k/s (fails at 2k/s: p99 < 10ms); gate: pass (sustainable rate 1.5k/s ≥ 1k/s)",
  );
  assert.match(
    searchHeadline(searchResult({ conclusion: { status: "at_least", ratePerSec: 10_000 } })),
    /^sustainable rate at least 10k\/s \(the highest rate searched passed\)/,
  );
  assert.match(
    searchHeadline(
      searchResult({
        conclusion: {
          status: "inconclusive",
          reason: "tailgate could not send 20k/s",
          ratePerSec: 10_000,
        },
        verdict: { status: "inconclusive", message: "tailgate could not send 20k/s" },
      }),
    ),
    /^no sustainable rate: tailgate could not send 20k\/s \(10k\/s passed\); gate: inconclusive/,
  );
});

Deno.test("the terminal and Markdown reports list every step, the soak marked, plan text escaped", () => {
  const result = searchResult({});
  const terminal = renderSearchTerminal(result).split("\n");
  assert.match(terminal[1], /^rate\s+length\s+outcome\s+p50\s+p99\s+p99\.9\s+max\s+answered$/);
  assert.equal(terminal.filter((l) => /^\d/.test(l)).length, 5);
  assert.match(terminal.find((l) => l.startsWith("1.5k/s (soak)"))!, /pass .* 1500\/s$/);
  const md = renderSearchMarkdown(result);
  assert.match(md, /^## Capacity search: orders \\\| \\\*api\\\*$/m);
  assert.match(md, /^\| 2k\/s \| 10s \| fail \| 1ms \| 25ms \| 6ms \| 9ms \| 1500\/s \|$/m);
  assert.match(md, /bisecting to within 5%/);
});
