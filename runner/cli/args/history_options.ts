/**
 * `tailgate history`'s settings flags read into `HistorySettings`: `--fail-recent`, `--window`,
 * `--last`, `--since`, `--p-value` and `--min-change`, each checked, every problem named. Pure.
 *
 * @module
 */
import type { HistorySettings } from "../../model/mod.ts";
import { err, ok, type Problem, problem, type Result } from "../../model/mod.ts";
import { MIN_HISTORY_RUNS } from "../../gates/mod.ts";

/** The settings the flags give, and what the user should know of how they were read. */
export interface HistoryOptionsRead {
  settings: Partial<HistorySettings>;
  notes: string[];
}

/** The largest `--min-change`: 1000%, a factor of 11 either way. */
const MAX_MIN_CHANGE_PERCENT = 1000;

/**
 * `--min-change`: a percentage, `5%`, or a bare number read as one (`5` is 5%, `0.5` is 0.5%),
 * from 0 to below 1000% (a fall counts by the same factor as a rise, so 100% is a halving as well
 * as a doubling). A bare number below 1 is read as percent too, and a note says so (`0.05` is
 * 0.05%, not 5%).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readMinChange } from "./history_options.ts";
 * assert.deepEqual(readMinChange("1"), { ok: true, value: { fraction: 0.01 } });
 * assert.deepEqual(readMinChange("2.5%"), { ok: true, value: { fraction: 0.025 } });
 * assert.equal(readMinChange("-1").ok, false);
 * ```
 */
export function readMinChange(text: string): Result<{ fraction: number; note?: string }> {
  const m = /^(\d+(?:\.\d+)?|\.\d+)(%?)$/.exec(text.trim());
  const percent = m ? Number(m[1]) : NaN;
  if (!(percent >= 0 && percent < MAX_MIN_CHANGE_PERCENT)) {
    return err(problem(
      `--min-change \`${text}\` is not a percentage from 0% to below ${MAX_MIN_CHANGE_PERCENT}%`,
      "give e.g. 5% or 5 (a bare number is read as percent)",
    ));
  }
  const fraction = percent / 100;
  if (m![2] === "" && percent > 0 && percent < 1) {
    return ok({
      fraction,
      note: `--min-change ${text} is read as ${percent}% (a bare number is percent): for ` +
        `${+(percent * 100).toPrecision(3)}% write ${+(percent * 100).toPrecision(3)}%`,
    });
  }
  return ok({ fraction });
}

/** The largest `--window`: a first-pass window's work grows with the square of its runs. */
export const MAX_WINDOW_RUNS = 2_000;

/**
 * The settings of `values` (parseArgs' strings by flag name), or every problem with them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readHistoryOptions } from "./history_options.ts";
 * const read = readHistoryOptions({ "fail-recent": "5", "min-change": "1" });
 * assert.deepEqual(read, { ok: true, value: { settings: { failRecent: 5, minMagnitude: 0.01 }, notes: [] } });
 * ```
 */
export function readHistoryOptions(
  values: Record<string, string | undefined>,
): Result<HistoryOptionsRead> {
  const problems: Problem[] = [];
  const notes: string[] = [];
  const settings: Partial<HistorySettings> = {};
  const whole = (flag: string, min: number, max = Infinity): number | undefined => {
    const text = values[flag];
    if (text === undefined) return undefined;
    const n = Number(text);
    if (/^\d+$/.test(text) && n >= min && n <= max) return n;
    const range = max === Infinity
      ? `at least ${min}`
      : `from ${min} to ${max.toLocaleString("en")}`;
    problems.push(problem(`--${flag} \`${text}\` is not a whole number of runs, ${range}`));
  };
  const failRecent = whole("fail-recent", 0);
  if (failRecent !== undefined) settings.failRecent = failRecent;
  // A window's first pass holds a split statistic per pair of its runs (its memory grows with the
  // square) and cannot stop midway: 2,000 runs keep it to seconds and tens of MB.
  const window = whole("window", 4, MAX_WINDOW_RUNS);
  if (window !== undefined) settings.windowRuns = window;
  const last = whole("last", MIN_HISTORY_RUNS);
  if (last !== undefined) settings.lastRuns = last;
  const since = values.since;
  if (since !== undefined) {
    if (/^[\w./-]+$/.test(since)) settings.sinceCommit = since;
    else problems.push(problem(`--since \`${since}\` is not a commit, e.g. --since 9fceb02`));
  }
  const p = values["p-value"];
  if (p !== undefined) {
    const n = Number(p);
    // The shuffle test resolves p-values down to 1 in 100 000: a smaller one could never pass.
    if (p.trim() !== "" && n >= 0.0001 && n < 0.5) settings.maxPValue = n;
    else {
      problems.push(
        problem(`--p-value \`${p}\` is not a probability from 0.0001 to below 0.5, e.g. 0.001`),
      );
    }
  }
  const change = values["min-change"];
  if (change !== undefined) {
    const read = readMinChange(change);
    if (!read.ok) problems.push(...read.problems);
    else {
      settings.minMagnitude = read.value.fraction;
      if (read.value.note) notes.push(read.value.note);
    }
  }
  return problems.length ? err(problems) : ok({ settings, notes });
}
