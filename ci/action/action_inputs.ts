/**
 * The action's inputs as the scripts read them: from `TAILGATE_*` variables (the input's name in
 * upper case, `-` as `_`), which action.yml sets and which a GitLab job sets by hand.
 *
 * @module
 */
import { BASELINE_MODES } from "./baseline_policy.ts";
import { FAIL_ON_VALUES, type FailOn } from "./verdict.ts";
import { readFailOn } from "../../runner/result/mod.ts";
import { type JunitInconclusive, readJunitInconclusive } from "../../reporters/mod.ts";
import { type ConfirmTimes, readConfirm } from "../../runner/gates/mod.ts";
import { planPatterns } from "./expand_plans.ts";
import { err, ok, prefixed, problems, problemText, type Result } from "../../runner/model/mod.ts";
import { type AbInputs, reportFormats } from "./tailgate_args.ts";
import { type HistoryInputs, readHistoryInputs } from "./history/mod.ts";

/**
 * Every input's default, as action.yml and docs/ci.md state them (a test keeps the three
 * equal).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { INPUT_DEFAULTS } from "./action_inputs.ts";
 * assert.equal(INPUT_DEFAULTS.baseline, "cache");
 * ```
 */
export const INPUT_DEFAULTS = {
  plans: "plans/**/*.yaml",
  baseline: "cache",
  "baseline-dir": ".tailgate/baselines",
  "baseline-branch": "tailgate-baselines",
  "baseline-commit": "false",
  "update-baseline": "auto",
  "cache-key": "tailgate-baselines",
  history: "auto",
  "history-recent": "10",
  "history-fail": "false",
  report: "json,html,junit,md,hlog",
  "fail-on": "inconclusive-sampling",
  "junit-inconclusive": "auto",
  confirm: "auto",
  "fail-fast": "",
  target: "",
  start: "",
  ready: "",
  out: "tailgate-out",
  "artifact-name": "tailgate-report",
  shard: "",
  "start-at": "",
  merge: "",
  "ab-base": "",
  "ab-head": "",
  "ab-base-start": "",
  "ab-head-start": "",
  "ab-base-ready": "",
  "ab-head-ready": "",
  "ab-rounds": "5",
  "deno-version": "2.9.6",
  "deno-cache": "true",
} as const;

/** The name of one input. */
export type InputName = keyof typeof INPUT_DEFAULTS;

/**
 * The variable an input is passed in: `TAILGATE_` and its name in upper case, `-` as `_`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputVariable } from "./action_inputs.ts";
 * assert.equal(inputVariable("fail-on"), "TAILGATE_FAIL_ON");
 * ```
 */
export function inputVariable(name: InputName): string {
  return `TAILGATE_${name.toUpperCase().replaceAll("-", "_")}`;
}

/**
 * An input's value from its variable, trimmed; its default when the variable is not set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputValue } from "./action_inputs.ts";
 * assert.equal(inputValue({}, "out"), "tailgate-out");
 * ```
 */
export function inputValue(env: Record<string, string | undefined>, name: InputName): string {
  return (env[inputVariable(name)] ?? INPUT_DEFAULTS[name]).trim();
}

/** What the run step needs, resolved (the baseline policy already applied). */
export interface RunInputs {
  plans: string[];
  out: string;
  reports: string[];
  target?: string;
  /** `--start` and `--ready` of every plan's run: the service is started and stopped per plan. */
  start?: string;
  ready?: string;
  /** Undefined: no regression gate. */
  baselineDir?: string;
  updateBaseline: boolean;
  /** `baseline: committed`: updated history files are copied into the artifact. */
  committed: boolean;
  failOn: FailOn;
  /** How each plan's JUnit file writes an undecided gate (`--junit-inconclusive`). */
  junitInconclusive: JunitInconclusive;
  /**
   * `--confirm`: `auto` (one rerun when tail regressions alone turn a run red) or up to N reruns
   * before believing a red a rerun could clear (0: none).
   */
  confirm: ConfirmTimes;
  /** `--fail-fast` (true) or `--no-fail-fast` (false); undefined: each plan's `fail_fast`. */
  failFast?: boolean;
  shard?: string;
  startAt?: string;
  /**
   * `--seed` for a shard job without `start-at`: one per workflow run and attempt (its matrix
   * jobs share it), so every shard draws from one seed and each rerun of the workflow draws anew.
   */
  shardSeed?: number;
  /** A folder of shard results to merge instead of running plans. */
  merge?: string;
  /** A/B mode: `tailgate ab` of each plan against these two targets instead of `run`. */
  ab?: AbInputs;
  /** `tailgate history` after the plans; undefined: not run. */
  history?: HistoryInputs;
}

/**
 * Reads the run step's inputs. `TAILGATE_UPDATE_BASELINE` must be `true` or `false` here (the
 * action's settings step resolves `auto`); `TAILGATE_HISTORY` may still be `auto` (a GitLab job):
 * then the history runs when the job updates it. Unset inputs take their defaults.
 */
