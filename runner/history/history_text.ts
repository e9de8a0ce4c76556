/**
 * The baseline file's text: the header and each stored run on a line of its own, so appending a
 * run changes a few lines (a diff reviewers and git's deltas take in at a glance) and the file
 * is about a fifth smaller than indented JSON; and the long history trimmed, oldest first, to
 * what a reader accepts. Pure.
 *
 * @module
 */
import type { HistoryFile } from "./history_types.ts";

/**
 * `baseline` as the file holds it: valid JSON, one run or history entry a line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyText } from "./history_text.ts";
 * const text = historyText({ schema: "tailgate/baseline", version: 2, plan: "shop", runs: [], history: [] });
 * assert.deepEqual(JSON.parse(text), { schema: "tailgate/baseline", version: 2, plan: "shop", runs: [], history: [] });
 * ```
 */
export function historyText(baseline: HistoryFile): string {
  const { runs, history, ...header } = baseline;
  const head = Object.entries(header).map(([k, v]) =>
    ` ${JSON.stringify(k)}: ${JSON.stringify(v)}`
  );
  const list = (items: readonly unknown[]) =>
    items.length === 0 ? "[]" : `[\n${items.map((i) => `  ${JSON.stringify(i)}`).join(",\n")}\n ]`;
  return `{\n${
    [...head, ` "runs": ${list(runs)}`, ` "history": ${list(history)}`].join(",\n")
  }\n}\n`;
}

/**
 * `baseline` with the oldest history entries dropped until its text is at most `maxBytes` (the
 * newest entry is always kept), and how many were dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitHistory } from "./history_text.ts";
 * const entry = (date: string) => ({ date, runner: "r", plan: "p", environment: {}, stages: [] });
 * const file = { schema: "tailgate/baseline", version: 2, plan: "shop", runs: [], history: ["1", "2", "3"].map(entry) } as never;
 * assert.equal(fitHistory(file, 10).dropped, 2);
 * assert.equal(fitHistory(file, 1e6).dropped, 0);
 * ```
 */
export function fitHistory(
  file: HistoryFile,
  maxBytes: number,
): { file: HistoryFile; dropped: number } {
  const bytes = (s: string) => new TextEncoder().encode(s).length;
  let total = bytes(historyText(file));
  let dropped = 0;
  const { history } = file;
  // Each entry is one line of the text: its JSON, two spaces, and a comma and a newline.
  while (total > maxBytes && dropped < history.length - 1) {
    total -= bytes(JSON.stringify(history[dropped])) + 4;
    dropped++;
  }
  return dropped === 0
    ? { file, dropped }
    : { file: { ...file, history: history.slice(dropped) }, dropped };
}
