import assert from "node:assert/strict";
import type { StepRecord } from "../../../runner/model/run_result.ts";
import { renderHtml, renderMarkdown } from "../../../mod.ts";
import { stepRows } from "../../../reporters/figures/steps_text.ts";
import { HOSTILE, reportResult } from "../../_helpers/report_fixtures.ts";
import { HOSTILE_MARKDOWN } from "../_traffic_results.ts";

const STEPS: StepRecord[] = [
  {
    section: "setup",
    name: "login",
    method: "POST",
    url: "http://127.0.0.1:8080/login",
    status: 200,
    durationMs: 12.34,
    ok: true,
    captures: [
      { name: "token", from: "json /access_token" },
      { name: "session", from: "header set-cookie" },
    ],
  },
  {
    section: "teardown",
    name: HOSTILE_MARKDOWN,
    method: "DELETE",
    url: `http://127.0.0.1:8080/sessions/{{session}}?${HOSTILE}`,
    status: 500,
    durationMs: 3,
    ok: false,
    problem: "answered 500 (expected 2xx)",
    captures: [],
  },
];

Deno.test("stepRows() gives each step its request, status (with a failure's problem), time and captures", () => {
  assert.deepEqual(stepRows(STEPS)[0], [
    "setup: login",
    "POST http://127.0.0.1:8080/login",
    "200",
    "12.3 ms",
    "token (json /access_token), session (header set-cookie)",
  ]);
  assert.equal(stepRows(STEPS)[1][2], "500 ✗ answered 500 (expected 2xx)");
  assert.equal(stepRows(STEPS)[1][4], "–");
});

Deno.test("the HTML report shows the steps in a card of their own, every plan text escaped", () => {
  const html = renderHtml({ ...reportResult(), steps: STEPS });
  const start = html.indexOf('<section class="card" id="steps">');
  assert.ok(start > html.indexOf('id="plan"'), "after the plan");
  const card = html.slice(start, html.indexOf("</section>", start));
  assert.ok(html.includes('<a href="#steps">Setup and teardown</a>'));
  assert.match(card, /<td>setup: login<\/td><td>POST http:\/\/127\.0\.0\.1:8080\/login<\/td>/);
  assert.match(card, /token \(json \/access_token\), session \(header set-cookie\)/);
  assert.ok(!card.includes("<img"), "no tag from a step's name or URL gets through");
  assert.ok(!renderHtml(reportResult()).includes('id="steps"'), "no card without steps");
});

Deno.test("the Markdown summary lists the steps in a table whose hostile cells stay cells", () => {
  const text = renderMarkdown({ ...reportResult(), steps: STEPS });
  const lines = text.split("\n");
  const head = lines.indexOf("### Setup and teardown");
  assert.ok(head > 0);
  const rows = lines.slice(head).filter((l) => l.startsWith("| "));
  // The header, its rule and two steps: no row split, none run together by a `|` or a newline.
  assert.equal(rows.length, 4, rows.join("\n"));
  assert.ok(rows.every((r) => r.split(/(?<!\\)\|/).length === 7), rows.join("\n"));
  assert.doesNotMatch(text, /<img/i);
  assert.ok(rows[2].includes("token (json /access\\_token)"));
});
