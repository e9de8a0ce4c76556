/**
 * One change point as a table row, shared by history.md and history.html: the metric and where it
 * was measured, step or trend, the change with its 95% interval, the levels before and after, the
 * commits it lies between, the runs on either side, its p-value and what else changed at that run.
 * Pure; text only, except the commits, which each format renders (short, the full SHA kept).
 *
 * @module
 */
import {
  changeFigure,
  type HistoryChange,
  type HistoryChangeDirection,
  type PlanHistory,
} from "../../runner/model/mod.ts";
import {
  historyValueText,
  runName,
  seriesPlace,
  signedPercent,
  signedPoints,
} from "./history_figures.ts";

/** A piece of a phrase: text, or a commit (its full SHA: each format shortens it). */
export type PhrasePart = { text: string } | { commit: string };

/** A change's cells, in words. */
export interface ChangeRow {
  /** `p99`, `throughput`, `error rate`. */
  metric: string;
  /** `stage steady [GET /a]`. */
  place: string;
  /** A step between two runs, or a trend over a span of runs. */
  kind: "step" | "trend";
  /** True for a change for the worse. */
  worse: boolean;
  /** Worse, better, or unclear: a 95% interval that includes no change. */
  direction: HistoryChangeDirection;
  /** True when the change lies within the newest `--fail-recent` runs. */
  recent: boolean;
  /** `rose 12%`, `fell 15% over 26 runs`, `changed by +0.2%`: the change without its interval. */
  movement: string;
  /** `rose 12% (95% interval +8.1% to +16%)`; an error rate's in points (`rose 0.2 points …`). */
  change: string;
  /** The levels: `5ms → 5.6ms`. */
  values: string;
  /** `near abc1234, between def5678 and abc1234` (a step) or `from … to …` (a trend). */
  commits: PhrasePart[];
  /** `40 / 20`: the runs the two levels hold. */
  runs: string;
  /** The change's p-value (two-sided); at the shuffles' floor, `≤` it and why. */
  pValue: string;
  /** What else changed at that run, or "–". */
  coincides: string;
}

/** The change table's columns, in the order of {@linkcode changeCells}. */
export const CHANGE_HEADER = [
  "metric",
  "where",
  "kind",
  "change (95% interval)",
  "before → after",
  "commit",
  "runs before / after",
  "p-value",
  "coincides with",
];

/**
 * A p-value as the tables print it: two significant digits, or `< 0.0001`; at the shuffle scan's
 * floor (`atFloor`), `≤` it, for it is the smallest p the shuffles can show, not a measure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pValueText } from "./change_row.ts";
 * assert.equal(pValueText(0.00042), "0.00042");
 * assert.equal(pValueText(3e-9), "< 0.0001");
 * assert.equal(pValueText(2 / 3000, true), "≤ 0.00067");
 * ```
 */
export function pValueText(pValue: number, atFloor = false): string {
  if (atFloor) return `≤ ${Number(pValue.toPrecision(2))}`;
  return pValue < 1e-4 ? "< 0.0001" : String(Number(pValue.toPrecision(2)));
}

/**
 * A change's p-value in words: {@linkcode pValueText}, and at the floor what the floor is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changePText } from "./change_row.ts";
 * assert.equal(
 *   changePText({ pValue: 2 / 3000, pAtFloor: true, shuffles: 2999 }),
 *   "≤ 0.00067 (the permutation floor: none of 2999 shuffles reached it)",
 * );
 * assert.equal(changePText({ pValue: 0.00031, pAtFloor: false }), "0.00031");
 * ```
 */
export function changePText(
  change: Pick<HistoryChange, "pValue"> & Partial<Pick<HistoryChange, "pAtFloor" | "shuffles">>,
): string {
  const text = pValueText(change.pValue, change.pAtFloor === true);
  if (change.pAtFloor !== true) return text;
  const none = change.shuffles === undefined
    ? "no shuffle reached it"
    : `none of ${change.shuffles} shuffles reached it`;
  return `${text} (the permutation floor: ${none})`;
}

/**
 * The row of one change of `plan`.
 */
export function changeRow(plan: PlanHistory, change: HistoryChange): ChangeRow {
  const series = plan.series[change.series];
  const unit = series?.unit ?? "us";
  const run = (i: number): PhrasePart => {
    const commit = i === change.index
      ? change.commit ?? plan.runs[i]?.commit
      : i === change.index - 1
      ? change.previousCommit ?? plan.runs[i]?.commit
      : plan.runs[i]?.commit;
    return commit ? { commit } : { text: runName(plan.runs[i], i) };
  };
  const figure = changeFigure(unit, change);
  const signed = figure.measure === "points" ? signedPoints : signedPercent;
  const word = figure.measure === "points" ? " points" : "";
  const rel = figure.value;
  // A document of version 1 has no direction: its `worse` was the estimate's sign.
  const way = change.direction ?? (change.worse ? "worse" : "better");
  const unclear = way === "unclear";
  const direction = unclear ? "changed by" : rel > 0 ? "rose" : rel < 0 ? "fell" : "moved";
  const amount = unclear ? signed(rel) : signed(Math.abs(rel)).replace("+", "");
  const size = Number.isFinite(rel) ? ` ${amount}${word}` : "";
  const span = change.kind === "trend" ? ` over ${change.endIndex - change.index + 1} runs` : "";
  const [low, high] = figure.interval95;
  const includes = unclear ? ", which includes no change" : "";
  const commits: PhrasePart[] = change.kind === "step"
    ? change.index > 0
      ? [
        { text: "near " },
        run(change.index),
        { text: ", between " },
        run(change.index - 1),
        { text: " and " },
        run(change.index),
      ]
      : [{ text: "at " }, run(change.index)]
    : [{ text: "from " }, run(change.index), { text: " to " }, run(change.endIndex)];
  return {
    metric: series === undefined ? "?" : series.metric.replace("_", " "),
    place: series === undefined ? `series ${change.series}` : seriesPlace(series),
    kind: change.kind,
    worse: way === "worse",
    direction: way,
    recent: change.recent,
    movement: `${direction}${size}${span}`,
    change: `${direction}${size}${span} (95% interval ${signed(low)} to ${signed(high)}${word}` +
      `${includes})`,
    values: `${historyValueText(change.meanBefore, unit)} → ${
      historyValueText(change.meanAfter, unit)
    }`,
    commits,
    runs: `${change.runsBefore} / ${change.runsAfter}`,
    pValue: changePText(change),
    coincides: change.coincides.length === 0 ? "–" : change.coincides.join("; "),
  };
}

/** What the kind cell adds for each direction: a better change needs no word. */
const KIND_NOTES = { worse: " (worse)", better: "", unclear: " (unclear)" } as const;

/**
 * A row's cells in {@linkcode CHANGE_HEADER}'s order, each text cell passed through `text` and the
 * commit phrase through `commit` (a format's escaping and its way of showing a commit).
 */
export function changeCells<T>(
  row: ChangeRow,
  text: (s: string) => T,
  commits: (parts: PhrasePart[]) => T,
): T[] {
  return [
    text(row.metric),
    text(row.place),
    text(`${row.kind}${KIND_NOTES[row.direction]}${row.recent ? ", recent" : ""}`),
    text(row.change),
    text(row.values),
    commits(row.commits),
    text(row.runs),
    text(row.pValue),
    text(row.coincides),
  ];
}
