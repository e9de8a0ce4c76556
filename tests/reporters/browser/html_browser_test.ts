import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { renderAbHtml } from "../../../reporters/ab/ab_html.ts";
import { renderHtml } from "../../../reporters/html/html.ts";
import { renderSearchHtml } from "../../../reporters/search/search_html.ts";
import { computeRunVerdict } from "../../../runner/gates/run_verdict.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { Chromium, type Page } from "../../_helpers/chromium.ts";
import { HOSTILE, hostileResult, reportResult } from "../../_helpers/report_fixtures.ts";
import { browserTest, drawnPixels, openPage, problems, remoteRequests } from "./_page_probe.ts";
import { recordedResult } from "../_recorded_results.ts";
import { writtenResult } from "../../_helpers/result_fixtures.ts";
import { judgedGrpcResult } from "../../_helpers/grpc_result_fixtures.ts";
import { searchResult } from "../../_helpers/search_fixtures.ts";
import { abResult } from "../../_helpers/ab_fixtures.ts";
import { traceIdOf, withSlowest } from "../_slowest_results.ts";

const CHART_IDS = [
  "chart-percentile",
  "chart-timeline-latency",
  "chart-timeline-throughput",
  "chart-ramp",
];

/** Renders the result to a file, opens it over file:// with the network offline. */
function openReport(browser: Chromium, dir: string, result: RunResult | string): Promise<Page> {
  return openPage(browser, dir, typeof result === "string" ? result : renderHtml(result));
}

