import assert from "node:assert/strict";
import { renderAbHtml } from "../../../reporters/ab/ab_html.ts";
import { abChartData } from "../../../reporters/ab/ab_chart_data.ts";
import { renderAbJunit } from "../../../reporters/ab/ab_junit.ts";
import { abRows, renderAbMarkdown, renderAbTerminal } from "../../../reporters/ab/ab_report.ts";
import { abResult } from "../../_helpers/ab_fixtures.ts";
import { HOSTILE_PLAN_TEXT, markdownProblems } from "../../_helpers/markdown_assertions.ts";
import { xunitProblems } from "../../_helpers/junit_xsd.ts";
import { ignoreWithout } from "../../_helpers/test_tools.ts";
import { xpath } from "../../_helpers/xmllint.ts";
import { abVerdict } from "../../../runner/gates/ab/ab_verdict.ts";
import { abSloVerdicts } from "../../../runner/gates/ab/ab_slos.ts";
import { judge } from "../../../runner/api/judge.ts";
import { gateResult, scaledUs } from "../../_helpers/gate_fixtures.ts";

Deno.test("abRows(): base and head medians, the change with its interval, and the floor", () => {
  const ab = abResult(1.1);
  const [row] = abRows(ab);
  assert.equal(row[0], "fail");
  assert.equal(row[1], "p50 head vs base: steady");
  assert.match(row[4], /^10(\.\d)?% worse$/);
  assert.match(row[5], /^\d+(\.\d)?% worse to \d+(\.\d)?% worse$/);
  assert.equal(row[6], "5%");
});

