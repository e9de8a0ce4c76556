import assert from "node:assert/strict";
import { browserScript, type PageName } from "../../../reporters/browser/mod.ts";

const PAGES: Array<[PageName, string]> = [
  ["run", "drawRunCharts"],
  ["search", "drawSearchCharts"],
  ["ab", "drawAbCharts"],
  ["history", "drawHistoryCharts"],
];

Deno.test("each page's script is plain JavaScript that calls its page's entry once", () => {
  for (const [page, entry] of PAGES) {
    const script = browserScript(page);
    // Parses as a browser would (a TypeScript annotation left in would be a SyntaxError).
    assert.doesNotThrow(() => new Function(script), page);
    assert.equal(script.match(new RegExp(`\\.${entry}\\(\\);`, "g"))?.length, 1, page);
    assert.ok(
      !/:\s*(ChartData|AbChartData|SearchChartData|HistoryChartData|PageElement|TooltipItem|ScaleLike)\b/
        .test(script),
      page,
    );
    assert.equal(browserScript(page), script, "made once, the same every time");
  }
});

Deno.test("the pages share one chart kit: each script holds it once, its globals nowhere else", () => {
  for (const [page] of PAGES) {
    const script = browserScript(page);
    assert.equal(script.match(/function fmtMs\(/g)?.length, 1, page);
    assert.equal(script.match(/function pageData\b/g)?.length, 1, page);
    // Only the kit reads the page's globals: no page module declares its own.
    assert.equal(script.match(/getElementById\("tailgate-data"\)/g)?.length, 1, page);
    assert.equal(script.match(/new Chart\(/g)?.length, 1, page);
  }
});
