/**
 * The GitHub Action run here as a runner runs it, for studies that must measure the product
 * through its real entry point (verdict_noise.ts): action.yml is read, every input the study does
 * not set takes action.yml's default (whatever inputs it has when the study runs), and every shell
 * step (`run:`) whose `if:` holds runs in order with the `env:` action.yml gives it, as
 * `bash --noprofile --norc -eo pipefail`, in the workspace, with `GITHUB_OUTPUT` and
 * `GITHUB_STEP_SUMMARY` files, `GITHUB_ACTIONS=true` and the event the study names. Steps that
 * `uses:` another action (setting up Deno, the cache, the artifact upload) are skipped: Deno is
 * the one running the study, and the study keeps the history in the workspace (`baseline:
 * committed`). Each step runs pinned to a core, in a process group of its own, ended when its
 * time is up.
 *
 * @module
 */
import { join } from "node:path";
import { asObject, readYamlObject, type YamlObject } from "../../tests/_helpers/yaml_value.ts";
import { endProcessGroup } from "../../runner/service/mod.ts";
import { decode } from "../_harness.ts";
import { type ExprContext, interpolate, stepRuns } from "./action_expr.ts";

/** One shell step of action.yml. */
export interface ActionStep {
  id?: string;
  name: string;
  run: string;
  env: Record<string, string>;
  if?: string;
  continueOnError: boolean;
}

/** What the study needs of action.yml. */
export interface Action {
  /** The checkout action.yml is in (`GITHUB_ACTION_PATH`). */
  root: string;
  /** Every input's default, as action.yml states it. */
  defaults: Record<string, string>;
  /** Every output's `value` expression, as action.yml states it. */
  outputs: Record<string, string>;
  /** Every step, in order; `uses:` steps have no `run`. */
  steps: Array<ActionStep | { name: string; uses: string }>;
}

/** Reads `<root>/action.yml`. */
export async function readAction(root: string): Promise<Action> {
  const yml = await readYamlObject(join(root, "action.yml"));
  const defaults: Record<string, string> = {};
  for (const [name, spec] of Object.entries(asObject(yml.inputs, "inputs"))) {
    defaults[name] = String(asObject(spec, `input ${name}`).default ?? "");
  }
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(yml.outputs ? asObject(yml.outputs, "outputs") : {})) {
    outputs[name] = String(asObject(spec, `output ${name}`).value ?? "");
  }
  const steps = (asObject(yml.runs, "runs").steps as YamlObject[]).map((raw, i) => {
    const s = asObject(raw, `step ${i + 1}`);
    const name = String(s.name ?? s.id ?? `step ${i + 1}`);
    if (typeof s.run !== "string") return { name, uses: String(s.uses ?? "") };
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(s.env ? asObject(s.env, `${name}: env`) : {})) {
      env[k] = String(v ?? "");
    }
    return {
      ...(s.id ? { id: String(s.id) } : {}),
      name,
      run: s.run,
      env,
      ...(s.if === undefined ? {} : { if: String(s.if) }),
      continueOnError: s["continue-on-error"] === true,
    };
  });
  return { root, defaults, outputs, steps };
}

/** The GitHub event the job runs for. */
export interface GithubEvent {
  /** `push`, `pull_request`, …. */
  eventName: string;
  /** `refs/heads/main`, `refs/pull/1/merge`. */
  ref: string;
  sha: string;
  defaultBranch: string;
  runId: number;
}

/** One job. */
export interface JobSpec {
  workspace: string;
  /** The inputs the study sets; the others take action.yml's defaults. */
  inputs: Record<string, string>;
  event: GithubEvent;
  /** The core the steps (and so tailgate) are pinned to. */
  core: string;
  /** The whole job's time limit. */
  timeoutMs: number;
  /** Every step's output is appended here. */
  logFile: string;
  /** Once aborted, no further step starts (the running one is ended by {@linkcode endRunningSteps}). */
  signal?: AbortSignal;
}

/** An annotation the job's log makes (workflow commands outside a stop-commands block). */
export interface Annotation {
  level: "error" | "warning" | "notice";
  title?: string;
  message: string;
}

/** How one step went. */
export interface StepOutcome {
  name: string;
  id?: string;
  /** Undefined: skipped by its `if:`. */
  exitCode?: number;
  timedOut: boolean;
  outputs: Record<string, string>;
}