Deno.test("abRows() and the check's message write a faster head as better, never as a negative worse", () => {
  const ab = abResult(0.9);
  const [row] = abRows(ab);
  assert.match(row[4], /^10(\.\d)?% better$/);
  assert.match(row[5], /^\d+(\.\d)?% better to \d+(\.\d)?% better$/);
  const shown = [renderAbTerminal(ab), renderAbMarkdown(ab), renderAbHtml(ab), renderAbJunit(ab)];
  for (const text of shown) assert.doesNotMatch(text, /-\d+(\.\d+)?% worse/);
  assert.match(ab.comparisons[0].message, /^ok: head 10(\.\d)?% better \(95% interval /);
});

Deno.test("renderAbTerminal() and renderAbMarkdown() state the verdict, each check and the rounds", () => {
  const ab = abResult(1.1);
  const text = renderAbTerminal(ab);
  assert.match(
    text,
    /^FAIL: 3 gates: 3 fail \(2 regressions of head against base\); 5 of 5 rounds, seed 7$/m,
  );
  assert.match(text, /^SLO fail: p99 < 1\.8ms \(head's 5 runs pooled: failed: /m);
  assert.match(text, /^rounds: base→head, head→base, /m);
  const md = renderAbMarkdown(ab);
  assert.match(md, /^## A\/B comparison: orders &lt;api&gt;$/m);
  assert.match(md, /^\| fail \| p50 head vs base: steady \| /m);
  assert.match(md, /^- \*\*fail\*\* p99 head vs base: steady: regression: /m);
  const same = renderAbMarkdown(abResult(1));
  assert.match(same, /^\*\*PASS: 3 gates: 3 pass; 5 of 5 rounds, seed 7\*\*$/m);
});

Deno.test("renderAbMarkdown() renders hostile plan, target, check and SLO text inert: no image, link, tag or mention, no broken row", () => {
  const ab = abResult(1.1, HOSTILE_PLAN_TEXT);
  ab.targets.head.url = `http://127.0.0.1:9002/\`${HOSTILE_PLAN_TEXT}\``;
  ab.comparisons = ab.comparisons.map((c) => ({ ...c, name: `${c.name} ${HOSTILE_PLAN_TEXT}` }));
  ab.slos = ab.slos.map((s) => ({ ...s, name: `${s.name} ${HOSTILE_PLAN_TEXT}` }));
  assert.deepEqual(markdownProblems(renderAbMarkdown(ab)), []);
});

Deno.test({
  name:
    "renderAbJunit() is valid Jenkins xUnit JUnit: a failure per regression, properties of the comparison",
  ignore: ignoreWithout("xmllint"),
  fn: async () => {
    const xml = renderAbJunit(abResult(1.1));
    assert.deepEqual(await xunitProblems(xml), []);
    assert.equal(await xpath(xml, "string(/testsuites/@tests)"), "3");
    assert.equal(await xpath(xml, "string(/testsuites/@failures)"), "3");
    assert.equal(
      await xpath(xml, "string(//testcase[@name='p50 head vs base: steady']/@classname)"),
      "tailgate.orders <api>.ab",
    );
    assert.equal(await xpath(xml, "string(//property[@name='ab.seed']/@value)"), "7");
    const ok = renderAbJunit(abResult(1));
    assert.equal(await xpath(ok, "string(/testsuites/@failures)"), "0");
  },
});

Deno.test("abChartData() and renderAbHtml(): both curves per stage, each round's figures, tables as text", () => {
  const ab = abResult(1.1);
  const data = abChartData(ab);
  assert.equal(data.curves.length, 1);
  const at = (points: Array<[number, number]>, x: number) => points.find((p) => p[0] === x)![1];
  // p50 (x = 2) of head is 10% above base's.
  assert.ok(Math.abs(at(data.curves[0].head, 2) / at(data.curves[0].base, 2) - 1.1) < 0.01);
  assert.deepEqual(data.rounds[0].base.length, 5);
  assert.equal(data.rounds[0].unit, "ms");
  const html = renderAbHtml(ab);
  assert.match(html, /<title>FAIL: orders &lt;api&gt; A\/B · tailgate<\/title>/);
  assert.match(html, /<td>p50 head vs base: steady<\/td>/);
  assert.match(html, /<option value="0">steady<\/option>/);
});

Deno.test({
  name: "renderAbJunit(): the cases share out the comparison's time, as the suite states it",
  ignore: ignoreWithout("xmllint"),
  fn: async () => {
    const xml = renderAbJunit(abResult(1.1));
    const times = (await xpath(xml, "//testcase/@time")).match(/time="[^"]*"/g)!
      .map((t) => Number(t.slice(6, -1)));
    assert.deepEqual(times, [40, 40, 40]);
    assert.equal(await xpath(xml, "string(/testsuites/testsuite/@time)"), "120.000");
  },
});

Deno.test("the A/B reports name the implicit error gate judged on head's runs as implicit", async () => {
  const head = async (errors: number) => {
    const r = gateResult([{
      ratePerSec: 1000,
      durationMs: 20_000,
      labels: [{ label: "GET /", response: scaledUs(20_000 - errors, 1), errors }],
    }]);
    return (await judge(r)).result;
  };
  const ab = abResult(1);
  ab.slos = abSloVerdicts([await head(2_000), await head(0)], [await head(0), await head(0)]);
  ab.verdict = abVerdict(ab.comparisons, ab.slos);
  assert.deepEqual(ab.slos.map((s) => [s.name, s.implicit, s.status]), [
    ["error_rate <= 1% (implicit)", true, "fail"],
  ]);
  assert.match(
    renderAbTerminal(ab),
    /^SLO fail: error_rate <= 1% \(implicit\) \(head's 2 runs pooled: failed: .*; per run: head 1 fail, 1 pass, base 2 pass\)$/m,
  );
  assert.match(
    renderAbMarkdown(ab),
    /^\| fail \| error\\_rate &lt;= 1% \(implicit\) \| fail, pass \|$/m,
  );
  assert.match(
    renderAbJunit(ab),
    /<testcase name="error_rate &lt;= 1% \(implicit\)"[^>]*>\s*<failure/,
  );
  assert.match(renderAbHtml(ab), /<td>error_rate &lt;= 1% \(implicit\)<\/td>/);
});

Deno.test("the A/B reports warn when only comparisons are undecided, and abVerdict() records it", () => {
  // Head's own noise of up to 10% a round: a change under the floor cannot be ruled out.
  const ab = abResult(1, "orders", [1.08, 0.98, 1.1, 0.99, 1]);
  assert.equal(ab.verdict.status, "inconclusive", ab.verdict.message);
  assert.equal(ab.verdict.regressionOnly, true);
  assert.ok(ab.slos.every((s) => s.status === "pass"));
  const warning = /only regression checks are undecided: a warning, not a failure/;
  assert.match(renderAbTerminal(ab).split("\n").at(-2)!, /^WARNING: /);
  for (
    const text of [renderAbTerminal(ab), renderAbMarkdown(ab), renderAbHtml(ab), renderAbJunit(ab)]
  ) {
    assert.match(text, warning);
  }
  for (const text of [renderAbTerminal(abResult(1.1)), renderAbMarkdown(abResult(1))]) {
    assert.doesNotMatch(text, warning);
  }
});

Deno.test("renderAbTerminal() prints the plan's names and messages inert: no escape, no forged line", () => {
  const ab = abResult(1.1);
  const evil = "shop\u001b[2J\n✓ PASS: forged";
  ab.plan.name = evil;
  ab.comparisons[0].name = `p50 head vs base: ${evil}`;
  ab.slos = [{ name: `p99 < 1ms ${evil}`, status: "pass", perRound: ["pass"], message: evil }];
  const text = renderAbTerminal(ab);
  const control = [...text].filter((c) => c !== "\n" && (c < " " || c === "\u007f"));
  assert.deepEqual(control, [], "no control character");
  assert.ok(!text.split("\n").some((l) => l.startsWith("✓ PASS")), text);
  assert.match(text, /^A\/B comparison: shop\\u001b\[2J\\n✓ PASS: forged \(base /);
});

Deno.test({
  name:
    "renderAbJunit() writes undecided comparisons as --junit-inconclusive asks: skipped or failures",
  ignore: ignoreWithout("xmllint"),
  fn: async () => {
    const ab = abResult(1, "orders", [1.08, 0.98, 1.1, 0.99, 1]);
    const undecided = ab.comparisons.filter((c) => c.status === "inconclusive").length;
    assert.ok(undecided > 0);
    const count = (xml: string, what: string) => xpath(xml, `string(/testsuites/@${what})`);
    // auto: a comparison undecided is a warning under the default fail-on: skipped.
    assert.equal(await count(renderAbJunit(ab), "skipped"), String(undecided));
    const failing = renderAbJunit(ab, "inconclusive-sampling", "failure");
    assert.deepEqual(await xunitProblems(failing), []);
    assert.equal(await count(failing, "failures"), String(undecided));
    assert.equal(await count(failing, "skipped"), "0");
    assert.equal(
      await xpath(failing, "string(//property[@name='junit.inconclusive']/@value)"),
      "failure",
    );
    // skipped: even when fail-on inconclusive turns them red.
    assert.equal(await count(renderAbJunit(ab, "inconclusive", "skipped"), "errors"), "0");
    assert.equal(await count(renderAbJunit(ab, "inconclusive"), "errors"), String(undecided));
  },
});
