/**
 * Re-judges stored A/B comparisons (`ab.json`) by this checkout's paired rule: the same rounds'
 * figures, today's floors. For a study whose A/Bs ran before a change of the floors (issue 41's
 * verdict study: docs/decisions/verdicts_on_a_shared_runner.md), so each comparison need not be run
 * again to see what the landed rule decides on the same measurements.
 *
 * Per check it rebuilds the paired input from the stored `base` and `head` figures. The floor is
 * the metric's documented minimum, raised by the rounds' spread as `tailgate ab` raises it (capped
 * where it caps it). A tail's measured floor counts only when it had set the stored floor, and is
 * recovered from it then; otherwise the stored floor was at least as large, so the measured floor
 * cannot decide. It prints one line per A/B: the stored and the re-judged status of each check that
 * changed, and of the comparisons as a whole (SLOs are not re-judged: their rule did not change).
 *
 *     deno run --allow-read bench/verdict/rejudge_ab.ts DIR...   # folders of ab.json files
 *
 * @module
 */
import { AB_MIN_FLOORS, TAIL_SPREAD_CAP } from "../../runner/gates/ab/mod.ts";
import { judgePaired, type PairedCheck } from "../../runner/gates/ab/paired_comparison.ts";
import {
  DEFAULT_REGRESSION_FLOORS,
  isTailMetric,
  type RegressionMetric,
} from "../../runner/gates/regression/mod.ts";
import type { AbComparison, AbResult } from "../../runner/model/ab_result.ts";
import { median, worstStatus } from "../../runner/result/read/mod.ts";

/** The paired input of one stored check, as `tailgate ab` builds it at today's defaults. */
function checkOf(c: AbComparison): PairedCheck {
  const metric = c.metric as RegressionMetric;
  const floor = AB_MIN_FLOORS[metric] ?? c.floor;
  const tail = isTailMetric(metric);
  return {
    base: c.base,
    head: c.head,
    scale: metric === "error_rate" ? "difference" : "ratio",
    higherIsWorse: metric !== "throughput",
    floor,
    floorFromSpread: true,
    spreadCap: Math.max(
      floor,
      tail ? TAIL_SPREAD_CAP : DEFAULT_REGRESSION_FLOORS[metric] ?? Infinity,
    ),
    ...(tail && c.floorSource === "measured" ? { absoluteFloor: c.floor * median(c.base) } : {}),
  };
}

const files: string[] = [];
for (const dir of Deno.args) {
  for (const e of Deno.readDirSync(dir)) {
    if (e.isFile && e.name.endsWith(".json")) files.push(`${dir}/${e.name}`);
  }
}
if (files.length === 0) {
  console.error("rejudge_ab: name one or more folders of ab.json files");
  Deno.exit(2);
}
for (const file of files.sort()) {
  const ab = JSON.parse(Deno.readTextFileSync(file)) as AbResult;
  // Plan-named floors are the plan's: only the defaults' checks are re-judged.
  const defaults = ab.comparisons.every((c) => c.floorSource !== undefined);
  const outcomes = defaults
    ? judgePaired(ab.comparisons.map(checkOf))
    : ab.comparisons.map((c) => ({ status: c.status, floor: c.floor }));
  const changed = ab.comparisons.flatMap((c, i) =>
    c.status === outcomes[i].status ? [] : [
      `${c.metric} ${c.status} → ${outcomes[i].status} (floor ${
        (outcomes[i].floor * 100).toFixed(1)
      }%)`,
    ]
  );
  const before = worstStatus(ab.comparisons.map((c) => c.status));
  const after = worstStatus(outcomes.map((o) => o.status));
  console.log(
    `${file.split("/").pop()}: comparisons ${before} → ${after}` +
      (changed.length ? `; ${changed.join("; ")}` : "") +
      (defaults ? "" : " (the plan's floors: not re-judged)"),
  );
}
