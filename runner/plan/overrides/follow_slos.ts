/**
 * How an SLO follows its stages when a command line changes them (runner/plan/overrides/plan_overrides.ts).
 * The SLO is bound to the stages it judged as written, by index; when all of them moved by one
 * ratio, its `at` rate and a `throughput` bound move with them; when an override moved only some
 * apart, the SLO judges fewer stages and a warning says which. The typed SLO is what follows; its
 * text is rewritten only so that reports and `--print-plan` show what runs. Pure.
 *
 * @module
 */
import { join } from "../read/mod.ts";
import { parseSlo, type SloFollow, stagesForSlo } from "../slo/mod.ts";
import type { PlanStage, Slo, StageBinding } from "../types.ts";
import { rateText } from "../units.ts";
import type { OverrideEdit } from "./override_edit.ts";

/**
 * The SLO text with its `at` rate or `throughput` bound replaced (an absent one is left as
 * written); the label (`for "…"`) is free text and never rewritten.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rewriteSloRates } from "./follow_slos.ts";
 * assert.equal(
 *   rewriteSloRates('p99 < 10ms at 20k/s for "GET /at 1k/s"', "5k/s"),
 *   'p99 < 10ms at 5k/s for "GET /at 1k/s"',
 * );
 * assert.equal(
 *   rewriteSloRates("throughput >= 19.5k/s", undefined, "4.875k/s"),
 *   "throughput >= 4.875k/s",
 * );
 * ```
 */
export function rewriteSloRates(text: string, atRate?: string, bound?: string): string {
  const forAt = text.search(/\s+for\s+"/);
  const head = forAt < 0 ? text : text.slice(0, forAt);
  const tail = forAt < 0 ? "" : text.slice(forAt);
  const at = atRate === undefined
    ? head
    : head.replace(/(\bat\s+)\S+(\s*)$/, (_, lead, space) => `${lead}${atRate}${space}`);
  return (bound === undefined
    ? at
    : at.replace(/^(\s*throughput\s*(?:<=|>=|<|>)\s*)\S+/, (_, lead) => `${lead}${bound}`)) +
    tail;
}

/** A stage's rates at its start and end (the same for a constant stage), requests per second. */
export type StageRates = readonly [fromPerSec: number, toPerSec: number];

/**
 * A stage's rates, when they read: a ramp broken as written binds without them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stageRates } from "./follow_slos.ts";
 * assert.deepEqual(stageRates({ kind: "constant", ratePerSec: 20_000, warmup: false }), [20000, 20000]);
 * ```
 */
export function stageRates(s: StageBinding | PlanStage): StageRates | undefined {
  if (s.kind === "constant") return [s.ratePerSec, s.ratePerSec];
  return "fromPerSec" in s ? [s.fromPerSec, s.toPerSec] : undefined;
}

/** What becomes of one SLO: the SLO that follows its stages, or the stages it no longer judges. */
export type SloFollowing =
  | { kind: "same" }
  | { kind: "moved"; slo: Slo; stages: number[] }
  | { kind: "narrowed"; judged: number[]; kept: number[] };

/**
 * What becomes of `slo`, bound to the `written` stages (read, or what is known of a broken one),
 * when the overrides gave them the rates `after` (by index; undefined where they do not read).
 * Stage indexes in the result are 0-based.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSlo } from "../slo/mod.ts";
 * import { followStages } from "./follow_slos.ts";
 * const stage = { kind: "constant" as const, ratePerSec: 20_000, warmup: false };
 * const slo = parseSlo("p99 < 5ms at 20k/s");
 * assert.ok(slo.ok);
 * const followed = followStages({ ...slo.value, line: 1 }, [stage], [[5000, 5000]]);
 * assert.equal(followed.kind, "moved");
 * if (followed.kind === "moved") {
 *   assert.equal(followed.slo.text, "p99 < 5ms at 5k/s");
 *   assert.equal(followed.slo.atRatePerSec, 5000);
 *   assert.deepEqual(followed.stages, [0]);
 * }
 * ```
 */
export function followStages(
  slo: Slo,
  written: readonly StageBinding[],
  after: ReadonlyArray<StageRates | undefined>,
): SloFollowing {
  const judged = written.flatMap((s, k) =>
    stageRates(s) && stagesForSlo(slo, [s]).length > 0 ? [k] : []
  );
  const ratios = judged.map((k) => {
    const [b0, b1] = stageRates(written[k])!, [a0, a1] = after[k] ?? [NaN, NaN];
    return Math.abs(a1 / b1 - a0 / b0) <= 1e-9 * (a0 / b0) ? a0 / b0 : NaN;
  });
  if (judged.length === 0 || ratios.every((r) => r === 1)) return { kind: "same" };
  if (ratios.every((r) => Math.abs(r - ratios[0]) <= 1e-9 * ratios[0])) {
    const newAt = slo.atRatePerSec === undefined ? undefined : after[judged[0]]![0];
    const bound = slo.metric.kind === "throughput" ? slo.bound * ratios[0] : undefined;
    if (newAt === undefined && bound === undefined) return { kind: "same" };
    const text = rewriteSloRates(
      slo.text,
      newAt === undefined ? undefined : rateText(newAt),
      bound === undefined ? undefined : rateText(bound),
    );
    // The moved SLO is read from its new text, so it is what a plan written that way would give.
    const parsed = parseSlo(text);
    if (text === slo.text || !parsed.ok) return { kind: "same" };
    return { kind: "moved", slo: { ...parsed.value, line: slo.line }, stages: judged };
  }
  if (slo.atRatePerSec === undefined) return { kind: "same" };
  return { kind: "narrowed", judged, kept: judged.filter((_k, j) => ratios[j] === 1) };
}

/**
 * The step that makes each SLO, bound to the stages as `written`, follow them to the rates
 * `after` the overrides (runner/plan/slo/validate_slos.ts calls it): a moved SLO's new text is
 * added to `edits`, so `--print-plan` writes it and messages name its flag; a narrowed one is
 * warned about.
 */
export function sloFollower(
  written: readonly StageBinding[],
  after: ReadonlyArray<StageRates | undefined>,
  edits: OverrideEdit[],
): SloFollow {
  return (slo, { item, index, warn }) => {
    const followed = followStages(slo, written, after);
    if (followed.kind === "moved") {
      const flag = rateFlag(edits, followed.stages);
      const text = followed.slo.text;
      edits.push({ path: join("slo", index), text, flag, replaced: item });
      return followed.slo;
    }
    if (followed.kind === "narrowed") {
      const { judged, kept } = followed;
      const n = (ks: number[]) => ks.map((k) => k + 1).join(", ");
      warn(
        `\`${slo.text}\` judged stages ${n(judged)}; \`${rateFlag(edits, judged)}\` ` +
          `moved some of them, so it judges ${kept.length ? `stage ${n(kept)} only` : "none"}`,
        "give those stages one rate, or write an SLO for each rate",
      );
    }
    return slo;
  };
}

/** The flag that changed the rate of the first of `stages` that an override moved. */
function rateFlag(edits: OverrideEdit[], stages: number[]): string {
  for (const k of stages) {
    const edit = edits.find((e) =>
      /\.(rate|ramp)$/.test(e.path) && e.path.startsWith(`load.stages[${k}].`)
    );
    if (edit) return edit.flag;
  }
  return edits[0]?.flag ?? "";
}