export function readRunInputs(
  env: Record<string, string | undefined>,
): Result<RunInputs> {
  const get = (name: InputName) => inputValue(env, name);
  const errors: string[] = [];
  const mode = get("baseline");
  if (!(BASELINE_MODES as readonly string[]).includes(mode)) {
    errors.push(`baseline: \`${mode}\` is not one of ${BASELINE_MODES.join(", ")}`);
  }
  const update = env.TAILGATE_UPDATE_BASELINE?.trim() || "false";
  if (update !== "true" && update !== "false") {
    errors.push(`TAILGATE_UPDATE_BASELINE: \`${update}\` must be true or false here`);
  }
  // `insufficient` is the name tailgate's results used before format 3 for `inconclusive`.
  const failOn = readFailOn(get("fail-on"), FAIL_ON_VALUES);
  if (!failOn.ok) errors.push(...prefixed("fail-on: ", failOn.problems).map(problemText));
  const junit = readJunitInconclusive(get("junit-inconclusive"));
  if (!junit.ok) {
    errors.push(...prefixed("junit-inconclusive: ", junit.problems).map(problemText));
  }
  const confirmRead = readConfirm(get("confirm"));
  if (!confirmRead.ok) errors.push(...prefixed("confirm: ", confirmRead.problems).map(problemText));
  const confirm = confirmRead.ok ? confirmRead.value : 0;
  const failFast = get("fail-fast");
  if (!["", "true", "false"].includes(failFast)) {
    errors.push(`fail-fast: \`${failFast}\` is not true, false or empty (each plan's fail_fast)`);
  }
  const plans = planPatterns(get("plans"));
  const [shard, startAt, merge, target, start, ready] = (
    ["shard", "start-at", "merge", "target", "start", "ready"] as const
  ).map(get);
  if (merge && shard) errors.push("merge and shard exclude each other: a merge job runs no plan");
  if (merge && start) errors.push("merge and start exclude each other: a merge job runs no plan");
  if (merge && failFast) {
    errors.push("merge and fail-fast exclude each other: a merge job runs no plan");
  }
  if (ready && !start) errors.push("ready needs start: the command that starts the service");
  if (!merge && plans.length === 0) {
    errors.push("plans: no pattern; name plan files, e.g. plans/*.yaml");
  }
  const [abBase, abHead] = [get("ab-base"), get("ab-head")];
  const abRounds = Number(get("ab-rounds"));
  if ((abBase === "") !== (abHead === "")) {
    errors.push("ab-base and ab-head come together: the A/B mode compares the two targets");
  }
  if (abBase && (merge || shard || target || (confirm !== "auto" && confirm > 0) || start)) {
    errors.push(
      "the A/B mode (ab-base, ab-head) runs no shard, merge, target, confirm or start: it " +
        "starts (ab-base-start, ab-head-start) and compares its own two targets",
    );
  }
  for (const side of ["base", "head"] as const) {
    if (get(`ab-${side}-ready`) && !get(`ab-${side}-start`)) {
      errors.push(`ab-${side}-ready needs ab-${side}-start: the command that starts ${side}`);
    }
  }
  if (abBase && !(Number.isInteger(abRounds) && abRounds >= 3 && abRounds <= 100)) {
    errors.push(`ab-rounds: \`${get("ab-rounds")}\` is not a whole number from 3 to 100`);
  }
  const out = get("out");
  if (out === "") errors.push("out: empty; name the output folder, e.g. tailgate-out");
  const baselineDir = get("baseline-dir");
  if (mode !== "none" && baselineDir === "") errors.push("baseline-dir: empty");
  const history = readHistoryInputs({
    history: get("history"),
    recent: get("history-recent"),
    fail: get("history-fail"),
    updateBaseline: mode !== "none" && update === "true" && !shard,
    hasBaseline: mode !== "none" && !shard,
    ab: abBase !== "",
  });
  if (!history.ok) errors.push(...history.problems.map(problemText));
  if (errors.length || !failOn.ok || !junit.ok || !history.ok) return err(problems(errors));
  return ok({
    plans,
    out,
    reports: reportFormats(get("report")),
    ...(target ? { target } : {}),
    ...(start ? { start, ...(ready ? { ready } : {}) } : {}),
    ...(mode === "none" ? {} : { baselineDir }),
    updateBaseline: mode !== "none" && update === "true",
    committed: mode === "committed",
    failOn: failOn.value,
    junitInconclusive: junit.value,
    confirm,
    ...(failFast ? { failFast: failFast === "true" } : {}),
    ...(shard ? { shard } : {}),
    ...(startAt ? { startAt } : {}),
    ...(shard && !startAt && env.GITHUB_RUN_ID
      ? { shardSeed: workflowRunSeed(env.GITHUB_RUN_ID, env.GITHUB_RUN_ATTEMPT ?? "1") }
      : {}),
    ...(merge ? { merge } : {}),
    ...(abBase
      ? {
        ab: {
          base: abBase,
          head: abHead,
          ...(get("ab-base-start") ? { baseStart: get("ab-base-start") } : {}),
          ...(get("ab-head-start") ? { headStart: get("ab-head-start") } : {}),
          ...(get("ab-base-ready") ? { baseReady: get("ab-base-ready") } : {}),
          ...(get("ab-head-ready") ? { headReady: get("ab-head-ready") } : {}),
          ...(failFast ? { failFast: failFast === "true" } : {}),
          rounds: abRounds,
        },
      }
      : {}),
    ...(history.value ? { history: history.value } : {}),
  });
}

/**
 * A 32-bit seed from a workflow run's id and attempt (FNV-1a of `ID/ATTEMPT`): the same in each
 * of its matrix jobs, another for each run and each rerun.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { workflowRunSeed } from "./action_inputs.ts";
 * assert.equal(workflowRunSeed("7", "1"), workflowRunSeed("7", "1"));
 * assert.notEqual(workflowRunSeed("7", "1"), workflowRunSeed("7", "2"));
 * ```
 */
export function workflowRunSeed(runId: string, attempt: string): number {
  let hash = 0x811c9dc5;
  for (const c of `${runId}/${attempt}`) {
    hash ^= c.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
