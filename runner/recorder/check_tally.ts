/**
 * How often each check of each label was evaluated and failed, per stage (docs/result-format.md,
 * `checks`): counted at completion from the engine's per-check record, added across workers and
 * shards.
 *
 * @module
 */
import type { CheckResult } from "../model/mod.ts";

/** A check as the plan names it: its text and line. */
export interface CheckName {
  text: string;
  line: number;
}

/**
 * Counts per stage, label and check.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CheckTally } from "./check_tally.ts";
 * const tally = new CheckTally(1, [[{ text: "/id exists", line: 7 }]]);
 * tally.add(0, 0, Uint8Array.of(1));
 * tally.add(0, 0, Uint8Array.of(0));
 * assert.deepEqual(tally.of(0, 0), [{ text: "/id exists", line: 7, evaluated: 2, failed: 1 }]);
 * ```
 */
export class CheckTally {
  readonly #names: readonly (readonly CheckName[] | undefined)[];
  /** Per stage, per label: evaluations (one count), then failures per check. */
  readonly #counts: (Float64Array | undefined)[][];

  /**
   * @param stages How many stages the run has.
   * @param names Each label's checks (by label index); undefined for a label without any.
   */
  constructor(stages: number, names: readonly (readonly CheckName[] | undefined)[]) {
    this.#names = names;
    this.#counts = Array.from(
      { length: stages },
      () => names.map((n) => n?.length ? new Float64Array(1 + n.length) : undefined),
    );
  }

  /** A response of `labelIndex` in `stageIndex` was checked: `failed[i]` 1 when check i failed. */
  add(stageIndex: number, labelIndex: number, failed: Uint8Array): void {
    const counts = this.#counts[stageIndex][labelIndex];
    if (counts === undefined) return;
    counts[0]++;
    for (let i = 0; i < failed.length; i++) counts[1 + i] += failed[i];
  }

  /** The label's checks in the stage, or undefined for a label without checks. */
  of(stageIndex: number, labelIndex: number): CheckResult[] | undefined {
    const counts = this.#counts[stageIndex][labelIndex];
    const names = this.#names[labelIndex];
    if (counts === undefined || names === undefined) return undefined;
    return names.map((n, i) => ({
      text: n.text,
      line: n.line,
      evaluated: counts[0],
      failed: counts[1 + i],
    }));
  }
}

/**
 * The checks of one label as several records counted them (workers, shards): added by position
 * (the same plan, so the same checks); undefined when none has any.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeChecks } from "./check_tally.ts";
 * const a = [{ text: "body contains ok", line: 3, evaluated: 5, failed: 1 }];
 * const b = [{ text: "body contains ok", line: 3, evaluated: 4, failed: 2 }];
 * assert.deepEqual(mergeChecks([a, b, undefined])?.[0].failed, 3);
 * ```
 */
export function mergeChecks(
  parts: readonly (readonly CheckResult[] | undefined)[],
): CheckResult[] | undefined {
  const first = parts.find((p) => p !== undefined);
  if (first === undefined) return undefined;
  return first.map((c, i) => ({
    text: c.text,
    line: c.line,
    evaluated: parts.reduce((n, p) => n + (p?.[i]?.evaluated ?? 0), 0),
    failed: parts.reduce((n, p) => n + (p?.[i]?.failed ?? 0), 0),
  }));
}
