/**
 * `tailgate run plan.yaml`: reads the plan (or makes an ad-hoc one from the flags), prints it
 * with `--print-plan`, else hands it to the run's lifecycle (runner/api's `runPlan`) and returns
 * its outcome (cli.ts prints).
 *
 * @module
 */
import { drawsFromSeed, type PlanIssue, retarget } from "../plan/mod.ts";
import { formatAdHocIssue } from "./args/mod.ts";
import { type RunOutcome, runPlan } from "../api/mod.ts";
import { EXIT_CODES } from "../model/mod.ts";
import { planToRun } from "./plan_to_run.ts";
import { failed } from "./command.ts";
import type { RunOptions } from "./run_args.ts";

export { RUN_HELP } from "./run_help.ts";
export type { RunOutcome };

/**
 * Runs a plan end to end.
 */
export async function runPlanCommand(
  options: RunOptions,
  onProgress: (line: string) => void,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  // Printing the plan needs no secret: `${env.X}` may stay unset until the run.
  const loaded = await planToRun(options.planPath, onProgress, {
    ...(options.adHocPlan === undefined ? {} : { text: options.adHocPlan.text }),
    requireEnv: !options.printPlan,
    ...(options.overrides ? { overrides: options.overrides } : {}),
    ...(options.adHocPlan
      ? { formatIssue: (i: PlanIssue) => formatAdHocIssue(i, options.adHocPlan!) }
      : {}),
  });
  if ("outcome" in loaded) return loaded.outcome;
  if (options.printPlan) {
    const overridden = loaded.plan.overrides?.length
      ? `# ${options.planPath} as \`tailgate run\` runs it with ${
        loaded.plan.overrides.join(" ")
      }\n`
      : "";
    // Said on the `load:` line, so every line keeps its number.
    const text = loaded.plan.load.seedPerRun && drawsFromSeed(loaded.plan)
      ? loaded.text.replace(
        /^load:.*$/m,
        (line) =>
          `${line} # no seed: each run draws its own (result.json: plan.load.seed); ` +
          "--seed N replays one",
      )
      : loaded.text;
    return { exitCode: EXIT_CODES.ok, errors: [], notes: [], output: overridden + text };
  }
  const { planPath: _, adHocPlan: __, printPlan: ___, overrides: ____, target, ...run } = options;
  if (target && /^grpcs?:/i.test(target) && loaded.plan.grpc === undefined) {
    return failed(
      `--target ${target}: ${options.planPath} sends HTTP requests, not gRPC calls; give an ` +
        "http(s) URL",
    );
  }
  const plan = target ? retarget(loaded.plan, target) : loaded.plan;
  return await runPlan(plan, { ...run, onProgress, ...(signal ? { signal } : {}) });
}