/** How the job went. */
export interface JobOutcome {
  /** Every input as the job saw it (the study's, and action.yml's defaults). */
  inputs: Record<string, string>;
  steps: StepOutcome[];
  /** A step that may not fail failed: the job is red; its exit code (0: green). */
  exitCode: number;
  /** The action's outputs (action.yml's `outputs:`, evaluated), as a workflow sees them. */
  actionOutputs: Record<string, string>;
  /** The step outputs, by step id. */
  outputs: Record<string, Record<string, string>>;
  annotations: Annotation[];
  /** The job summary (`GITHUB_STEP_SUMMARY`, every step's). */
  summary: string;
  /** Context paths action.yml used that the study does not provide (read as ""). */
  unresolved: string[];
}

/** The process groups of the steps running now, for {@linkcode endRunningSteps}. */
const RUNNING = new Set<number>();

/** Ends the process group of every step running now (a study stopped by Ctrl-C). */
export async function endRunningSteps(): Promise<void> {
  await Promise.all([...RUNNING].map((pgid) => endProcessGroup(pgid, 2_000)));
}

/** Runs the job's shell steps; resolves once every step ran or the time is up. */
export async function runJob(action: Action, spec: JobSpec): Promise<JobOutcome> {
  const inputs = { ...action.defaults, ...spec.inputs };
  const outputs: Record<string, Record<string, string>> = {};
  const unresolved = new Set<string>();
  const e = spec.event;
  const github: Record<string, string> = {
    "github.event_name": e.eventName,
    "github.ref": e.ref,
    "github.sha": e.sha,
    "github.event.repository.default_branch": e.defaultBranch,
  };
  const lookup = (path: string): string | undefined => {
    const step = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(path);
    const value = path.startsWith("inputs.")
      ? inputs[path.slice("inputs.".length)]
      : step
      ? outputs[step[1]]?.[step[2]] ?? ""
      : github[path];
    if (value === undefined) unresolved.add(path);
    return value;
  };
  const temp = await Deno.makeTempDir({ prefix: "tailgate-job-" });
  const deadline = Date.now() + spec.timeoutMs;
  const steps: StepOutcome[] = [];
  const annotations: Annotation[] = [];
  let summary = "";
  let exitCode = 0;
  try {
    for (const [i, step] of action.steps.entries()) {
      if (!("run" in step)) continue;
      const ctx: ExprContext = { lookup, failed: exitCode !== 0 };
      if (spec.signal?.aborted || !stepRuns(step.if, ctx)) {
        steps.push({
          name: step.name,
          ...(step.id ? { id: step.id } : {}),
          timedOut: false,
          outputs: {},
        });
        continue;
      }
      const files = { output: join(temp, `output-${i}`), summary: join(temp, `summary-${i}`) };
      for (const f of Object.values(files)) await Deno.writeTextFile(f, "");
      const env: Record<string, string> = {
        ...baseEnv(),
        CI: "true",
        GITHUB_ACTIONS: "true",
        GITHUB_WORKSPACE: spec.workspace,
        GITHUB_ACTION_PATH: action.root,
        GITHUB_EVENT_NAME: e.eventName,
        GITHUB_REF: e.ref,
        GITHUB_REF_NAME: e.ref.replace(/^refs\/(heads|tags|pull)\//, ""),
        ...(e.eventName.startsWith("pull_request")
          ? { GITHUB_HEAD_REF: "study-head", GITHUB_BASE_REF: e.defaultBranch }
          : {}),
        GITHUB_SHA: e.sha,
        GITHUB_RUN_ID: String(e.runId),
        GITHUB_RUN_ATTEMPT: "1",
        RUNNER_OS: "Linux",
        RUNNER_ARCH: "X64",
        RUNNER_TEMP: temp,
        GITHUB_OUTPUT: files.output,
        GITHUB_STEP_SUMMARY: files.summary,
      };
      for (const [k, v] of Object.entries(step.env)) env[k] = interpolate(v, ctx);
      const script = join(temp, `step-${i}.sh`);
      await Deno.writeTextFile(script, step.run);
      const ran = await runStep(script, env, spec, deadline);
      await Deno.writeTextFile(spec.logFile, `== ${step.name}: exit ${ran.code}\n${ran.log}`, {
        append: true,
      });
      const stepOutputs = parseOutputs(await Deno.readTextFile(files.output));
      if (step.id) outputs[step.id] = stepOutputs;
      annotations.push(...parseAnnotations(ran.stdout));
      summary += await Deno.readTextFile(files.summary);
      steps.push({
        name: step.name,
        ...(step.id ? { id: step.id } : {}),
        exitCode: ran.code,
        timedOut: ran.timedOut,
        outputs: stepOutputs,
      });
      if (ran.code !== 0 && !step.continueOnError && exitCode === 0) exitCode = ran.code;
    }
  } finally {
    await Deno.remove(temp, { recursive: true }).catch(() => {});
  }
  const actionOutputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(action.outputs)) {
    actionOutputs[name] = interpolate(value, { lookup, failed: exitCode !== 0 });
  }
  return {
    inputs,
    steps,
    exitCode,
    actionOutputs,
    outputs,
    annotations,
    summary,
    unresolved: [...unresolved],
  };
}

