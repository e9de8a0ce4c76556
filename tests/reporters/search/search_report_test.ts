import assert from "node:assert/strict";
import {
  renderSearchMarkdown,
  renderSearchTerminal,
  searchHeadline,
} from "../../../reporters/search/search_report.ts";
import { HOSTILE_PLAN_TEXT, markdownProblems } from "../../_helpers/markdown_assertions.ts";
import { searchResult } from "../../_helpers/search_fixtures.ts";

Deno.test("the search's headline names the rate, its bracket, the binding SLO and the gate", () => {
  assert.equal(
    searchHeadline(searchResult({})),
    "sustainable rate 1.5k/s (fails at 2k/s: p99 < 10ms); verdict: pass (1 gate: 1 pass)",
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
        verdict: { status: "inconclusive", message: "tailgate could not send 20k/s", gates: [] },
      }),
    ),
    /^no sustainable rate: tailgate could not send 20k\/s \(10k\/s passed\); verdict: inconclusive/,
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
  assert.match(md, /^\| sustainable\\_rate &gt;= 1k\/s \| pass \| passed: 1\.5k\/s held/m);
  assert.ok(terminal.some((l) => /^pass\s+sustainable_rate >= 1k\/s: passed/.test(l)));
});

Deno.test("renderSearchMarkdown() renders hostile plan and gate text inert: no image, link, tag or mention, no broken row", () => {
  const result = searchResult();
  result.plan.name = HOSTILE_PLAN_TEXT;
  result.verdict.gates = result.verdict.gates.map((g) => ({
    ...g,
    name: `${g.name} ${HOSTILE_PLAN_TEXT}`,
    message: `${g.message} ${HOSTILE_PLAN_TEXT}`,
  }));
  assert.deepEqual(markdownProblems(renderSearchMarkdown(result)), []);
});
