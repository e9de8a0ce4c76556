/**
 * The run's id (`run.id` in the result, `run_id` on its exported metrics): what ties a run's
 * series, its shards' results and a CI job together in a team's monitoring.
 *
 * @module
 */
import { err, ok, problem, type Result } from "../model/mod.ts";

/** What a run id may hold: it becomes a metric label and a file-safe word. */
const RUN_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The run's id: `TAILGATE_RUN_ID` when set (letters, digits, `.`, `_`, `-`; at most 64), else the
 * CI's run and attempt (`GITHUB_RUN_ID-GITHUB_RUN_ATTEMPT`: the shards of one workflow run share
 * it), else 16 random hex digits. A `TAILGATE_RUN_ID` that breaks the rule is an error: its text
 * says which variable and what it may hold.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runIdOf } from "./run_id.ts";
 * const env = (vars: Record<string, string>) => (name: string) => vars[name];
 * assert.deepEqual(runIdOf(env({ TAILGATE_RUN_ID: "nightly-42" })), { ok: true, value: "nightly-42" });
 * assert.deepEqual(runIdOf(env({ GITHUB_RUN_ID: "901", GITHUB_RUN_ATTEMPT: "2" })), { ok: true, value: "901-2" });
 * const drawn = runIdOf(env({}));
 * assert.ok(drawn.ok && /^[0-9a-f]{16}$/.test(drawn.value));
 * assert.equal(runIdOf(env({ TAILGATE_RUN_ID: "a b" })).ok, false);
 * ```
 */
export function runIdOf(
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): Result<string> {
  const own = env("TAILGATE_RUN_ID");
  if (own !== undefined && own !== "") {
    return RUN_ID.test(own) ? ok(own) : err(problem(
      `TAILGATE_RUN_ID ${JSON.stringify(own.slice(0, 80))} is not a run id`,
      "use letters, digits, `.`, `_` and `-`, at most 64 of them",
    ));
  }
  const ciRun = env("GITHUB_RUN_ID");
  if (ciRun && /^\d{1,20}$/.test(ciRun)) {
    const attempt = env("GITHUB_RUN_ATTEMPT");
    return ok(attempt && /^\d{1,6}$/.test(attempt) ? `${ciRun}-${attempt}` : ciRun);
  }
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return ok([...bytes].map((b) => b.toString(16).padStart(2, "0")).join(""));
}
