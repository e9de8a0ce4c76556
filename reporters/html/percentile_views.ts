/**
 * The latency-by-percentile chart's data: one view for the measured stages merged (warmup left
 * out) when there are several, then one per stage, warmup stages last. Each view holds the corrected response time and the service time,
 * the baseline's when the result carries one, and the latency SLOs that apply as markers.
 *
 * @module
 */
import { storedSlos } from "../../runner/result/read/mod.ts";
import { createHistogram, type Histogram } from "../../runner/hdr/mod.ts";
import { decodeHistogram } from "../../runner/hdr/mod.ts";
import type { LatencyPair, RunResult } from "../../runner/model/mod.ts";
import { type PercentileAxis, percentileAxis, percentileCurve, percentileX } from "../page/mod.ts";
import type {
  PercentileChartData,
  PercentileRole,
  PercentileSeries,
  PercentileView,
  SloMarker,
} from "../browser/mod.ts";

/**
 * Builds the views from the result's histograms (decoded and merged exactly).
 */
export function percentileViews(result: RunResult): PercentileChartData {
  const measured = result.stages.filter((s) => !s.warmup);
  const groups: Array<{ title: string; stageIndexes: number[] }> = [];
  if (measured.length > 1) {
    groups.push({
      title: "All measured stages (warmup excluded)",
      stageIndexes: measured.map((s) => s.index),
    });
  }
  // Measured stages first: the first view is the one shown, and warmup is not what is judged.
  const ordered = [...measured, ...result.stages.filter((s) => s.warmup)];
  for (const s of ordered) {
    groups.push({
      title: `Stage ${s.index + 1}: ${s.name}${s.warmup ? " (warmup)" : ""}`,
      stageIndexes: [s.index],
    });
  }
  const pairs = groups.map((g) => ({
    ...g,
    current: mergePairs(result.stages.filter((s) => g.stageIndexes.includes(s.index))),
    baseline: mergePairs(
      (result.baseline?.stages ?? []).filter((s) => g.stageIndexes.includes(s.index)),
    ),
  }));
  const largest = Math.max(0, ...pairs.map((p) => p.current.response.totalCount));
  // The axis reaches the finest percentile an SLO names (`1 / (1 − p)` values resolve it), so the
  // SLO's marker stands at that percentile, not on `max` or past the chart's edge.
  const axis = percentileAxis(Math.max(largest, ...sloPercentileXs(result)));
  const markers = sloMarkers(result, axis);
  const baselineNote = result.baseline === undefined
    ? ""
    : ` (${result.baseline.date.slice(0, 10)}${
      result.baseline.gitSha ? ` ${result.baseline.gitSha.slice(0, 8)}` : ""
    })`;
  const views = pairs.map((p): PercentileView => {
    const series: PercentileSeries[] = [
      { role: "response", label: "response time (corrected)", h: p.current.response },
      { role: "service", label: "service time", h: p.current.service },
      {
        role: "baselineResponse",
        label: `baseline response time${baselineNote}`,
        h: p.baseline.response,
      },
      {
        role: "baselineService",
        label: `baseline service time${baselineNote}`,
        h: p.baseline.service,
      },
    ].filter((s) => s.h.totalCount > 0).map(({ role, label, h }) => ({
      role: role as PercentileRole,
      label,
      points: percentileCurve(h, axis),
    }));
    const slos = markers.filter((m) =>
      m.stageIndexes.length === 0 || m.stageIndexes.some((i) => p.stageIndexes.includes(i))
    ).map(({ stageIndexes: _, ...m }) => m);
    return { title: p.title, stageIndexes: p.stageIndexes, series, slos };
  });
  return { axis, views };
}

function mergePairs(parts: readonly LatencyPair[]): { response: Histogram; service: Histogram } {
  const response = createHistogram();
  const service = createHistogram();
  for (const part of parts) {
    response.add(decodeHistogram(part.response.hdr));
    service.add(decodeHistogram(part.service.hdr));
  }
  return { response, service };
}

function sloMarkers(
  result: RunResult,
  axis: PercentileAxis,
): Array<SloMarker & { stageIndexes: number[] }> {
  return storedSlos(result.plan).flatMap(({ text, line, parsed }) => {
    if (!parsed.ok) return [];
    const { metric, bound } = parsed.value;
    const x = metric.kind === "percentile"
      ? percentileX(metric.percentile)
      : metric.kind === "max"
      ? axis.maxX
      : undefined;
    // A percentile finer than the axis' six nines has no place left of `max`.
    if (x === undefined || (metric.kind === "percentile" && x >= axis.maxX)) return [];
    const verdict = result.verdicts.find((v) => v.kind === "slo" && v.line === line);
    return [{
      name: verdict?.name ?? text.trim(),
      status: verdict?.status ?? "not judged",
      x,
      boundMs: bound / 1000,
      stageIndexes: verdict?.stageIndexes ?? [],
    }];
  });
}

function sloPercentileXs(result: RunResult): number[] {
  return storedSlos(result.plan).flatMap(({ parsed }) => {
    return parsed.ok && parsed.value.metric.kind === "percentile"
      ? [percentileX(parsed.value.metric.percentile)]
      : [];
  });
}
