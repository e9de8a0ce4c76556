/**
 * Reads a stored result document, refusing what this build cannot read with a clear reason:
 * not JSON, not a tailgate result, written by a newer tailgate, or holding values no run writes
 * (result_problem.ts); a file only when it is a regular one of at most {@linkcode MAX_RESULT_BYTES}.
 *
 * @module
 */
import { createHistogram, toEncodedHistogram } from "../hdr/mod.ts";
import { readRegularFile } from "../model/mod.ts";
import { err, ok, prefixed, problem, type Result } from "../model/mod.ts";
import { resultProblem } from "./result_problem.ts";
import { RESULT_SCHEMA, RESULT_VERSION, type RunResult, type VerdictStatus } from "../model/mod.ts";

/**
 * The largest result read (256 MiB): an hour at one second per interval with a dozen labels is
 * far below it; V8 cannot hold a string much over twice this size at all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MAX_RESULT_BYTES } from "./read_run_result.ts";
 * assert.equal(MAX_RESULT_BYTES, 268435456);
 * ```
 */
export const MAX_RESULT_BYTES = 256 * 1024 * 1024;

const REQUIRED = [
  "run",
  "plan",
  "environment",
  "histograms",
  "totals",
  "stages",
  "intervals",
  "health",
  "verdicts",
];

/**
 * Parses result JSON text.
 */
export function readRunResult(text: string): Result<RunResult> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return err(problem(`not JSON (${(e as Error).message})`));
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    return err(problem("not a tailgate result: the document is not a JSON object"));
  }
  const record = doc as Record<string, unknown>;
  if (record.schema !== RESULT_SCHEMA) {
    return err(problem(`not a tailgate result: \`schema\` is not "${RESULT_SCHEMA}"`));
  }
  if (typeof record.version !== "number" || !Number.isInteger(record.version)) {
    return err(problem("the result has no integer `version`"));
  }
  if (record.version > RESULT_VERSION) {
    return err(problem(
      `the result is format version ${record.version}; this tailgate reads up to ` +
        `${RESULT_VERSION}: upgrade tailgate to read it`,
    ));
  }
  const missing = REQUIRED.filter((k) => !(k in record));
  if (missing.length > 0) {
    return err(problem(`the result lacks ${missing.map((k) => `\`${k}\``).join(", ")}`));
  }
  const result = doc as RunResult;
  // Results written before the floor histograms existed read as having measured no floor.
  if (typeof result.health === "object" && result.health !== null) {
    result.health.engineStall ??= toEncodedHistogram(createHistogram());
    result.health.platformHiccup ??= toEncodedHistogram(createHistogram());
  }
  const refused = resultProblem(record);
  if (refused) return err(problem(refused));
  // Format 3 renamed the undecided verdict `insufficient` to `inconclusive`.
  if (result.version < 3) {
    const renamed = (s: string) => (s === "insufficient" ? "inconclusive" : s) as VerdictStatus;
    if (Array.isArray(result.verdicts)) {
      for (const v of result.verdicts) v.status = renamed(v.status);
    }
    if (result.verdict) {
      result.verdict.status = renamed(result.verdict.status);
      const tally = result.verdict.tally as Record<string, number>;
      tally.inconclusive = (tally.inconclusive ?? 0) + (tally.insufficient ?? 0);
      delete tally.insufficient;
    }
  }
  return ok(result);
}

/**
 * Reads and parses a result file; the error names the file.
 */
export async function readRunResultFile(path: string): Promise<Result<RunResult>> {
  const bytes = await readRegularFile(path, MAX_RESULT_BYTES);
  if (!bytes.ok) return err(problem(`cannot read ${path}: it ${bytes.problems[0].reason}`));
  const read = readRunResult(new TextDecoder().decode(bytes.value));
  return read.ok ? read : err(prefixed(`${path}: `, read.problems));
}
