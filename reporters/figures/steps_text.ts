/**
 * A run's setup and teardown steps as table rows, for the Markdown and HTML reports: each step's
 * request, status, time and what it captured (names and where from; the values are never stored).
 *
 * @module
 */
import type { StepRecord } from "../../runner/model/mod.ts";

/** The columns of {@linkcode stepRows}. */
export const STEP_COLUMNS = ["step", "request", "status", "time", "captured"] as const;

/**
 * One row per step: `setup: login`, `POST http://…/login`, `200`, `12.3 ms`, `token (json
 * /access_token)`; a failed step's status names its problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stepRows } from "./steps_text.ts";
 * assert.deepEqual(
 *   stepRows([{ section: "setup", name: "login", method: "POST", url: "http://h/login", status: 200,
 *     durationMs: 12.3, ok: true, captures: [{ name: "token", from: "json /access_token" }] }]),
 *   [["setup: login", "POST http://h/login", "200", "12.3 ms", "token (json /access_token)"]],
 * );
 * ```
 */
export function stepRows(steps: readonly StepRecord[]): string[][] {
  return steps.map((s) => [
    `${s.section}: ${s.name}`,
    `${s.method} ${s.url}`,
    `${s.status ?? "no answer"}${s.ok ? "" : ` ✗ ${s.problem ?? "failed"}`}`,
    `${s.durationMs.toFixed(1)} ms`,
    s.captures.map((c) => `${c.name} (${c.from})`).join(", ") || "–",
  ]);
}

/** What the steps section says before its table. */
export const STEPS_INTRO = "Sent once, before the first stage (setup) and after the last " +
  "(teardown); not measured, never in the latency figures. Captured values are secret: only " +
  "their names and where they came from are kept.";
