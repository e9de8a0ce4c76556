/**
 * What history.html draws, pure: per plan its runs (each labelled by its short commit, or its
 * date), and one chart per stage, label and kind of metric: the latency percentiles together (in
 * ms), throughput (per second) and the error rate (in percent) each alone. Each chart carries its
 * change points (the run a step lies at, a trend's span; worse, better or unclear) and its SLO
 * bounds.
 * Null values stay null: the chart leaves a gap.
 *
 * @module
 */
import type {
  HistoryChange,
  HistoryMetric,
  HistoryReport,
  HistorySeries,
  HistoryUnit,
  PlanHistory,
} from "../../runner/model/mod.ts";
import type {
  HistoryChart,
  HistoryChartData,
  HistoryMark,
  HistoryPlanCharts,
} from "../browser/mod.ts";
import { changeRow } from "./change_row.ts";
import { runDateText } from "./history_figures.ts";
import { shortCommit } from "../../runner/model/mod.ts";

const AXIS_ORDER = ["latency", "throughput", "error_rate"] as const;

function axisOf(metric: HistoryMetric): HistoryChart["axis"] {
  return metric === "throughput" || metric === "error_rate" ? metric : "latency";
}

/** A value in the chart's display unit: ms, per second, percent. */
function display(value: number | null, unit: HistoryUnit): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  return unit === "us" ? value / 1000 : unit === "fraction" ? value * 100 : value;
}

function planCharts(plan: PlanHistory, planIndex: number): HistoryPlanCharts {
  const groups = new Map<string, { first: HistorySeries; members: number[] }>();
  plan.series.forEach((s, i) => {
    const key = JSON.stringify([s.stageIndex, s.label ?? null, axisOf(s.metric)]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { first: s, members: [i] });
    else group.members.push(i);
  });
  const ordered = [...groups.values()].sort((a, b) =>
    a.first.stageIndex - b.first.stageIndex ||
    (a.first.label === undefined ? -1 : 0) - (b.first.label === undefined ? -1 : 0) ||
    (a.first.label ?? "").localeCompare(b.first.label ?? "") ||
    AXIS_ORDER.indexOf(axisOf(a.first.metric)) - AXIS_ORDER.indexOf(axisOf(b.first.metric))
  );
  const charts = ordered.map(({ first, members }, c): HistoryChart => {
    const axis = axisOf(first.metric);
    const series = members.map((i) => plan.series[i]);
    return {
      id: `history-${planIndex}-${c}`,
      title: [
        `stage ${first.stage}`,
        first.label ?? "all requests",
        axis === "error_rate" ? "error rate" : axis,
      ].join(" · "),
      axis,
      lines: series.map((s) => ({
        metric: s.metric,
        values: s.values.map((v) => display(v, s.unit)),
      })),
      marks: chartMarks(plan, plan.changes.filter((ch) => members.includes(ch.series))),
      bounds: series.flatMap((s) => {
        const value = s.bound === undefined ? null : display(s.bound.value, s.unit);
        return value === null ? [] : [{ metric: s.metric, value, text: s.bound!.slo }];
      }),
    };
  });
  return {
    plan: plan.plan,
    runs: plan.runs.map((r) => ({
      tick: r.commit ? shortCommit(r.commit) : runDateText(r.date).slice(0, 10),
      ...(r.commit ? { commit: shortCommit(r.commit) } : {}),
      ...(r.branch ? { branch: r.branch } : {}),
      date: runDateText(r.date),
    })),
    charts,
  };
}

/**
 * A chart's marks: the changes at the same runs, of the same kind and direction, are one mark, so
 * four percentiles stepping together make one line with one label, not four labels on top of
 * each other.
 */
function chartMarks(plan: PlanHistory, changes: readonly HistoryChange[]): HistoryMark[] {
  const marks = new Map<string, HistoryMark & { movements: string[] }>();
  for (const ch of changes) {
    const endIndex = ch.kind === "trend" ? ch.endIndex : ch.index;
    const row = changeRow(plan, ch);
    const key = JSON.stringify([ch.kind, row.direction, ch.index, endIndex]);
    const metric = plan.series[ch.series].metric;
    const movement = row.movement;
    const mark = marks.get(key) ??
      {
        kind: ch.kind,
        worse: row.worse,
        direction: row.direction,
        metrics: [],
        index: ch.index,
        endIndex,
        text: "",
        movements: [],
      };
    mark.metrics.push(metric);
    mark.movements.push(movement);
    marks.set(key, mark);
  }
  return [...marks.values()].map(({ movements, ...mark }) => ({
    ...mark,
    text: movements.every((m) => m === movements[0])
      ? `${mark.metrics.join(", ")} ${movements[0]}`
      : mark.metrics.map((m, i) => `${m} ${movements[i]}`).join("; "),
  }));
}

/**
 * Builds the page's chart data.
 */
export function historyChartData(report: HistoryReport): HistoryChartData {
  return { plans: report.plans.map(planCharts) };
}
