/**
 * The action's run step (and a GitLab job's script): runs every plan the `plans` globs match into
 * `<out>/<plan-slug>/` (`tailgate run`, or `tailgate ab` in the A/B mode), or merges the shard
 * results under `merge`; then runs `tailgate history` for them into `<out>/history/` when the
 * history inputs ask; then publishes annotations, the summary and the outputs, and exits with the
 * code `fail-on` (and `history-fail`) asks for. Inputs come in
 * `TAILGATE_*` variables (ci/action/action_inputs.ts; docs/ci.md lists them).
 *
 * Run: `deno run --allow-all ci/action/run_plans.ts`.
 *
 * @module
 */
import { globSync } from "node:fs";
import { join, resolve } from "node:path";
import { EXIT_CODES } from "../../runner/model/mod.ts";
import { readRegularFile } from "../../runner/model/mod.ts";
import { MAX_HISTORY_BYTES } from "../../runner/history/mod.ts";
import { writeFileAtomic } from "../../runner/model/mod.ts";
import { claimOutDir, outPlaceProblem } from "../../runner/api/mod.ts";
import { inertLine, inertLines } from "../../runner/plan/mod.ts";
import { readRunInputs, type RunInputs } from "./action_inputs.ts";
import { problemText } from "../../runner/model/mod.ts";
import { BASELINES_FOLDER } from "./expand_plans.ts";
import { claimJobDirs, planJobs } from "./plan_jobs.ts";
import { type PlanOutcome, readOutcome } from "./plan_outcome.ts";
import { publishOutcomes } from "./publish.ts";
import { runTailgate, type TailgateExit } from "./run_tailgate.ts";
import { artifactsUrl } from "./tailgate_args.ts";
import { formatAnnotation, formatGroup } from "../workflow_commands.ts";
import { historyFiles, jobHistory } from "./history/mod.ts";

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
 */
export async function runPlansMain(
  env: Record<string, string | undefined>,
  print: (line: string) => void,
  options: RunPlansOptions = {},
): Promise<number> {
  const github = env.GITHUB_ACTIONS === "true";
  // Everything printed outside the stop-commands guard below is escaped: names and inputs in it
  // must not act as workflow commands.
  const fail = (message: string) =>
    print(
      github
        ? formatAnnotation({ level: "error", title: "tailgate", message })
        : inertLines(message),
    );
  const read = readRunInputs(env);
  if (!read.ok) {
    for (const p of read.problems) fail(problemText(p));
    return EXIT_CODES.usage;
  }
  const inputs = read.value;
  const cwd = options.cwd ?? Deno.cwd();
  const workspace = env.GITHUB_WORKSPACE || cwd;
  const run = options.run ?? runTailgate;
  // Each plan's folder is cleared before it runs: `out` must be a folder of tailgate's own.
  const outDir = resolve(cwd, inputs.out);
  const outProblem = (await outPlaceProblem(outDir, workspace)) ??
    (await claimOutDir(outDir, { clear: false }));
  if (outProblem) {
    fail(`out: \`${inputs.out}\` ${outProblem}`);
    return EXIT_CODES.usage;
  }
  const group = (title: string) => print(github ? formatGroup(title) : `== ${inertLine(title)}`);
  const endGroup = () => github && print("::endgroup::");
  const outcomes: PlanOutcome[] = [];
  const reportUrl = artifactsUrl(env);
  const jobs = planJobs(inputs, cwd, reportUrl);
  const refused = typeof jobs === "string" ? [jobs] : await claimJobDirs(jobs, cwd);
  for (const problem of refused) fail(problem);
  // tailgate's own output echoes plan names and values: a line such as `::error::` or
  // `::stop-commands::` in them must not act as a workflow command, so commands are off while it
  // runs (resumed by a token nobody can guess).
  const guarded = async (args: readonly string[], title: string) => {
    group(`tailgate ${args[0]} ${title}`);
    const token = crypto.randomUUID().replaceAll("-", "");
    if (github) print(`::stop-commands::${token}`);
    const exit = await run(args, cwd);
    if (github) print(`::${token}::`);
    endGroup();
    return exit;
  };
  const before = inputs.baselineDir === undefined
    ? new Set<string>()
    : historyFiles(resolve(cwd, inputs.baselineDir));
  if (typeof jobs !== "string" && refused.length === 0) {
    for (const job of jobs) {
      const exit = await guarded(job.args, job.plan);
      outcomes.push(await readOutcome(job.plan, resolve(cwd, job.dir), exit.code, exit.stderr));
    }
  }
  const baselinesPresent = await copyCommittedBaselines(inputs, cwd);
  const history = await jobHistory(
    inputs,
    outcomes,
    { env, cwd, before, annotate: github },
    (args) => guarded(args, args[1]),
    print,
  );
  const published = await publishOutcomes(outcomes, {
    out: inputs.out,
    cwd,
    failOn: inputs.failOn,
    junitInconclusive: inputs.junitInconclusive,
    paths: { workspace, cwd },
    ...(env.GITHUB_OUTPUT ? { outputFile: env.GITHUB_OUTPUT } : {}),
    ...(env.GITHUB_STEP_SUMMARY ? { summaryFile: env.GITHUB_STEP_SUMMARY } : {}),
    annotate: github,
    extraOutputs: {
      "baselines-present": String(baselinesPresent),
      "history-dir": history.historyDir ?? "",
    },
    historySummary: history.summary,
    historyFailed: history.failed,
  }, print);
  return published.jobExitCode;
}

/**
 * Whether the baseline folder holds history files; with `baseline: committed` and an update, the
 * files are also copied to `<out>/baselines/` so the artifact carries them for the team to commit.
 * Only regular files count, each read within the history size limit: a committed link (to
 * /dev/zero, to a file outside the repository) or a FIFO is never opened.
 */
async function copyCommittedBaselines(inputs: RunInputs, cwd: string): Promise<boolean> {
  if (inputs.baselineDir === undefined) return false;
  const from = resolve(cwd, inputs.baselineDir);
  const files = globSync("*.json", { cwd: from })
    .filter((f) => Deno.lstatSync(join(from, f)).isFile);
  if (inputs.committed && inputs.updateBaseline && files.length > 0) {
    const to = resolve(cwd, inputs.out, BASELINES_FOLDER);
    for (const f of files) {
      const read = await readRegularFile(join(from, f), MAX_HISTORY_BYTES);
      if (read.ok) await writeFileAtomic(join(to, f), read.value);
    }
  }
  return files.length > 0;
}

if (import.meta.main) {
  Deno.exitCode = await runPlansMain(Deno.env.toObject(), console.log);
}