/** What a step inherits from the study's environment: where Deno and its cache are. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["HOME", "LANG", "TMPDIR", "DENO_DIR", "XDG_CACHE_HOME"]) {
    const v = Deno.env.get(name);
    if (v !== undefined) env[name] = v;
  }
  const denoDir = Deno.execPath().replace(/\/[^/]*$/, "");
  env.PATH = `${denoDir}:${Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin"}`;
  return env;
}

async function runStep(
  script: string,
  env: Record<string, string>,
  spec: JobSpec,
  deadline: number,
): Promise<{ code: number; stdout: string; log: string; timedOut: boolean }> {
  // setsid: a process group of its own (its id is the PID), ended whole when the time is up.
  const child = new Deno.Command("setsid", {
    args: ["taskset", "-c", spec.core, "bash", "--noprofile", "--norc", "-eo", "pipefail", script],
    cwd: spec.workspace,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  RUNNING.add(child.pid);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    endProcessGroup(child.pid, 5_000);
  }, Math.max(0, deadline - Date.now()));
  const [out, err, status] = await Promise.all([
    new Response(child.stdout).arrayBuffer(),
    new Response(child.stderr).arrayBuffer(),
    child.status,
  ]);
  clearTimeout(timer);
  RUNNING.delete(child.pid);
  const stdout = decode(new Uint8Array(out));
  const stderr = decode(new Uint8Array(err));
  return { code: timedOut ? 124 : status.code, stdout, log: stdout + stderr, timedOut };
}

/**
 * Step outputs from a `GITHUB_OUTPUT` file: `name<<DELIMITER` blocks and `name=value` lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseOutputs } from "./action_job.ts";
 * assert.deepEqual(parseOutputs("a<<EOF\nx\ny\nEOF\nb=1\n"), { a: "x\ny", b: "1" });
 * ```
 */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const block = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (block) {
      const end = lines.indexOf(block[2], i + 1);
      const stop = end === -1 ? lines.length : end;
      out[block[1]] = lines.slice(i + 1, stop).join("\n");
      i = stop;
      continue;
    }
    const line = /^([^=]+)=(.*)$/.exec(lines[i]);
    if (line) out[line[1]] = line[2];
  }
  return out;
}

/**
 * The annotations a step's output makes: `::error|warning|notice …::message` lines, except inside
 * a `::stop-commands::TOKEN` … `::TOKEN::` block (where GitHub ignores commands).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAnnotations } from "./action_job.ts";
 * const log = "::stop-commands::t\n::error::no\n::t::\n::warning title=x%3Ay::a%0Ab\n";
 * assert.deepEqual(parseAnnotations(log), [{ level: "warning", title: "x:y", message: "a\nb" }]);
 * ```
 */
export function parseAnnotations(stdout: string): Annotation[] {
  const unescape = (s: string) =>
    s.replaceAll("%0D", "\r").replaceAll("%0A", "\n").replaceAll("%3A", ":")
      .replaceAll("%2C", ",").replaceAll("%25", "%");
  const found: Annotation[] = [];
  let stopToken: string | undefined;
  for (const line of stdout.split("\n")) {
    if (stopToken !== undefined) {
      if (line.trim() === `::${stopToken}::`) stopToken = undefined;
      continue;
    }
    const stop = /^\s*::stop-commands::(.+)$/.exec(line);
    if (stop) {
      stopToken = stop[1].trim();
      continue;
    }
    const m = /^\s*::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!m) continue;
    const title = /(?:^|,)title=([^,]*)/.exec(m[2] ?? "")?.[1];
    found.push({
      level: m[1] as Annotation["level"],
      ...(title === undefined ? {} : { title: unescape(title) }),
      message: unescape(m[3]),
    });
  }
  return found;
}
