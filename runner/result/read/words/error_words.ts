/**
 * A group's failed requests in words, each unexpected status named by its key: `401 × 924,
 * timeout × 3` (a gRPC status by its name: `UNAVAILABLE × 12`) rather than `unexpected_status 924`, which hides what the server said. A status is
 * unexpected for the request label that got it (each label has its own `expect`), so the codes are
 * read per label, from its `statusCodes` and its request's expectation in the stored plan. Every
 * report that counts errors words them here, and so does the implicit error gate's message.
 *
 * @module
 */
import type { ErrorKind, PlanRecord, RequestCounts } from "../../../model/mod.ts";
import { statusOfKey } from "../../../model/mod.ts";
import { statusExpected } from "../../../plan/mod.ts";

/** What the words need of the plan: each request's label and expected statuses. */
export type PlanExpectations = {
  requests: ReadonlyArray<Pick<PlanRecord["requests"][number], "label" | "expect">>;
};

/** What the words need of a label's result. */
export interface LabelCounts {
  label: string;
  counts: Pick<RequestCounts, "errors" | "statusCodes">;
}

/**
 * The answers of `labels` (one stage's, or several stages' together) that their request did not
 * expect, by status code, added up; those counted `rate_limited` (a 429, a 503 with a
 * `Retry-After`) are not among them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unexpectedCodes } from "./error_words.ts";
 * const plan = { requests: [{ label: "GET /", expect: { codes: [], classes: [2] } }] };
 * const counts = { statusCodes: { "200": 9, "401": 3 }, errors: { unexpected_status: 3 } };
 * assert.deepEqual(unexpectedCodes(plan, [{ label: "GET /", counts }]), { "401": 3 });
 * ```
 */
export function unexpectedCodes(
  plan: PlanExpectations,
  labels: readonly LabelCounts[],
): Record<string, number> {
  const codes: Record<string, number> = {};
  for (const l of labels) {
    const expect = plan.requests.find((r) => r.label === l.label)?.expect;
    if (expect === undefined) continue;
    // The rate-limited answers are words of their own: every unexpected 429 is one, the rest 503s.
    let limited = l.counts.errors.rate_limited ?? 0;
    for (const [code, n] of Object.entries(l.counts.statusCodes).sort(rateLimitedFirst)) {
      if (n <= 0 || statusExpected(expect, statusOfKey(code))) continue;
      const taken = code === "429" || code === "503" ? Math.min(limited, n) : 0;
      limited -= taken;
      if (n > taken) codes[code] = (codes[code] ?? 0) + n - taken;
    }
  }
  return codes;
}

/** 429 before 503 before any other code, so a label's `rate_limited` count goes to them. */
function rateLimitedFirst([a]: [string, number], [b]: [string, number]): number {
  const rank = (code: string) => code === "429" ? 0 : code === "503" ? 1 : 2;
  return rank(a) - rank(b);
}

/**
 * The failed requests of `labels`, added up, by kind, most first: each unexpected status by its
 * code (`401 × 924`), any it cannot name (a label its plan does not name, or a result written
 * before status codes were counted) as `unexpected_status`; "" when none failed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorsInWords } from "./error_words.ts";
 * const plan = { requests: [{ label: "GET /", expect: { codes: [], classes: [2] } }] };
 * const counts = { statusCodes: { "200": 9, "401": 924 }, errors: { unexpected_status: 924, timeout: 3 } };
 * assert.equal(errorsInWords(plan, [{ label: "GET /", counts }]), "401 × 924, timeout × 3");
 * ```
 */
export function errorsInWords(plan: PlanExpectations, labels: readonly LabelCounts[]): string {
  return errorEntries(plan, labels)
    .map(([what, n]) => `${what} × ${n.toLocaleString("en-US")}`)
    .join(", ");
}

/**
 * The failed requests of `labels` as [what, count] pairs, most first (ties by name): each
 * unexpected status code, then the rest of the kinds, as {@linkcode errorsInWords} words them.
 */
export function errorEntries(
  plan: PlanExpectations,
  labels: readonly LabelCounts[],
): Array<[string, number]> {
  const kinds = new Map<string, number>();
  let unexpected = 0;
  for (const l of labels) {
    for (const [kind, n] of Object.entries(l.counts.errors)) {
      if (!n) continue;
      if (kind === ("unexpected_status" satisfies ErrorKind)) unexpected += n;
      else kinds.set(kind, (kinds.get(kind) ?? 0) + n);
    }
  }
  const codes = Object.entries(unexpectedCodes(plan, labels));
  const named = codes.reduce((sum, [, n]) => sum + n, 0);
  const entries: Array<[string, number]> = [
    ...codes,
    ...(unexpected > named ? [["unexpected_status", unexpected - named] as [string, number]] : []),
    ...kinds,
  ];
  return entries.sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The failed requests of a whole run (every stage, warmup included, as `totals` counts them) in
 * words, as {@linkcode errorsInWords}.
 */
export function runErrorsInWords(
  result: { plan: PlanExpectations; stages: ReadonlyArray<{ labels: readonly LabelCounts[] }> },
): string {
  return errorsInWords(result.plan, result.stages.flatMap((s) => s.labels));
}
