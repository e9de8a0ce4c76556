/**
 * The result's account of a templated plan's traffic: each data source (file, rows, order, how
 * many requests drew from it, whether it wrapped) and each var. Never a value.
 *
 * @module
 */
import type { TrafficRecord } from "../model/mod.ts";
import type { ResolvedPlan } from "../plan/mod.ts";

/**
 * The traffic record of a run of `plan`, from the engine's draw counts (one per data source).
 */
export function trafficRecord(
  plan: ResolvedPlan,
  rendered: { late: number; draws: readonly number[] } | undefined,
): TrafficRecord | undefined {
  const data = plan.data ?? [];
  const vars = plan.vars ?? [];
  if (data.length === 0 && vars.length === 0) return undefined;
  return {
    sources: data.map((d, s) =>
      usage({
        name: d.name,
        file: d.file,
        format: d.format,
        columns: [...d.columns],
        rows: d.rows,
        order: d.order,
        exhausted: d.exhausted,
      }, rendered?.draws[s] ?? 0)
    ),
    vars: vars.map((v) => ({ name: v.name, spec: v.text })),
    lateRenders: rendered?.late ?? 0,
  };
}

/**
 * A source's record with its draw count and what follows from it.
 */
export function usage(
  source: Omit<TrafficRecord["sources"][number], "draws" | "rowsUsed" | "wrapped">,
  draws: number,
): TrafficRecord["sources"][number] {
  if (source.order === "random") return { ...source, draws, wrapped: false };
  return { ...source, draws, rowsUsed: Math.min(draws, source.rows), wrapped: draws > source.rows };
}
