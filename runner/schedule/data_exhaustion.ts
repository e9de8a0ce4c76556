/**
 * How many rows the schedule takes from each data source, counted from the plan before anything
 * is sent: a `sequence` or `shuffle` source that would run out is a located plan error when it
 * says `exhausted: error`, and otherwise wraps (said by `tailgate check`).
 *
 * @module
 */
import type { PlanIssue, RequestBasics, ResolvedPlan } from "../plan/mod.ts";
import { mixLabels } from "../plan/runtime/mod.ts";
import { planSchedule } from "./plan_schedule.ts";
import { dataDemand, type DataUse } from "./data_rows.ts";
import { refOwner, requestRefs } from "../plan/runtime/mod.ts";

/** One source's demand over the whole schedule (every shard and worker together). */
export interface SourceDemand {
  name: string;
  file: string;
  rows: number;
  order: "sequence" | "random" | "shuffle";
  /** Requests of the schedule that draw a row from the source. */
  draws: number;
}

/**
 * Each data source's demand, and an error for each `exhausted: error` source the schedule would
 * run past the end of.
 */
export function dataExhaustion(
  plan: ResolvedPlan,
): { demand: SourceDemand[]; issues: PlanIssue[] } {
  const data = plan.data ?? [];
  if (data.length === 0) return { demand: [], issues: [] };
  const mix = mixLabels(plan);
  const schedule = planSchedule(plan, mix);
  // Rows are drawn per entry: a journey takes one row for all its steps.
  const entries: RequestBasics[][] = [
    ...plan.requests.map((r) => [r]),
    ...(plan.journeys ?? []).map((j) => j.steps),
  ];
  const uses: DataUse[] = data.map((d) => ({
    order: d.order,
    rows: d.rows,
    labels: entries.flatMap((requests, e) =>
      requests.some((r) => requestRefs(r).some((ref) => refOwner(ref) === d.name)) ? [e] : []
    ),
  }));
  const draws = dataDemand(mix.entryWeights, uses, schedule.totalCount);
  const demand = data.map((d, s) => ({
    name: d.name,
    file: d.file,
    rows: d.rows,
    order: d.order,
    draws: draws[s],
  }));
  const issues: PlanIssue[] = data.flatMap((d, s): PlanIssue[] =>
    d.exhausted === "error" && d.order !== "random" && draws[s] > d.rows
      ? [{
        severity: "error",
        file: plan.file,
        path: `data.${d.name}`,
        line: d.line,
        col: d.col,
        length: d.name.length,
        message: `the schedule takes ${count(draws[s])} rows of \`${d.name}\`, but \`${d.file}\` ` +
          `holds ${count(d.rows)} (\`exhausted: error\`)`,
        hint: "add rows, shorten or slow the stages, or set `exhausted: wrap` to start again",
      }]
      : []
  );
  return { demand, issues };
}

/**
 * One line per source for `tailgate check`: how many rows the schedule takes, and whether it wraps.
 */
export function demandLine(d: SourceDemand): string {
  const head = `data ${d.name} (${d.file}, ${count(d.rows)} rows, ${d.order})`;
  if (d.order === "random") return `${head}: ${count(d.draws)} random draws`;
  const passes = Number((d.draws / d.rows).toPrecision(3));
  const wraps = d.draws > d.rows ? `: ${passes} passes over the file (it wraps)` : "";
  return `${head}: the schedule takes ${count(d.draws)} rows${wraps}`;
}

function count(n: number): string {
  return n.toLocaleString("en");
}
