/**
 * The action's first step: decides the baseline policy (docs/ci.md) from the inputs in
 * `TAILGATE_*` variables and the job's GitHub variables, and writes it as step outputs for the
 * restore, run and save steps.
 *
 * Run: `deno run --allow-all ci/action/settings.ts`.
 *
 * @module
 */
import { type BaselinePolicy, baselinePolicy, jobContext } from "./baseline_policy.ts";
import { type InputName, inputValue } from "./action_inputs.ts";
import { formatAnnotation, writeOutputs } from "../workflow_commands.ts";
import { inertLine } from "../../runner/plan/mod.ts";
import { problemText } from "../../runner/model/mod.ts";

/**
 * Decides and writes the settings; returns the exit code (2 for invalid inputs).
 */
export async function settingsMain(
  env: Record<string, string | undefined>,
  print: (line: string) => void,
): Promise<number> {
  const get = (name: InputName) => inputValue(env, name);
  const decided = baselinePolicy({
    mode: get("baseline"),
    baselineDir: get("baseline-dir"),
    update: get("update-baseline"),
    cacheKey: get("cache-key"),
    ...(get("shard") ? { shard: get("shard") } : {}),
  }, jobContext(env));
  if (!decided.ok) {
    for (const e of decided.problems) {
      print(formatAnnotation({ level: "error", message: problemText(e) }));
    }
    return 2;
  }
  const p = decided.value;
  const history = historySetting(get("history"), p, get("shard") !== "");
  if (history !== get("history") && get("history") === "true") {
    p.notes.push("a shard keeps no history (its merge job does): history ignored");
  }
  for (const note of p.notes) print(formatAnnotation({ level: "notice", message: note }));
  // The folder is an input: printed inert, as it is outside any stop-commands guard.
  print(inertLine(
    `tailgate baselines: ${p.mode}` +
      (p.baselineDir ? ` in ${p.baselineDir}, ${p.update ? "updated" : "read only"}` : ""),
  ));
  await writeOutputs({
    mode: p.mode,
    "baseline-dir": p.baselineDir ?? "",
    update: String(p.update),
    "cache-key": p.cacheKey,
    "cache-restore-prefix": p.cacheRestorePrefix,
    history,
  }, env.GITHUB_OUTPUT);
  return 0;
}

/**
 * The `history` input resolved for the run step: `auto` runs `tailgate history` on a job that
 * updates the history on the default branch; `true` on any job with a baseline, a shard's
 * excepted (the merge job keeps the history); anything else is passed on, for the run step to
 * refuse what it must.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historySetting } from "./settings.ts";
 * const onMain = { update: true, onDefaultBranch: true };
 * assert.equal(historySetting("auto", onMain, false), "true");
 * assert.equal(historySetting("auto", { ...onMain, onDefaultBranch: false }, false), "false");
 * assert.equal(historySetting("true", { update: false, onDefaultBranch: false }, true), "false");
 * ```
 */
export function historySetting(
  input: string,
  policy: Pick<BaselinePolicy, "update" | "onDefaultBranch">,
  shard: boolean,
): string {
  if (input === "auto") return String(policy.update && policy.onDefaultBranch);
  return input === "true" && shard ? "false" : input;
}

if (import.meta.main) {
  Deno.exitCode = await settingsMain(Deno.env.toObject(), console.log);
}
