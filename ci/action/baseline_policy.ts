/**
 * Where a CI job's baselines come from and whether it updates them: a pull request compares with
 * the default branch's history and never updates it; a push (or a scheduled or manual run) on the
 * default branch appends its run. docs/ci.md describes the modes.
 *
 * @module
 */
import { err, ok, problems, type Result } from "../../runner/model/mod.ts";

/** Where the history lives between runs. */
export type BaselineMode = "cache" | "branch" | "committed" | "none";

/** The values of the `baseline` input. */
export const BASELINE_MODES: readonly BaselineMode[] = ["cache", "branch", "committed", "none"];

/** The action's inputs the policy reads (`update` is `auto`, `true` or `false`). */
export interface PolicyInputs {
  mode: string;
  baselineDir: string;
  update: string;
  /** Set on one shard of a sharded run. */
  shard?: string;
  /** Prefix of the cache keys. */
  cacheKey: string;
}

/** What the job runs in (GitHub's variables; all optional outside GitHub Actions). */
export interface JobContext {
  eventName?: string;
  /** `refs/heads/main`, `refs/pull/7/merge`, …. */
  ref?: string;
  /** The repository's default branch, from the event payload when it has one. */
  defaultBranch?: string;
  runId?: string;
  runAttempt?: string;
  runnerOs?: string;
  runnerArch?: string;
}

/** The decision. */
export interface BaselinePolicy {
  mode: BaselineMode;
  /** The folder `tailgate` reads (and updates); undefined: no regression gate. */
  baselineDir?: string;
  update: boolean;
  /** The job runs on the default branch (a push, schedule or manual run there). */
  onDefaultBranch: boolean;
  /** The key a cache update is saved under: unique per run and attempt. */
  cacheKey: string;
  /** The prefix a restore matches: the newest entry the branch (or the default branch) saved. */
  cacheRestorePrefix: string;
  /** Why, when the inputs asked for something the policy does not do. */
  notes: string[];
}

const PULL_REQUEST_EVENTS = new Set(["pull_request", "pull_request_target", "merge_group"]);
const UPDATE_EVENTS = new Set(["push", "schedule", "workflow_dispatch"]);

/**
 * Decides the baseline policy, or says what is wrong with the inputs.
 */
export function baselinePolicy(
  inputs: PolicyInputs,
  ctx: JobContext,
): Result<BaselinePolicy> {
  const errors: string[] = [];
  if (!(BASELINE_MODES as readonly string[]).includes(inputs.mode)) {
    errors.push(`baseline: \`${inputs.mode}\` is not one of ${BASELINE_MODES.join(", ")}`);
  }
  if (!["auto", "true", "false"].includes(inputs.update)) {
    errors.push(`update-baseline: \`${inputs.update}\` is not auto, true or false`);
  }
  if (inputs.mode !== "none" && inputs.baselineDir.trim() === "") {
    errors.push("baseline-dir: empty; name a folder, or set baseline: none");
  }
  if (!/^[^,\s]+$/.test(inputs.cacheKey)) {
    errors.push(`cache-key: \`${inputs.cacheKey}\` must be one word without commas`);
  }
  if (errors.length) return err(problems(errors));
  const notes: string[] = [];
  let mode = inputs.mode as BaselineMode;
  if (inputs.shard && mode !== "none") {
    notes.push("a shard is judged by the merge: this job neither reads nor updates baselines");
    mode = "none";
  }
  const pullRequest = PULL_REQUEST_EVENTS.has(ctx.eventName ?? "");
  if (pullRequest && inputs.update === "true") {
    notes.push(`a ${ctx.eventName} run never updates the baseline: update-baseline ignored`);
  }
  const onDefault = ctx.defaultBranch
    ? ctx.ref === `refs/heads/${ctx.defaultBranch}`
    : ctx.eventName === "schedule"; // scheduled runs always run on the default branch
  const update = mode !== "none" && !pullRequest &&
    (inputs.update === "true" ||
      (inputs.update === "auto" && UPDATE_EVENTS.has(ctx.eventName ?? "") && onDefault));
  const prefix = `${inputs.cacheKey}-${ctx.runnerOs ?? "local"}-${ctx.runnerArch ?? "local"}-`;
  return ok({
    mode,
    ...(mode === "none" ? {} : { baselineDir: inputs.baselineDir.trim() }),
    update,
    onDefaultBranch: onDefault,
    cacheKey: `${prefix}${ctx.runId ?? Date.now()}-${ctx.runAttempt ?? "1"}`,
    cacheRestorePrefix: prefix,
    notes,
  });
}

/**
 * The job context from GitHub's variables (`GITHUB_EVENT_NAME`, `GITHUB_REF`, …) and
 * `TAILGATE_DEFAULT_BRANCH` (the action passes the event's `repository.default_branch`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jobContext } from "./baseline_policy.ts";
 * assert.equal(jobContext({ GITHUB_EVENT_NAME: "push", GITHUB_REF: "refs/heads/main" }).eventName, "push");
 * ```
 */
export function jobContext(env: Record<string, string | undefined>): JobContext {
  const pick = (name: string) => env[name] || undefined;
  return {
    eventName: pick("GITHUB_EVENT_NAME"),
    ref: pick("GITHUB_REF"),
    defaultBranch: pick("TAILGATE_DEFAULT_BRANCH"),
    runId: pick("GITHUB_RUN_ID"),
    runAttempt: pick("GITHUB_RUN_ATTEMPT"),
    runnerOs: pick("RUNNER_OS"),
    runnerArch: pick("RUNNER_ARCH"),
  };
}
