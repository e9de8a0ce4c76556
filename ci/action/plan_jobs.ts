/**
 * What the action's run step runs: one `tailgate run` (or `ab`, or `merge`) per plan, each into
 * its own folder `<out>/<plan-slug>/`, which is cleared for it only when tailgate made it
 * (runner/api/out_dir.ts).
 *
 * @module
 */
import { globSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { claimOutDir, ownOutDirProblem } from "../../runner/api/mod.ts";
import { printable } from "../../runner/plan/mod.ts";
import type { RunInputs } from "./action_inputs.ts";
import { expandPlans, planSlugs } from "./expand_plans.ts";
import { abArgs, mergeArgs, runArgs } from "./tailgate_args.ts";

/** One plan's `tailgate` command and its output folder. */
export interface Job {
  /** The plan file as matched (or, for a merge, the plan's folder name). */
  plan: string;
  /** Its output folder, relative to the job's folder. */
  dir: string;
  /** `tailgate` arguments, the command first. */
  args: string[];
}

/**
 * The job's plans and their commands: the plan files the `plans` globs match, or under `merge` the
 * plans' shard results; or why there are none to run (no match, a file name no plan may have).
 */
export function planJobs(inputs: RunInputs, cwd: string, reportUrl?: string): Job[] | string {
  return inputs.merge
    ? mergeJobs(inputs, inputs.merge, cwd, reportUrl)
    : runJobs(inputs, cwd, reportUrl);
}

/**
 * Clears each plan's folder for its run (what an earlier run left must not pass for this one's);
 * or, when one holds what tailgate did not write, clears none and returns the problems.
 */
export async function claimJobDirs(jobs: readonly Job[], cwd: string): Promise<string[]> {
  const claims = [ownOutDirProblem, (dir: string) => claimOutDir(dir, { clear: true })];
  for (const claim of claims) {
    const problems: string[] = [];
    for (const job of jobs) {
      const problem = await claim(resolve(cwd, job.dir));
      if (problem) problems.push(`out: \`${job.dir}\` (for ${printable(job.plan)}) ${problem}`);
    }
    if (problems.length > 0) return problems;
  }
  return [];
}

function runJobs(inputs: RunInputs, cwd: string, reportUrl?: string): Job[] | string {
  const plans = expandPlans(inputs.plans, cwd);
  if (plans.length === 0) {
    return `no plan file matches ${inputs.plans.map((p) => `\`${p}\``).join(", ")} in ${cwd}`;
  }
  // A name with a line break could forge workflow commands wherever it is printed; no plan needs
  // one.
  const unprintable = plans.filter((p) => printable(p) !== p);
  if (unprintable.length > 0) {
    return `plan file names with a control character or line break: ${
      unprintable.map((p) => `\`${printable(p)}\``).join(", ")
    }; rename them (printed in the log, such a name could pass for a workflow command)`;
  }
  if (inputs.shard && inputs.startAt && plans.length > 1) {
    return `a sharded job runs one plan (--start-at is one instant), but the plans input ` +
      `matches ${plans.length}: ${plans.join(", ")}; make a matrix over the plans as well`;
  }
  const slugs = planSlugs(plans);
  return plans.map((plan, i) => {
    const dir = join(inputs.out, slugs[i]);
    return {
      plan,
      dir,
      args: inputs.ab
        ? [
          "ab",
          ...abArgs(plan, dir, {
            ...inputs.ab,
            failOn: inputs.failOn,
            junitInconclusive: inputs.junitInconclusive,
          }),
        ]
        : ["run", ...runArgs({ ...runCommon(inputs, dir, reportUrl), plan, ...runOnly(inputs) })],
    };
  });
}

function mergeJobs(
  inputs: RunInputs,
  folder: string,
  cwd: string,
  reportUrl?: string,
): Job[] | string {
  const files = globSync("**/result.json", { cwd: resolve(cwd, folder) }).sort();
  const byPlan = new Map<string, string[]>();
  for (const f of files) {
    const slug = basename(dirname(f));
    byPlan.set(slug, [...(byPlan.get(slug) ?? []), join(folder, f)]);
  }
  if (byPlan.size === 0) {
    return `no shard result (…/<plan>/result.json) under \`${folder}\`: download the shards' ` +
      "artifacts there first";
  }
  return [...byPlan].sort(([a], [b]) => a.localeCompare(b)).map(([slug, results]) => {
    const dir = join(inputs.out, slug);
    return {
      plan: slug,
      dir,
      args: ["merge", ...mergeArgs(results, runCommon(inputs, dir, reportUrl))],
    };
  });
}

function runCommon(inputs: RunInputs, outDir: string, reportUrl?: string) {
  return {
    outDir,
    ...(reportUrl ? { reportUrl } : {}),
    reports: inputs.reports,
    ...(inputs.baselineDir === undefined ? {} : { baselineDir: inputs.baselineDir }),
    updateBaseline: inputs.updateBaseline,
    failOn: inputs.failOn,
    junitInconclusive: inputs.junitInconclusive,
  };
}

function runOnly(inputs: RunInputs) {
  return {
    ...(inputs.target ? { target: inputs.target } : {}),
    ...(inputs.start ? { start: inputs.start } : {}),
    ...(inputs.ready ? { ready: inputs.ready } : {}),
    ...(inputs.shard ? { shard: inputs.shard } : {}),
    ...(inputs.startAt ? { startAt: inputs.startAt } : {}),
    ...(inputs.shardSeed === undefined ? {} : { seed: inputs.shardSeed }),
    confirm: inputs.confirm,
    ...(inputs.failFast === undefined ? {} : { failFast: inputs.failFast }),
  };
}
