/**
 * The action's run step (and a GitLab job's script): runs every plan the `plans` globs match into
 * `<out>/<plan-slug>/` (`tailgate run`, or `tailgate ab` in the A/B mode), or merges the shard
 * results under `merge`, then publishes annotations,
 * the summary and the outputs, and exits with the code `fail-on` asks for. Inputs come in
 * `TAILGATE_*` variables (ci/action/action_inputs.ts; docs/ci.md lists them).
 *
 * Run: `deno run --allow-all ci/action/run_plans.ts`.
 *
 * @module
 */
import { globSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { EXIT_CODES } from "../../runner/model/exit_codes.ts";
import { readRunInputs, type RunInputs } from "./action_inputs.ts";
import { expandPlans, planSlugs } from "./expand_plans.ts";
import { type PlanOutcome, readOutcome } from "./plan_outcome.ts";
import { publishOutcomes } from "./publish.ts";
import { runTailgate, type TailgateExit } from "./run_tailgate.ts";
import { abArgs, artifactsUrl, mergeArgs, runArgs } from "./tailgate_args.ts";
import { formatAnnotation } from "./workflow_commands.ts";

/** Runs `tailgate` with arguments in a folder (the real command, or a test's). */
export type TailgateRunner = (args: readonly string[], cwd: string) => Promise<TailgateExit>;

/** Where and how {@linkcode runPlansMain} runs. */
export interface RunPlansOptions {
  /** The folder relative paths (plans, out, merge, baseline-dir) are in; default the current. */
  cwd?: string;
  /** Default: the `tailgate` command of this checkout. */
  run?: TailgateRunner;
}

/**
 * Runs (or merges) and publishes; returns the job's exit code.
 *
 * @example
 * ```ts
 * import { runPlansMain } from "./run_plans.ts";
 * Deno.exitCode = await runPlansMain(Deno.env.toObject(), console.log);
 * ```
 */
export async function runPlansMain(
  env: Record<string, string | undefined>,
  print: (line: string) => void,
  options: RunPlansOptions = {},
): Promise<number> {
  const github = env.GITHUB_ACTIONS === "true";
  const fail = (message: string) =>
    print(github ? formatAnnotation({ level: "error", title: "tailgate", message }) : message);
  const read = readRunInputs(env);
  if (!read.ok) {
    for (const e of read.errors) fail(e);
    return EXIT_CODES.usage;
  }
  const inputs = read.inputs;
  const cwd = options.cwd ?? Deno.cwd();
  const run = options.run ?? runTailgate;
  const group = (title: string) => github ? print(`::group::${title}`) : print(`== ${title}`);
  const endGroup = () => github && print("::endgroup::");
  const outcomes: PlanOutcome[] = [];
  const reportUrl = artifactsUrl(env);
  const jobs = inputs.merge
    ? mergeJobs(inputs, inputs.merge, cwd, reportUrl)
    : runJobs(inputs, cwd, reportUrl);
  if (typeof jobs === "string") fail(jobs);
  else {
    for (const job of jobs) {
      group(`tailgate ${job.args[0]} ${job.plan}`);
      await Deno.remove(resolve(cwd, job.dir), { recursive: true }).catch(() => {});
      // tailgate's own output echoes plan names and values: a line such as `::error::` or
      // `::stop-commands::` in them must not act as a workflow command, so commands are off while
      // it runs (resumed by a token nobody can guess).
      const token = crypto.randomUUID().replaceAll("-", "");
      if (github) print(`::stop-commands::${token}`);
      const exit = await run(job.args, cwd);
      if (github) print(`::${token}::`);
      endGroup();
      outcomes.push(await readOutcome(job.plan, resolve(cwd, job.dir), exit.code, exit.stderr));
    }
  }
  const baselinesPresent = await copyCommittedBaselines(inputs, cwd);
  const published = await publishOutcomes(outcomes, {
    out: inputs.out,
    cwd,
    failOn: inputs.failOn,
    paths: { workspace: env.GITHUB_WORKSPACE || cwd, cwd },
    ...(env.GITHUB_OUTPUT ? { outputFile: env.GITHUB_OUTPUT } : {}),
    ...(env.GITHUB_STEP_SUMMARY ? { summaryFile: env.GITHUB_STEP_SUMMARY } : {}),
    annotate: github,
    extraOutputs: { "baselines-present": String(baselinesPresent) },
  }, print);
  return published.jobExitCode;
}

interface Job {
  plan: string;
  dir: string;
  /** `tailgate` arguments, the command first. */
  args: string[];
}

function runJobs(inputs: RunInputs, cwd: string, reportUrl?: string): Job[] | string {
  const plans = expandPlans(inputs.plans, cwd);
  if (plans.length === 0) {
    return `no plan file matches ${inputs.plans.map((p) => `\`${p}\``).join(", ")} in ${cwd}`;
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
        ? ["ab", ...abArgs(plan, dir, inputs.ab)]
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
  };
}

function runOnly(inputs: RunInputs) {
  return {
    ...(inputs.target ? { target: inputs.target } : {}),
    ...(inputs.shard ? { shard: inputs.shard } : {}),
    ...(inputs.startAt ? { startAt: inputs.startAt } : {}),
    ...(inputs.confirm ? { confirm: inputs.confirm } : {}),
  };
}

/**
 * Whether the baseline folder holds history files; with `baseline: committed` and an update, the
 * files are also copied to `<out>/baselines/` so the artifact carries them for the team to commit.
 */
async function copyCommittedBaselines(inputs: RunInputs, cwd: string): Promise<boolean> {
  if (inputs.baselineDir === undefined) return false;
  const from = resolve(cwd, inputs.baselineDir);
  const files = globSync("*.json", { cwd: from });
  if (inputs.committed && inputs.updateBaseline && files.length > 0) {
    const to = resolve(cwd, inputs.out, "baselines");
    await Deno.mkdir(to, { recursive: true });
    for (const f of files) await Deno.copyFile(join(from, f), join(to, f));
  }
  return files.length > 0;
}

if (import.meta.main) {
  Deno.exitCode = await runPlansMain(Deno.env.toObject(), console.log);
}
