/**
 * When two runs' stages compare: the same position in the plan, the same intended rate (from and
 * to) and the same duration. The regression gate compares only such stages, and a history holds
 * only runs whose measured stages all compare.
 *
 * @module
 */
import { formatRatePerSec } from "../plan/mod.ts";
import type { StoredRunStage } from "./history_types.ts";

/** The parts of a stage that decide whether it compares with another (and name it). */
export type StageShape = Pick<
  StoredRunStage,
  "index" | "name" | "warmup" | "fromPerSec" | "toPerSec" | "durationMs"
>;

/**
 * Whether stage `a` of one run compares with stage `b` of another.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stagesMatch } from "./stage_match.ts";
 * const s = { index: 1, name: "steady", warmup: false, fromPerSec: 100, toPerSec: 100, durationMs: 1000 };
 * assert.equal(stagesMatch(s, { ...s, name: "renamed" }), true);
 * assert.equal(stagesMatch(s, { ...s, durationMs: 2000 }), false);
 * ```
 */
export function stagesMatch(a: StageShape, b: StageShape): boolean {
  return a.index === b.index && a.fromPerSec === b.fromPerSec && a.toPerSec === b.toPerSec &&
    a.durationMs === b.durationMs;
}

/**
 * The measured (non-warmup) stages of `current` that no stage of `past` compares with, described
 * for a message ("steady (200/s for 10s)"); empty when every one has its match.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unmatchedStages } from "./stage_match.ts";
 * const s = { index: 0, name: "steady", warmup: false, fromPerSec: 100, toPerSec: 100, durationMs: 1000 };
 * assert.deepEqual(unmatchedStages([s], [{ ...s, fromPerSec: 50, toPerSec: 50 }]), ["steady (100/s for 1s)"]);
 * ```
 */
export function unmatchedStages(
  current: readonly StageShape[],
  past: readonly StageShape[],
): string[] {
  return current
    .filter((s) => !s.warmup && !past.some((p) => stagesMatch(s, p)))
    .map(describeStage);
}

/** "steady (100/s for 1s)", "climb (100/s -> 1k/s over 10s)". */
export function describeStage(s: StageShape): string {
  const seconds = `${Number((s.durationMs / 1000).toFixed(3))}s`;
  const rate = s.fromPerSec === s.toPerSec
    ? `${formatRatePerSec(s.fromPerSec)} for ${seconds}`
    : `${formatRatePerSec(s.fromPerSec)} -> ${formatRatePerSec(s.toPerSec)} over ${seconds}`;
  return `${s.name} (${rate})`;
}
