/**
 * No silent pass: a run in which more than 1% of the judged requests failed, of a plan that sets
 * no `error_rate` SLO over all its requests and does not say `allow_errors: true`, is judged
 * against the implicit SLO `error_rate <= 1%`, exactly as if the plan had written it (the same
 * scope, evidence and decision rule: evaluate_slos.ts), so it fails when its errors are beyond
 * doubt. Its verdict is marked `implicit` and named so (`error_rate <= 1% (implicit)`), so every
 * report that shows a gate's name shows that the plan did not write it. Pure.
 *
 * @module
 */
import type { ParsedSlo } from "../../plan/mod.ts";
import { addCounts, emptyCounts, errorTotal } from "../../model/mod.ts";
import type { RunResult, Verdict } from "../../model/mod.ts";
import { errorsInWords, type StoredSlo, storedSlos } from "../../result/mod.ts";
import { judgeSlos } from "./evaluate_slos.ts";

/** The share of failed requests above which the implicit gate is judged: 1%. */
export const IMPLICIT_ERROR_SHARE = 0.01;

/** The implicit SLO, as a plan would write it. */
export const IMPLICIT_ERROR_SLO = "error_rate <= 1%";

/** The implicit gate's verdict name. */
export const IMPLICIT_ERROR_GATE = `${IMPLICIT_ERROR_SLO} (implicit)`;

/** {@linkcode IMPLICIT_ERROR_SLO} as the SLO grammar reads it (runner/plan/slo/parse_slo.ts). */
export const IMPLICIT_ERROR_PARSED: ParsedSlo = {
  text: IMPLICIT_ERROR_SLO,
  metric: { kind: "error_rate" },
  operator: "<=",
  bound: IMPLICIT_ERROR_SHARE,
};

const IMPLICIT_STORED: StoredSlo = {
  text: IMPLICIT_ERROR_SLO,
  line: 0,
  parsed: { ok: true, value: IMPLICIT_ERROR_PARSED },
};

/**
 * Whether the plan leaves errors to the implicit gate: it has no `error_rate` SLO over all its
 * requests (one `for "label"` covers only that label; one `at` a rate or `over` a window is the
 * plan's own word on errors) and does not say `allow_errors: true`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { coversErrors } from "./implicit_error_gate.ts";
 * assert.equal(coversErrors({ slos: [{ text: "error_rate < 5%", line: 9 }] }), true);
 * assert.equal(coversErrors({ slos: [{ text: "p99 < 50ms", line: 9 }] }), false);
 * ```
 */
export function coversErrors(plan: Pick<RunResult["plan"], "slos" | "allowErrors">): boolean {
  if (plan.allowErrors) return true;
  return storedSlos(plan).some(({ parsed }) =>
    parsed.ok && parsed.value.metric.kind === "error_rate" && parsed.value.label === undefined
  );
}

/**
 * The implicit gate's verdict, judged whatever the share of errors (`tailgate ab` judges it on
 * every head run once one needed it); undefined when no stage is judged (every stage a warmup).
 */
export function implicitErrorVerdict(result: RunResult): Verdict | undefined {
  // The same path as a written SLO: the plan's SLOs replaced by the implicit one.
  const judged = judgeSlos(result, [IMPLICIT_STORED])[0];
  if (judged === undefined || judged.status === "invalid") return undefined;
  const { line: _line, ...verdict } = judged;
  const counts = judgedCounts(result);
  const failed = errorTotal(counts);
  // Each unexpected status by its code: what the server answered.
  const kinds = errorsInWords(
    result.plan,
    result.stages.filter((s) => !s.warmup).flatMap((s) => s.labels),
  );
  return {
    ...verdict,
    name: IMPLICIT_ERROR_GATE,
    implicit: true,
    message:
      `${verdict.message}; implicit gate: ${failed} of ${counts.completed} judged requests ` +
      `failed${kinds ? ` (${kinds})` : ""} and the plan sets no \`error_rate\` SLO over all ` +
      "requests: add one to set the bound, or `allow_errors: true` to let errors pass",
  };
}

/**
 * The implicit gate, when the run needs it: one verdict when the plan leaves errors to it and more
 * than {@linkcode IMPLICIT_ERROR_SHARE} of the judged (non-warmup) requests failed, else none.
 */
export function implicitErrorGate(result: RunResult): Verdict[] {
  if (coversErrors(result.plan)) return [];
  const counts = judgedCounts(result);
  if (errorTotal(counts) <= IMPLICIT_ERROR_SHARE * counts.completed) return [];
  const verdict = implicitErrorVerdict(result);
  return verdict === undefined ? [] : [verdict];
}

/** The counts of the judged (non-warmup) stages. */
function judgedCounts(result: Pick<RunResult, "stages">) {
  const counts = emptyCounts();
  for (const s of result.stages) if (!s.warmup) addCounts(counts, s.counts);
  return counts;
}
