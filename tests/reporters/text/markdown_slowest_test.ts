import assert from "node:assert/strict";
import { SLOWEST_SHOWN, slowestUnderGates } from "../../../reporters/text/markdown_slowest.ts";
import { MARKDOWN_MAX_BYTES, renderMarkdown } from "../../../reporters/text/markdown.ts";
import { markdownText } from "../../../reporters/text/markdown_escape.ts";
import type { Verdict } from "../../../runner/model/run_result.ts";
import { HOSTILE, hostileResult, reportResult } from "../../_helpers/report_fixtures.ts";
import { traceIdOf, withoutSlowest, withSlowest } from "../_slowest_results.ts";

const esc = (t: string) => markdownText(t);

/** The rows (cells) of the table after the line starting `**Slowest requests under`. */
function rowsUnder(lines: readonly string[], heading: number): string[][] {
  const rows: string[][] = [];
  for (let i = heading + 4; lines[i]?.startsWith("|"); i++) {
    rows.push(lines[i].slice(2, -2).split(" | "));
  }
  return rows;
}

Deno.test("slowestUnderGates() names the three slowest of a failed gate's stages over every label", () => {
  const result = withSlowest(reportResult(), true);
  const lines = slowestUnderGates(result, 50, esc);
  // Both failed gates (p90 < 1ms, max < 1ms) judged stages 1 and 2 over every label: one table.
  const headings = lines.filter((l) => l.startsWith("**Slowest"));
  assert.deepEqual(headings, [
    "**Slowest requests under ❌ p90 &lt; 1ms, max &lt; 1ms** (stages steady, climb; every label):",
  ]);
  const rows = rowsUnder(lines, lines.indexOf(headings[0]));
  assert.equal(rows.length, SLOWEST_SHOWN);
  const at = (ms: number) => `${((result.stages[2].startMs + ms) / 1000).toFixed(3)} s`;
  assert.deepEqual(rows, [
    [`\`${traceIdOf(2, 1, 0)}\``, "POST /order", "climb", at(7.25), "29ms", "200"],
    [`\`${traceIdOf(2, 1, 1)}\``, "POST /order", "climb", at(107.25), "28.7ms", "503"],
    [`\`${traceIdOf(2, 1, 2)}\``, "POST /order", "climb", at(207.25), "28.4ms", "timeout"],
  ]);
  assert.ok(!lines.some((l) => l.startsWith("No trace ids")));
});

Deno.test("slowestUnderGates() keeps to a gate's label and stage; other scopes get their own table", () => {
  const result = withSlowest(reportResult(), true);
  const failed = result.verdicts.find((v) => v.status === "fail")!;
  const cart: Verdict = {
    ...failed,
    name: "p99 < 1ms for GET /cart",
    stageIndexes: [1],
    label: "GET /cart",
  };
  result.verdicts = [failed, cart];
  const lines = slowestUnderGates(result, 50, esc);
  const heading = lines.findIndex((l) => l.includes("p99 &lt; 1ms for GET /cart"));
  assert.equal(
    lines[heading],
    "**Slowest requests under ❌ p99 &lt; 1ms for GET /cart** (stage steady; label GET /cart):",
  );
  assert.deepEqual(rowsUnder(lines, heading).map((r) => [r[0], r[1], r[2]]), [
    [`\`${traceIdOf(1, 0, 0)}\``, "GET /cart", "steady"],
    [`\`${traceIdOf(1, 0, 1)}\``, "GET /cart", "steady"],
    [`\`${traceIdOf(1, 0, 2)}\``, "GET /cart", "steady"],
  ]);
  assert.equal(lines.filter((l) => l.startsWith("**Slowest")).length, 2);
  assert.deepEqual(
    slowestUnderGates(result, 1, esc).at(-2),
    "… 1 more failed gates' slowest requests (see the HTML report)",
  );
});

Deno.test("slowestUnderGates() without trace ids drops the column and says how to send them", () => {
  const lines = slowestUnderGates(withSlowest(reportResult(), false), 50, esc);
  assert.equal(lines[2], "| label | stage | sent at | response | status |");
  assert.ok(
    lines.includes(
      "No trace ids: the run sent no `traceparent`: `trace: true` in the plan (or `--trace`) sends one with every request.",
    ),
  );
});

Deno.test("slowestUnderGates() says nothing when no latency gate failed, or no request was kept", () => {
  const result = withSlowest(reportResult(), true);
  result.verdicts = result.verdicts.map((v) =>
    v.unit === "us" ? { ...v, status: "pass" } : { ...v, status: "fail" }
  );
  assert.deepEqual(slowestUnderGates(result, 50, esc), [], "an error-rate gate names no request");
  assert.deepEqual(
    slowestUnderGates(withoutSlowest(reportResult()), 50, esc),
    [],
    "a result without slowest",
  );
  assert.deepEqual(slowestUnderGates(withSlowest(reportResult(), true), 0, esc), []);
});

Deno.test("renderMarkdown() puts the slowest requests right under the gates, hostile names escaped", () => {
  const result = withSlowest(hostileResult(), true);
  result.stages[2].labels[1].slowest![0].traceId = "`|<img src=x>";
  const text = renderMarkdown(result);
  const gates = text.indexOf("### Gates");
  const slowest = text.indexOf("**Slowest requests under ❌");
  assert.ok(gates >= 0 && slowest > gates && slowest < text.indexOf("### Latency"));
  assert.ok(!text.includes("<img"), "an <img> tag got through");
  assert.ok(!text.includes(HOSTILE));
  const section = text.slice(slowest, text.indexOf("### Latency"));
  assert.match(section, /^\| – \| POST \/order \| climb \|/m, "an id that is not one is left out");
});

Deno.test("renderMarkdown() stays under its limit with a hundred failed latency gates over their own labels", () => {
  const result = withSlowest(reportResult(), true);
  const failed = result.verdicts.find((v) => v.status === "fail")!;
  const stage = result.stages[2];
  const template = stage.labels[1];
  stage.labels = Array.from(
    { length: 100 },
    (_, i) => ({ ...template, label: `${i} ${"|&".repeat(2_000)}` }),
  );
  result.verdicts = stage.labels.map((l) => ({
    ...failed,
    name: `p99 < 1ms ${l.label}`,
    label: l.label,
  }));
  const text = renderMarkdown(result);
  assert.ok(new TextEncoder().encode(text).length <= MARKDOWN_MAX_BYTES);
  const tables = text.split("\n").filter((l) => l.startsWith("**Slowest requests under")).length;
  const hidden = Number(/^… (\d+) more failed gates' slowest requests/m.exec(text)?.[1] ?? 0);
  assert.ok(tables > 0, "some are still shown");
  assert.equal(tables + hidden, 100);
});
