/**
 * Advice in the words of the command that ran the plan: the one place a remedy names a setting.
 * `tailgate run` takes the plan's settings (`load.workers`) and its own options (`--confirm`); a
 * command that takes none (`tailgate demo`) stores the command that does (`run.rerunWith`), and
 * advice names that command instead of options the one in use lacks. Pure.
 *
 * @module
 */

/** What the command that ran the plan lets a user change (a result's `run`). */
export interface AdviceScope {
  /** The command that runs the plan with settings, when the one that ran it takes none. */
  rerunWith?: string;
}

/**
 * "more workers", as the command that ran the plan can have them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { moreWorkers } from "./advice_scope.ts";
 * assert.equal(moreWorkers({}), "more workers");
 * assert.equal(
 *   moreWorkers({ rerunWith: "tailgate run plans/demo.yaml" }),
 *   "more workers (`load.workers`, with `tailgate run plans/demo.yaml`: this command takes no settings)",
 * );
 * ```
 */
export function moreWorkers(scope: AdviceScope | undefined): string {
  return scope?.rerunWith === undefined
    ? "more workers"
    : `more workers (\`load.workers\`, with \`${scope.rerunWith}\`: this command takes no settings)`;
}

/**
 * How a rerun that could settle a gate is made: `--confirm`, or the command that takes it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { confirmReruns } from "./advice_scope.ts";
 * assert.equal(confirmReruns({}), "--confirm reruns it");
 * assert.equal(
 *   confirmReruns({ rerunWith: "tailgate run plans/demo.yaml" }),
 *   "`tailgate run plans/demo.yaml --confirm 2` reruns it",
 * );
 * ```
 */
export function confirmReruns(scope: AdviceScope | undefined): string {
  return scope?.rerunWith === undefined
    ? "--confirm reruns it"
    : `\`${scope.rerunWith} --confirm 2\` reruns it`;
}
