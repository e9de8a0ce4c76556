/**
 * What a plan's teardown did, and the result document with it: the teardown runs after the
 * result is built (`tailgate run` writes it and the reports first), so its steps and warnings
 * are kept apart ({@linkcode TeardownDone}) and joined to the document in one place,
 * {@linkcode withTeardown}, never patched into the result.
 *
 * @module
 */
import type { RunResult, StepRecord } from "../model/mod.ts";

/** What a plan's teardown did (`MeasuredRun.teardown`, measure_plan.ts). */
export interface TeardownDone {
  /** It added steps or warnings to the result. */
  changed: boolean;
  /** A stop cut it short. */
  stopped: boolean;
  /** The teardown's steps, as they were sent, in order. */
  records: StepRecord[];
  /** Its warnings (a step that failed or was stopped). */
  warnings: string[];
}

/**
 * The result document with the teardown's steps after setup's and its warnings after the
 * result's; `result` itself when the teardown added nothing. `result` is left as it was.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { RunResult } from "../model/run_result.ts";
 * import { withTeardown } from "./teardown_done.ts";
 * const result = { verdicts: [], warnings: ["late"] } as unknown as RunResult;
 * const done = { changed: true, stopped: false, records: [], warnings: ["step 1 failed"] };
 * assert.deepEqual(withTeardown(result, done).warnings, ["late", "step 1 failed"]);
 * assert.deepEqual(result.warnings, ["late"]);
 * assert.equal(withTeardown(result, { ...done, changed: false, warnings: [] }), result);
 * ```
 */
export function withTeardown(result: RunResult, done: TeardownDone): RunResult {
  if (!done.changed) return result;
  return {
    ...result,
    steps: [...result.steps ?? [], ...done.records],
    ...(done.warnings.length ? { warnings: [...result.warnings ?? [], ...done.warnings] } : {}),
  };
}
