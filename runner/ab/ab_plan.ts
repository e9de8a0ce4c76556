/**
 * The lifecycle of `tailgate ab`: the out folder checked → the rounds, base and head alternating
 * (each side started and stopped by the comparison itself: runner/ab/ab_target.ts) → the
 * comparison's verdict → `ab.json`, `ab.md`, `ab.html` and `ab-junit.xml` written atomically
 * (also when stopped: Ctrl-C compares the rounds that ran) → the exit code.
 *
 * @module
 */
import { join } from "node:path";
import { checkOutDir, failed, type Outcome } from "../api/mod.ts";
import { EXIT_CODES, withIoFailures } from "../model/mod.ts";
import type { ResolvedPlan } from "../plan/mod.ts";
import { exitCodeOf, type FailOn } from "../result/mod.ts";
import {
  type FileToWrite,
  type JunitInconclusive,
  renderAbHtml,
  renderAbJunit,
  renderAbMarkdown,
  renderAbTerminal,
  writeEach,
} from "../../reporters/mod.ts";
import { StepFailure } from "../session/mod.ts";
import { type AbOptions, runAb } from "./run_ab.ts";

/** Options of {@linkcode abPlan}: the comparison's, and how its verdict exits and is written. */
export interface AbPlanOptions extends Omit<AbOptions, "onIoFailure" | "onStillAnswering"> {
  /** Which undecided gates turn the exit code non-zero (default `inconclusive-sampling`). */
  failOn?: FailOn;
  /** How ab-junit.xml writes an undecided gate (default `auto`). */
  junitInconclusive?: JunitInconclusive;
  /** Progress lines besides each run's (`onRun`): what the comparison does not do. */
  onProgress?: (line: string) => void;
}

/**
 * Compares base and head under `plan` as `tailgate ab` does (`failFast` undefined: the plan's
 * `fail_fast`): the outcome, exit by the
 * comparison's verdict (5 when a file was not written; 4 when a side could not be started or a
 * setup step failed, 3 when stopped during it).
 */
export async function abPlan(plan: ResolvedPlan, options: AbPlanOptions): Promise<Outcome> {
  if (plan.service) {
    // One service section cannot start two builds: each side is started, or running, on its own.
    options.onProgress?.(
      "ab: the plan's service is not started: ab starts each build itself " +
        "(--base-start, --head-start), or finds it running at --base and --head",
    );
  }
  const outProblem = await checkOutDir(options.outDir);
  if (outProblem) return failed(outProblem);
  const { failOn, junitInconclusive, onProgress: _, ...comparison } = options;
  let ab;
  const ioFailures: string[] = [];
  const stillAnswering: string[] = [];
  try {
    ab = await runAb(plan, {
      ...comparison,
      // Stop a head run once an SLO is certain to fail: as asked, else as the plan says.
      failFast: options.failFast ?? plan.failFast ?? false,
      onIoFailure: (error) => ioFailures.push(error),
      onStillAnswering: (finding) => stillAnswering.push(finding),
    });
  } catch (e) {
    const stopped = e instanceof StepFailure && e.interrupted;
    return failed((e as Error).message, stopped ? EXIT_CODES.invalidRun : EXIT_CODES.unreachable);
  }
  const done = ab;
  const outDir = options.outDir;
  const files: FileToWrite[] = [
    {
      what: "ab.json",
      path: join(outDir, "ab.json"),
      render: () => JSON.stringify(done, null, 1) + "\n",
    },
    { what: "ab.md", path: join(outDir, "ab.md"), render: () => renderAbMarkdown(done) },
    { what: "ab.html", path: join(outDir, "ab.html"), render: () => renderAbHtml(done) },
    {
      what: "ab-junit.xml",
      path: join(outDir, "ab-junit.xml"),
      render: () => renderAbJunit(done, failOn, junitInconclusive),
    },
  ];
  const { written, errors } = await writeEach(files);
  ioFailures.push(...errors);
  const verdictCode = exitCodeOf(ab.verdict, failOn ? { failOn } : {});
  return {
    exitCode: withIoFailures(verdictCode, ioFailures),
    // What a target's stop found is said as `run` says it; the verdict's exit code stands.
    errors: [...ioFailures, ...stillAnswering],
    notes: [],
    output: `${renderAbTerminal(ab)}\n\n` +
      files.filter((_, i) => written[i]).map((f) => `wrote ${f.path}`).join("\n"),
  };
}