browserTest(
  "renderHtml() report draws every chart offline from file:// with no console error",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      await using browser = await Chromium.launch({ widthPx: 1200 });
      const page = await openReport(browser, dir, reportResult());
      assert.equal(await page.evaluate(`document.documentElement.dataset.charts`), "drawn");
      const drawn = await drawnPixels(page);
      assert.deepEqual(Object.keys(drawn).sort(), [...CHART_IDS].sort());
      for (const id of CHART_IDS) assert.ok(drawn[id] > 1000, `${id} drew ${drawn[id]} pixels`);

      // Every percentile view and the linear axis draw too.
      const views = await page.evaluate<number>(
        `document.getElementById("percentile-view").length`,
      );
      assert.equal(views, 4, "all measured stages merged, then each of the 3 stages");
      for (let i = views - 1; i >= 0; i--) {
        await page.evaluate(`(() => {
        const s = document.getElementById("percentile-view");
        s.value = "${i}";
        s.dispatchEvent(new Event("change"));
      })()`);
        assert.ok((await drawnPixels(page))["chart-percentile"] > 1000, `view ${i} drew nothing`);
      }
      await page.evaluate(`document.getElementById("log-latency").click()`);
      const linear = await drawnPixels(page);
      for (const id of CHART_IDS) {
        assert.ok(
          linear[id] > 1000,
          `${id} drew nothing on a linear axis`,
        );
      }

      assert.deepEqual(problems(page.events), []);
      assert.deepEqual(remoteRequests(page.events), []);
      assert.ok(
        page.events.some((e) => e.method === "Network.requestWillBeSent"),
        "the network events were recorded (the file's own request)",
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "renderHtml() shows hostile plan text as text: no injected element, no script run",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      await using browser = await Chromium.launch();
      const page = await openReport(browser, dir, hostileResult());
      const seen = await page.evaluate<
        { title: string; images: number; pwned: boolean; text: boolean }
      >(
        `({
        title: document.title,
        images: document.querySelectorAll("img").length,
        pwned: "pwned" in window,
        text: document.body.innerText.includes(${JSON.stringify(HOSTILE.replace("\u2028", " "))}),
      })`,
      );
      assert.equal(seen.images, 0);
      assert.equal(seen.pwned, false);
      assert.equal(seen.text, true, "the hostile label reads as text");
      assert.ok(seen.title.includes(HOSTILE), seen.title);
      assert.equal(await page.evaluate(`document.documentElement.dataset.charts`), "drawn");
      assert.deepEqual(problems(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "renderHtml() time charts run to the last interval, showing answers that came after the schedule",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      await using browser = await Chromium.launch();
      const drained = recordedResult({ responseMs: 2_500 });
      const last = drained.intervals.at(-1)!;
      const page = await openReport(browser, dir, drained);
      const ends = await page.evaluate<number[]>(
        `["chart-timeline-latency", "chart-timeline-throughput"]
          .map((id) => Chart.getChart(id).scales.x.max)`,
      );
      assert.deepEqual(ends, [6, 6]);
      assert.equal((last.startMs + last.durationMs) / 1000, 6);
      assert.deepEqual(problems(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "renderHtml() marks the stalls the analysis found on the latency time chart",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      await using browser = await Chromium.launch();
      const result = reportResult();
      const stage = result.stages.find((s) => !s.warmup)!;
      stage.timeDomain = {
        stalls: [{ startMs: stage.startMs + 1_000, maxUs: 80_000, why: "slow" }],
        stallThresholdUs: 20_000,
        bimodal: { flagged: false },
      };
      const page = await openReport(browser, dir, result);
      const stall = await page.evaluate<{ points: number; shown: boolean; style: string }>(`(() => {
      const chart = Chart.getChart("chart-timeline-latency");
      const i = chart.data.datasets.findIndex((d) => d.label === "stall");
      const d = chart.data.datasets[i];
      return { points: d.data.length, shown: chart.isDatasetVisible(i), style: d.pointStyle };
    })()`);
      assert.deepEqual(stall, { points: 1, shown: true, style: "triangle" });
      assert.deepEqual(problems(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "renderSearchHtml() draws latency against rate offline, the bracket and SLOs on it",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      await using browser = await Chromium.launch();
      const page = await openReport(browser, dir, renderSearchHtml(searchResult()));
      assert.equal(await page.evaluate(`document.documentElement.dataset.charts`), "drawn");
      assert.ok((await drawnPixels(page))["chart-search"] > 1000);
      const chart = await page.evaluate<{ labels: string[]; rates: number[]; x: string }>(`(() => {
      const c = Chart.getChart("chart-search");
      return {
        labels: c.data.datasets.map((d) => d.label),
        rates: c.data.datasets[1].data.map((p) => p.x),
        x: c.scales.x.type,
      };
    })()`);
      // The soak repeats 1.5k/s: one point per rate, in rate order.
      assert.deepEqual(chart, {
        labels: ["p50", "p99", "p99.9", "max"],
        rates: [500, 1_000, 1_500, 2_000],
        x: "logarithmic",
      });
      const text = await page.evaluate<string>(`document.body.innerText`);
      assert.match(text, /sustainable_rate >= 1k\/s/);
      assert.deepEqual(problems(page.events), []);
      assert.deepEqual(remoteRequests(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "renderAbHtml() overlays base and head and draws each round's pair, offline",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      await using browser = await Chromium.launch();
      const page = await openReport(browser, dir, renderAbHtml(abResult(1.1)));
      assert.equal(await page.evaluate(`document.documentElement.dataset.charts`), "drawn");
      const drawn = await drawnPixels(page);
      assert.ok(
        drawn["chart-ab-curves"] > 1000 && drawn["chart-ab-rounds"] > 1000,
        JSON.stringify(drawn),
      );
      const charts = await page.evaluate<{ curves: string[]; rounds: number[] }>(`(() => ({
      curves: Chart.getChart("chart-ab-curves").data.datasets.map((d) => d.label),
      rounds: Chart.getChart("chart-ab-rounds").data.datasets.map((d) => d.data.length),
    }))()`);
      assert.deepEqual(charts, {
        curves: ["base (merged rounds)", "head (merged rounds)"],
        rounds: [5, 5],
      });
      // Another check redraws the rounds chart.
      await page.evaluate(`(() => {
      const s = document.getElementById("ab-check");
      s.value = "1";
      s.dispatchEvent(new Event("change"));
    })()`);
      assert.ok((await drawnPixels(page))["chart-ab-rounds"] > 1000);
      assert.deepEqual(problems(page.events), []);
      assert.deepEqual(remoteRequests(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "renderHtml() on a 400 px page: no axis label over another, no stage name over another",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      const result = reportResult();
      result.stages = result.stages.map((s, i) => ({
        ...s,
        name: `stage number ${i} of the plan`,
      }));
      const ticksAt = async (page: Page) =>
        await page.evaluate<number[]>(`(() => {
          const x = Chart.getChart(document.getElementById("chart-percentile")).scales.x;
          return x.ticks.map((t) => x.getPixelForValue(t.value));
        })()`);
      await using wide = await Chromium.launch({ widthPx: 1200 });
      const all = (await ticksAt(await openReport(wide, dir, result))).length;
      await using browser = await Chromium.launch({ widthPx: 400 });
      const page = await browser.newPage();
      const path = join(dir, "narrow.html");
      await Deno.writeTextFile(path, renderHtml(result));
      await page.navigate(pathToFileURL(path).href);
      assert.equal(await page.evaluate(`document.documentElement.scrollWidth`), 400);
      const ticks = await ticksAt(page);
      assert.ok(ticks.length < all, `${ticks.length} of ${all} percentile labels at 400 px`);
      ticks.slice(1).forEach((px, i) => assert.ok(px - ticks[i] >= 44, `ticks at ${ticks}`));
      for (const id of ["chart-timeline-latency", "chart-timeline-throughput"]) {
        const labels = await page.evaluate<Array<{ x: number; y: number; width: number }>>(
          `Chart.getChart(document.getElementById("${id}")).stageLabels`,
        );
        assert.ok(labels.length > 0, `${id} drew no stage name`);
        for (const a of labels) {
          for (const b of labels) {
            if (a === b || a.y !== b.y) continue;
            assert.ok(
              a.x + a.width <= b.x || b.x + b.width <= a.x,
              `${id}: ${JSON.stringify([a, b])}`,
            );
          }
        }
      }
      assert.deepEqual(problems(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "renderHtml() on a 400×800 screen: a failing gate the plan lists last is on the first screen",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      // Eight passing gates before the failing one, a warning and a tool-limited run's reasons:
      // everything that could push the failure down.
      const result = reportResult();
      const pass = result.verdicts.find((v) => v.status === "pass")!;
      const fail = result.verdicts.find((v) => v.status === "fail")!;
      result.verdicts = [
        ...Array.from({ length: 8 }, (_, i) => ({ ...pass, name: `p${50 + i} < 5ms` })),
        fail,
      ];
      result.warnings = [
        "the baseline was recorded on a different machine or build (cpu: A vs B; cores: 2 vs " +
        "4): numbers from different fingerprints do not compare",
      ];
      result.health.toolLimited = true;
      result.health.reasons = [
        "tailgate sent requests late: its send lag p99 was 35.23ms, above the 10ms a sound run " +
        "allows; the generator, not the server, limited this run (use fewer requests per " +
        "worker, more workers or a bigger machine)",
        "tailgate's engine thread stalled: its stalls reach 12ms at p99, above the 10ms a sound " +
        "run allows, so latencies at that percentile include the generator's own pauses",
      ];
      result.verdict = computeRunVerdict(result);
      await using browser = await Chromium.launch({ widthPx: 400, heightPx: 800 });
      const page = await openReport(browser, dir, result);
      const seen = await page.evaluate<{
        status: string;
        badge: { left: number; top: number; right: number; bottom: number };
        gate: { left: number; top: number };
        name: string;
        warningsTop: number;
        viewport: [number, number];
        scrollWidth: number;
      }>(`(() => {
        const row = document.querySelector("table.gates tbody tr");
        const badge = row.querySelector(".badge");
        const rect = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
        return {
          status: badge.textContent,
          badge: rect(badge),
          gate: rect(row.cells[1]),
          name: row.cells[1].innerText,
          warningsTop: document.getElementById("warnings").getBoundingClientRect().top,
          viewport: [innerWidth, innerHeight],
          scrollWidth: document.documentElement.scrollWidth,
        };
      })()`);
      assert.deepEqual(seen.viewport, [400, 800]);
      assert.equal(seen.scrollWidth, 400, "nothing wider than the screen");
      assert.equal(seen.status, "fail");
      assert.ok(seen.name.startsWith(`SLO ${fail.name}`), seen.name);
      const b = seen.badge;
      assert.ok(b.left >= 0 && b.right <= 400 && b.top >= 0 && b.bottom <= 800, JSON.stringify(b));
      assert.ok(seen.gate.left < 400 && seen.gate.top < 800, JSON.stringify(seen.gate));
      assert.ok(seen.warningsTop > b.bottom, "the warnings come after the gates");
      assert.deepEqual(problems(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest("renderHtml() shades where a windowed SLO failed on the latency chart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
  try {
    // Every answered request takes 1.5 ms: each 2 s window of the measured stages fails p50 < 1ms.
    const result = reportResult({ extraSlos: ["p50 < 1ms over 2s"] });
    const windowed = result.verdicts.find((v) => v.windows !== undefined)!;
    assert.equal(windowed.status, "fail", windowed.message);
    await using browser = await Chromium.launch({ widthPx: 1000 });
    const page = await openReport(browser, dir, result);
    const boxes = await page.evaluate<Array<{ slo: string; left: number; right: number }>>(
      `Chart.getChart(document.getElementById("chart-timeline-latency")).windowBoxes`,
    );
    assert.equal(boxes.length, 1, JSON.stringify(boxes));
    assert.equal(boxes[0].slo, "p50 < 1ms over 2s");
    const x = await page.evaluate<{ warmEnd: number; end: number }>(`(() => {
      const chart = Chart.getChart(document.getElementById("chart-timeline-latency"));
      return { warmEnd: chart.scales.x.getPixelForValue(1), end: chart.chartArea.right };
    })()`);
    // From the end of the warmup (the measured stages' first window) to the last window's end.
    assert.ok(Math.abs(boxes[0].left - x.warmEnd) < 2, `${boxes[0].left} vs ${x.warmEnd}`);
    assert.ok(boxes[0].right > boxes[0].left + 100);
    const caption = await page.evaluate<string>(
      `document.getElementById("timeline").textContent`,
    );
    assert.match(
      caption,
      /a red band along the foot marks the windows in which a windowed SLO failed/,
    );
    assert.deepEqual(problems(page.events), []);
    const plain = await openReport(browser, dir, reportResult());
    assert.deepEqual(
      await plain.evaluate(
        `Chart.getChart(document.getElementById("chart-timeline-latency")).windowBoxes`,
      ),
      [],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

browserTest(
  "renderHtml() shows an unexpected status's body as text on a 400 px page, wrapped, nothing run",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      const result = reportResult();
      const label = result.plan.requests[0].label;
      const hostile = `<img src=x onerror="window.pwned=1"></pre><script>window.pwned=1</script>`;
      result.unexpectedBodies = [
        { label, status: 401, atMs: 12, body: hostile, bodyBytes: hostile.length },
        // One unbroken line, 512 characters: wrapped, never widening the page.
        { label, status: 503, atMs: 40, body: "x".repeat(512), bodyBytes: 9_000, cut: true },
      ];
      await using browser = await Chromium.launch({ widthPx: 400 });
      const page = await openReport(browser, dir, result);
      const seen = await page.evaluate<
        { width: number; pwned: boolean; images: number; text: string }
      >(
        `({
          width: document.documentElement.scrollWidth,
          pwned: "pwned" in window,
          images: document.querySelectorAll("img").length,
          text: document.querySelector("#unexpected pre.body").textContent,
        })`,
      );
      assert.deepEqual(seen, { width: 400, pwned: false, images: 0, text: hostile });
      assert.deepEqual(problems(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "a report with times to first byte draws their p99 on the latency timeline, with no console error",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      await using browser = await Chromium.launch({ widthPx: 1200 });
      const result = writtenResult({}, { firstByte: true, rateLimited: true });
      const page = await openReport(browser, dir, result);
      assert.equal(await page.evaluate(`document.documentElement.dataset.charts`), "drawn");
      assert.deepEqual(problems(page.events), []);
      const labels = await page.evaluate<string[]>(
        `Chart.getChart(document.getElementById("chart-timeline-latency")).data.datasets.map((d) => d.label)`,
      );
      assert.ok(labels.includes("p99 time to first byte"), labels.join());
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "renderHtml() of a gRPC run reads its statuses by name and its protocol in Chromium",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      await using browser = await Chromium.launch();
      const page = await openReport(browser, dir, await judgedGrpcResult());
      const text = await page.evaluate<string>(`document.body.innerText`);
      assert.ok(text.includes("gRPC over h2c, HTTP/2 cleartext (h2c)"), text);
      assert.ok(text.includes("Statuses: OK × 38, UNAVAILABLE × 12."), text);
      assert.ok(text.includes("↳ Greeter/SayHello"), text);
      assert.ok(text.includes("↳ RouteGuide/ListFeatures\n64 messages per stream"), text);
      assert.equal(await page.evaluate(`document.documentElement.dataset.charts`), "drawn");
      assert.deepEqual(problems(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

browserTest(
  "renderHtml() lists the slowest requests under the percentile chart; a click selects a trace id",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-html-" });
    try {
      const result = withSlowest(reportResult(), true);
      result.stages[2].labels[1].slowest![1].traceId = HOSTILE;
      await using browser = await Chromium.launch({ widthPx: 400, heightPx: 800 });
      const page = await openReport(browser, dir, result);
      const seen = await page.evaluate<{
        below: boolean;
        lists: number;
        shown: number;
        rows: string[];
        exemplars: string;
        width: number;
        pwned: boolean;
      }>(`(() => {
        const chart = document.getElementById("chart-percentile").getBoundingClientRect();
        const lists = [...document.querySelectorAll("#percentiles details.slowest")];
        const climb = lists.find((d) => d.querySelector("summary").innerText.startsWith("Stage 3: climb · POST /order"));
        return {
          below: document.getElementById("slowest").getBoundingClientRect().top >= chart.bottom,
          lists: lists.length,
          shown: lists.filter((d) => d.querySelector("table").checkVisibility()).length,
          rows: [...climb.querySelectorAll("tbody tr")].slice(0, 2).map((r) => r.innerText),
          exemplars: climb.querySelector(".exemplars").innerText,
          width: document.documentElement.scrollWidth,
          pwned: "pwned" in window,
        };
      })()`);
      assert.equal(seen.below, true, "the list is under the chart");
      assert.equal(seen.lists, 6, "3 stages × 2 labels");
      assert.equal(seen.shown, 4, "the measured stages' lists are open, the warmup's closed");
      assert.match(
        seen.rows[0],
        new RegExp(`^1\\s+${traceIdOf(2, 1, 0)}\\s+\\d+\\.\\d{3} s\\s+29ms\\s+200$`),
      );
      assert.match(seen.rows[1], /^2\s+–\s+\d+\.\d{3} s\s+28.7ms\s+503$/, "a hostile id: left out");
      assert.ok(seen.exemplars.startsWith(`At its percentiles: p90: ${traceIdOf(2, 1, 9)} 26.3ms`));
      assert.equal(seen.width, 400, "nothing wider than the screen");
      assert.equal(seen.pwned, false);
      const gate = await page.evaluate<string>(
        `document.querySelector("table.gates .slowest-request").innerText`,
      );
      assert.ok(gate.startsWith(`Slowest request: ${traceIdOf(2, 1, 0)}, 29ms, sent at `), gate);

      // One click on a trace id selects all of it, ready to copy.
      const box = await page.evaluate<{ x: number; y: number }>(`(() => {
        const code = document.querySelector("#percentiles details.slowest[open] code.trace-id");
        code.scrollIntoView({ block: "center" });
        const r = code.getBoundingClientRect();
        return { x: r.left + 4, y: r.top + r.height / 2 };
      })()`);
      for (const type of ["mousePressed", "mouseReleased"]) {
        await page.send("Input.dispatchMouseEvent", {
          type,
          ...box,
          button: "left",
          clickCount: 1,
        });
      }
      assert.equal(await page.evaluate(`getSelection().toString()`), traceIdOf(1, 0, 0));
      assert.deepEqual(problems(page.events), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
