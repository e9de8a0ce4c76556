/**
 * A result's SLOs in their parsed form, for every gate and report that reads them. The result
 * stores each SLO as written, with its line (the document's contract: runner/model/run_result.ts);
 * its parsed form travels beside it. A result built from a plan carries the plan's SLOs as the plan
 * layer parsed them when the plan was read ({@linkcode carrySlos}, called by plan_record.ts); a
 * result read from a file has its SLOs parsed on the first reading, once for all its readers.
 *
 * @module
 */
import type { PlanRecord } from "../../model/mod.ts";
import { ok, type Result } from "../../model/mod.ts";
import { type ParsedSlo, parseSlo, type SloParseError } from "../../plan/mod.ts";

/** One SLO of a result: as stored (its text and line), and parsed, or why it does not parse. */
export interface StoredSlo {
  /** The SLO as written in the plan. */
  text: string;
  /** Its line in the plan file. */
  line: number;
  /** The SLO parsed (the plan's own reading when the result was built from a plan). */
  parsed: Result<ParsedSlo, SloParseError>;
}

type StoredList = PlanRecord["slos"];

// Keyed by the stored list itself: the parsed form never enters the document.
const carried = new WeakMap<StoredList, readonly StoredSlo[]>();

/**
 * Carries `parsed` (the plan's SLOs as the plan layer read them, in order) beside `stored`, the
 * list a result stores, so no reader parses them again.
 */
export function carrySlos(
  stored: StoredList,
  parsed: readonly (ParsedSlo & { line: number })[],
): StoredList {
  carried.set(
    stored,
    parsed.map(({ line, ...slo }) => ({ text: slo.text, line, parsed: ok(slo) })),
  );
  return stored;
}

/**
 * The SLOs of a result's plan, parsed: the ones carried from its plan, else each stored text parsed
 * here, once per list (and an SLO put in the list since, once).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storedSlos } from "./stored_slos.ts";
 * const plan = { slos: [{ text: "p99 < 5ms", line: 7 }, { text: "p100 < 1s", line: 8 }] };
 * const [p99, bad] = storedSlos(plan);
 * assert.ok(p99.parsed.ok);
 * assert.deepEqual(p99.parsed.value.metric, { kind: "percentile", percentile: 99 });
 * assert.equal(bad.parsed.ok, false);
 * assert.equal(storedSlos(plan), storedSlos(plan)); // parsed once
 * ```
 */
export function storedSlos(plan: Pick<PlanRecord, "slos">): readonly StoredSlo[] {
  const known = carried.get(plan.slos) ?? [];
  // The stored list is a plain array: an SLO put in it since is parsed, the others kept.
  const same = (k: StoredSlo | undefined, s: StoredList[number]) =>
    k !== undefined && k.text === s.text && k.line === s.line;
  if (known.length === plan.slos.length && plan.slos.every((s, i) => same(known[i], s))) {
    return known;
  }
  const read = plan.slos.map((s, i) =>
    same(known[i], s) ? known[i] : { text: s.text, line: s.line, parsed: parseSlo(s.text) }
  );
  carried.set(plan.slos, read);
  return read;
}
