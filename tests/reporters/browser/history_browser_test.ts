import assert from "node:assert/strict";
import { historyHtml } from "../../../reporters/history/history_html.ts";
import { Chromium } from "../../_helpers/chromium.ts";
import { commitOf, historyReport, planHistory, STEP_AT } from "../history/_history_report.ts";
import { browserTest, drawnPixels, openPage, problems, remoteRequests } from "./_page_probe.ts";

const CHARTS = ["history-0-0", "history-0-1", "history-0-2"];

browserTest(
  "historyHtml() draws every chart offline, the step marked at its run and the SLO bound drawn",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-history-" });
    try {
      await using browser = await Chromium.launch({ widthPx: 1200 });
      const page = await openPage(browser, dir, historyHtml(historyReport()));
      assert.equal(await page.evaluate(`document.documentElement.dataset.charts`), "drawn");
      const drawn = await drawnPixels(page);
      assert.deepEqual(Object.keys(drawn).sort(), CHARTS);
      for (const id of CHARTS) assert.ok(drawn[id] > 1000, `${id} drew ${drawn[id]} pixels`);

      const latency = await page.evaluate<{
        marks: Array<{ kind: string; worse: boolean; text: string; left: number }>;
        stepPx: number;
        bounds: Array<{ text: string; y: number | null }>;
        boundPx: number;
        labels: string[];
        gap: unknown;
        ticks: string[];
      }>(`(() => {
        const c = Chart.getChart("history-0-0");
        return {
          marks: c.historyMarks,
          stepPx: c.scales.x.getPixelForValue(${STEP_AT}),
          bounds: c.boundLines,
          boundPx: c.scales.y.getPixelForValue(10),
          labels: c.data.datasets.map((d) => d.label),
          gap: c.data.datasets[3].data[12].y,
          ticks: c.scales.x.ticks.map((t) => c.scales.x.getLabelForValue(t.value)),
        };
      })()`);
      assert.deepEqual(latency.marks.map((m) => [m.kind, m.worse, m.text]), [
        ["step", true, "step: p99 rose 12%"],
      ]);
      assert.ok(Math.abs(latency.marks[0].left - latency.stepPx) < 1, JSON.stringify(latency));
      assert.equal(latency.bounds.length, 1);
      assert.equal(latency.bounds[0].text, "p99 < 10ms");
      assert.ok(Math.abs(latency.bounds[0].y! - latency.boundPx) < 1, JSON.stringify(latency));
      assert.deepEqual(latency.labels, ["p50", "p90", "p99", "p99.9"]);
      assert.equal(latency.gap, null, "a run without p99.9 leaves a gap");
      // The throughput chart has no change: nothing marked on it.
      assert.deepEqual(
        await page.evaluate(`Chart.getChart("history-0-1").historyMarks`),
        [],
      );

      // Hovering the step's run names its commit, branch, time and each value.
      const tip = await page.evaluate<{ title: string[]; lines: string[] }>(`(() => {
        const c = Chart.getChart("history-0-0");
        const at = c.getDatasetMeta(2).data[${STEP_AT}];
        c.tooltip.setActiveElements(
          [0, 1, 2, 3].map((d) => ({ datasetIndex: d, index: ${STEP_AT} })),
          { x: at.x, y: at.y },
        );
        c.update();
        return {
          title: c.tooltip.title,
          lines: c.tooltip.body.flatMap((b) => b.lines),
        };
      })()`);
      assert.deepEqual(tip.title, [
        `commit ${commitOf(STEP_AT).slice(0, 7)} · branch main · 2026-11-10 03:04Z · run 41 of 60`,
      ]);
      const p99 = planHistory().series[2].values[STEP_AT]! / 1000;
      assert.ok(tip.lines.includes(`p99: ${Number(p99.toPrecision(4))}ms`), tip.lines.join("; "));
      assert.equal(tip.lines.length, 4);

      // The linear latency axis draws too.
      await page.evaluate(`document.getElementById("log-latency").click()`);
      assert.equal(await page.evaluate(`Chart.getChart("history-0-0").scales.y.type`), "linear");
      assert.ok((await drawnPixels(page))["history-0-0"] > 1000);

      assert.deepEqual(problems(page.events), []);
      assert.deepEqual(remoteRequests(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "historyHtml() shades a trend, and shows a hostile plan name as text with no script run",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-history-" });
    try {
      const hostile = "</script><img src=x onerror=window.pwned=1>";
      const plan = planHistory(hostile);
      plan.changes = [{
        ...plan.changes[0],
        series: 4,
        kind: "trend",
        direction: "better",
        worse: false,
        index: 20,
        endIndex: 45,
        relativeChange: 0.15,
      }];
      await using browser = await Chromium.launch({ widthPx: 900 });
      const page = await openPage(browser, dir, historyHtml(historyReport([plan])));
      const seen = await page.evaluate<
        { images: number; pwned: boolean; text: boolean; trend: unknown; from: number; to: number }
      >(`(() => {
        const c = Chart.getChart("history-0-1");
        const m = c.historyMarks[0];
        return {
          images: document.querySelectorAll("img").length,
          pwned: "pwned" in window,
          text: document.body.innerText.includes(${JSON.stringify(hostile)}),
          trend: [m.kind, m.worse, m.text],
          from: m.left - c.scales.x.getPixelForValue(19.5),
          to: m.right - c.scales.x.getPixelForValue(45.5),
        };
      })()`);
      assert.equal(seen.images, 0);
      assert.equal(seen.pwned, false);
      assert.equal(seen.text, true);
      assert.deepEqual(seen.trend, ["trend", false, "trend: throughput rose 15% over 26 runs"]);
      assert.ok(Math.abs(seen.from) < 1 && Math.abs(seen.to) < 1, JSON.stringify(seen));
      assert.equal(await page.evaluate(`document.documentElement.dataset.charts`), "drawn");
      assert.deepEqual(problems(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "historyHtml() of 500 runs on a 400 px page: run labels apart, the newest labelled, no page overflow",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-history-" });
    try {
      await using browser = await Chromium.launch({ widthPx: 400, heightPx: 800 });
      const page = await openPage(
        browser,
        dir,
        historyHtml(historyReport([planHistory("long", 500)])),
      );
      const seen = await page.evaluate<{ px: number[]; last: string; scrollWidth: number }>(
        `(() => {
        const x = Chart.getChart("history-0-0").scales.x;
        return {
          px: x.ticks.map((t) => x.getPixelForValue(t.value)),
          last: x.ticks[x.ticks.length - 1].label,
          scrollWidth: document.documentElement.scrollWidth,
        };
      })()`,
      );
      assert.ok(seen.px.length >= 3, `${seen.px.length} run labels`);
      seen.px.slice(1).forEach((px, i) => assert.ok(px - seen.px[i] >= 60, `ticks at ${seen.px}`));
      assert.equal(seen.last, commitOf(499).slice(0, 7), "the newest run is labelled");
      assert.equal(seen.scrollWidth, 400, "nothing wider than the screen");
      assert.ok((await drawnPixels(page))["history-0-0"] > 1000);
      assert.deepEqual(problems(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
