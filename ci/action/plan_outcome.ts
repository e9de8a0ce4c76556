/**
 * What one plan's `tailgate run` (or merge, or A/B comparison) left behind: its exit code, its
 * result and reports, and the CI verdict drawn from them.
 *
 * @module
 */
import { join } from "node:path";
import { readRunResult } from "../../runner/result/read_run_result.ts";
import type { RunResult, VerdictStatus } from "../../runner/model/run_result.ts";
import { REPORT_FILES } from "../../reporters/report_formats.ts";
import { planVerdict } from "./verdict.ts";
import { EXIT_CODES } from "../../runner/model/exit_codes.ts";
import type { AbResult } from "../../runner/model/ab_result.ts";

/** One plan's outcome. */
export interface PlanOutcome {
  /** The plan file as matched (or, for a merge, the plan's folder name). */
  plan: string;
  /** Its output folder. */
  dir: string;
  exitCode: number;
  /** The result, when `tailgate` wrote a readable one. */
  result?: RunResult;
  verdict: VerdictStatus;
  /** The Markdown summary, when `tailgate` wrote one. */
  summaryMd?: string;
  /** Plan problems and other errors `tailgate` printed. */
  stderr: string;
}

/**
 * Reads what `tailgate` wrote in `dir` (`result.json`, `summary.md`) and draws the verdict.
 *
 * @example
 * ```ts
 * import { readOutcome } from "./plan_outcome.ts";
 * const o = await readOutcome("plans/shop.yaml", "tailgate-out/shop", 1, "");
 * o.verdict; // "fail" when a gate failed
 * ```
 */
export async function readOutcome(
  plan: string,
  dir: string,
  exitCode: number,
  stderr: string,
): Promise<PlanOutcome> {
  const ab = await readIfExists(join(dir, "ab.json"));
  if (ab !== undefined) return abOutcome(plan, dir, exitCode, stderr, ab);
  const text = await readIfExists(join(dir, REPORT_FILES.json));
  const read = text === undefined ? undefined : readRunResult(text);
  const result = read?.ok ? read.result : undefined;
  const summaryMd = await readIfExists(join(dir, REPORT_FILES.md));
  return {
    plan,
    dir,
    exitCode,
    ...(result ? { result } : {}),
    verdict: planVerdict(exitCode, result),
    ...(summaryMd === undefined ? {} : { summaryMd }),
    stderr,
  };
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
  let status: VerdictStatus | undefined;
  try {
    status = (JSON.parse(text) as Partial<AbResult>).verdict?.status;
  } catch {
    status = undefined;
  }
  const earned = status === "pass"
    ? EXIT_CODES.ok
    : status === "fail"
    ? EXIT_CODES.gateFailed
    : EXIT_CODES.invalidRun;
  const summaryMd = await readIfExists(join(dir, "ab.md"));
  return {
    plan,
    dir,
    exitCode,
    verdict: status !== undefined && exitCode === earned ? status : "invalid",
    ...(summaryMd === undefined ? {} : { summaryMd }),
    stderr,
  };
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}
