/**
 * The checks of a run in words, one line per check and label over the measured stages (warmup
 * left out; every stage when all are warmup): "12 of 5,000 `/state == open` failed on
 * `POST /orders`", the checks that failed first (most failures first), then the rest in the
 * plan's order; at most {@linkcode CHECK_LINES_SHOWN}. None for a plan without checks, so its
 * reports read as before.
 *
 * @module
 */
import type { CheckResult, RunResult } from "../../runner/model/mod.ts";

/** The most check lines a report lists. */
export const CHECK_LINES_SHOWN = 20;

/**
 * The check lines of `result`, and how many were left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkLines } from "./check_lines.ts";
 * const checks = [{ text: "/state == open", line: 9, evaluated: 5000, failed: 12 }];
 * const result = { stages: [{ warmup: false, labels: [{ label: "POST /orders", checks }] }] };
 * assert.deepEqual(checkLines(result as never).lines, ["12 of 5,000 `/state == open` failed on `POST /orders`"]);
 * ```
 */
export function checkLines(
  result: Pick<RunResult, "stages">,
  shown = CHECK_LINES_SHOWN,
): { lines: string[]; items: CheckLine[]; hidden: number } {
  const measured = result.stages.filter((s) => !s.warmup);
  const stages = measured.length > 0 ? measured : result.stages;
  const totals = new Map<string, CheckResult & { label: string; order: number }>();
  for (const s of stages) {
    for (const l of s.labels) {
      (l.checks ?? []).forEach((c, i) => {
        const key = `${l.label}\u0000${i}`;
        const t = totals.get(key) ??
          { ...c, evaluated: 0, failed: 0, label: l.label, order: totals.size };
        t.evaluated += c.evaluated;
        t.failed += c.failed;
        totals.set(key, t);
      });
    }
  }
  const all = [...totals.values()].sort((a, b) => b.failed - a.failed || a.order - b.order);
  const count = (n: number) => n.toLocaleString("en-US");
  const items = all.slice(0, shown).map((c) => ({
    failed: count(c.failed),
    evaluated: count(c.evaluated),
    text: c.text,
    label: c.label,
  }));
  const lines = items.map((c) =>
    `${c.failed} of ${c.evaluated} \`${c.text}\` failed on \`${c.label}\``
  );
  return { lines, items, hidden: Math.max(0, all.length - shown) };
}

/** One check line's parts, its counts written out (`5,000`), for a format that marks them up. */
export interface CheckLine {
  failed: string;
  evaluated: string;
  text: string;
  label: string;
}
