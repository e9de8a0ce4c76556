/**
 * What one plan's `tailgate run` (or merge, or A/B comparison) left behind: its exit code, its
 * result and reports, and the CI verdict drawn from them.
 *
 * @module
 */
import { join } from "node:path";
import { MAX_RESULT_BYTES, readRunResult } from "../../runner/result/mod.ts";
import { readRegularFile } from "../../runner/model/mod.ts";
import type { RunResult, VerdictStatus } from "../../runner/model/mod.ts";
import { REPORT_FILES } from "../../reporters/mod.ts";
import { earnedCodes, planVerdict } from "./verdict.ts";
import { EXIT_CODES } from "../../runner/model/mod.ts";
import type { AbResult } from "../../runner/model/mod.ts";

/** One plan's outcome. */
export interface PlanOutcome {
  /** The plan file as matched (or, for a merge, the plan's folder name). */
  plan: string;
  /** Its output folder. */
  dir: string;
  exitCode: number;
  /** The result, when `tailgate` wrote a readable one. */
  result?: RunResult;
  /** The A/B comparison's document, when the plan ran as `tailgate ab` and wrote one. */
  ab?: AbResult;
  verdict: VerdictStatus;
  /**
   * Set when the verdict is `inconclusive` only by regression checks (the history's or the A/B
   * comparison's), no SLO (runner/result/read/fail_on.ts).
   */
  regressionOnly?: true;
  /**
   * Set when the verdict is `inconclusive` only by gates the runner left undecided (its
   * contention, the generator's delays, the history; a regression check): a warning under the
   * default `fail-on` (runner/result/read/fail_on.ts).
   */
  runnerOnly?: true;
  /** The Markdown summary, when `tailgate` wrote one. */
  summaryMd?: string;
  /** Plan problems and other errors `tailgate` printed. */
  stderr: string;
  /**
   * On exit 5, what was not read or written: "I/O failure: " and the errors `tailgate` printed
   * (each `tailgate <command>: …` line of `stderr`), for the summary and an annotation.
   */
  ioFailure?: string;
}

/** The largest summary.md read back; tailgate's own are a few kilobytes. */
const MAX_SUMMARY_BYTES = 16 * 1024 * 1024;

/**
 * Reads what `tailgate` wrote in `dir` (`result.json`, `summary.md`) and draws the verdict.
 */
export async function readOutcome(
  plan: string,
  dir: string,
  exitCode: number,
  stderr: string,
): Promise<PlanOutcome> {
  const ab = await readIfExists(join(dir, "ab.json"), MAX_RESULT_BYTES);
  if (ab !== undefined) return abOutcome(plan, dir, exitCode, stderr, ab);
  const text = await readIfExists(join(dir, REPORT_FILES.json), MAX_RESULT_BYTES);
  const read = text === undefined ? undefined : readRunResult(text);
  const result = read?.ok ? read.value : undefined;
  const summaryMd = await readIfExists(join(dir, REPORT_FILES.md), MAX_SUMMARY_BYTES);
  const ioFailure = exitCode === EXIT_CODES.ioFailed ? ioFailureOf(stderr) : undefined;
  const verdict = planVerdict(exitCode, result);
  return {
    plan,
    dir,
    exitCode,
    ...(result ? { result } : {}),
    verdict,
    ...(verdict === "inconclusive" ? undecidedFlags(result?.verdict) : {}),
    ...(summaryMd === undefined ? {} : { summaryMd }),
    stderr,
    ...(ioFailure === undefined ? {} : { ioFailure }),
  };
}

/** "I/O failure: " and the errors tailgate printed (`tailgate <command>: …`), else its last lines. */
function ioFailureOf(stderr: string): string {
  const lines = stderr.split(/\r?\n/).filter((l) => l.trim() !== "");
  const errors = lines.flatMap((l) => /^tailgate [a-z]+: (.+)$/.exec(l)?.[1] ?? []);
  return `I/O failure: ${(errors.length ? errors : lines.slice(-5)).join("; ")}`;
}

/**
 * An A/B comparison's outcome (`tailgate ab` wrote `ab.json` and `ab.md`): its stored verdict,
 * unless the exit code disagrees with it (then `invalid`).
 */
async function abOutcome(
  plan: string,
  dir: string,
  exitCode: number,
  stderr: string,
  text: string,
): Promise<PlanOutcome> {
  let doc: Partial<AbResult> | undefined;
  try {
    doc = JSON.parse(text) as Partial<AbResult>;
  } catch {
    doc = undefined;
  }
  const stored = doc?.verdict;
  // A document of the shape the annotations read (a damaged one is annotated by nothing).
  const ab = doc && Array.isArray(doc.comparisons) && Array.isArray(doc.slos) && doc.plan
    ? doc as AbResult
    : undefined;
  const status = stored?.status;
  const verdict = stored !== undefined && status !== undefined &&
      earnedCodes({ status, ...undecidedFlags(stored) }).includes(exitCode)
    ? status
    : "invalid";
  const summaryMd = await readIfExists(join(dir, "ab.md"), MAX_SUMMARY_BYTES);
  return {
    plan,
    dir,
    exitCode,
    ...(ab ? { ab } : {}),
    verdict,
    ...(verdict === "inconclusive" ? undecidedFlags(stored) : {}),
    ...(summaryMd === undefined ? {} : { summaryMd }),
    stderr,
  };
}

/** Which kind of undecided a stored verdict is: `regressionOnly` and `runnerOnly`, when set. */
function undecidedFlags(
  v: { regressionOnly?: true; runnerOnly?: true } | undefined,
): { regressionOnly?: true; runnerOnly?: true } {
  return {
    ...(v?.regressionOnly ? { regressionOnly: true as const } : {}),
    ...(v?.runnerOnly ? { runnerOnly: true as const } : {}),
  };
}

/** The file's text, or undefined when it is missing or is no regular file of at most `maxBytes`. */
async function readIfExists(path: string, maxBytes: number): Promise<string | undefined> {
  const read = await readRegularFile(path, maxBytes);
  return read.ok ? new TextDecoder().decode(read.value) : undefined;
}
