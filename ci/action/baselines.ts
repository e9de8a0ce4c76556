/**
 * The action's git baseline steps: `restore` copies the history from the `baseline-branch` into
 * `baseline-dir` before the run (`baseline: branch`); `save` commits the updated history to that
 * branch (with the history pages of `tailgate history`, `TAILGATE_HISTORY_DIR`, in its `docs/`),
 * or, with `baseline: committed` and `baseline-commit: true`, to the checked-out branch.
 * A failure is a warning: the gate's verdict stands, and the history is updated next time.
 * (`baseline: cache` uses actions/cache in action.yml instead.)
 *
 * Run: `deno run --allow-all ci/action/baselines.ts restore|save`.
 *
 * @module
 */
import { inputValue } from "./action_inputs.ts";
import { commitInPlace, restoreFromBranch, saveToBranch } from "./baseline_git.ts";
import { formatAnnotation, writeOutputs } from "../workflow_commands.ts";
import { inertLine } from "../../runner/plan/mod.ts";
import { historyPages } from "./history/mod.ts";
import { resolve } from "node:path";

/**
 * Runs `restore` or `save` for the mode in `TAILGATE_BASELINE`; returns the exit code (2 only for
 * a wrong command).
 */
export async function baselinesMain(
  command: string | undefined,
  env: Record<string, string | undefined>,
  print: (line: string) => void,
): Promise<number> {
  const mode = inputValue(env, "baseline");
  const dir = inputValue(env, "baseline-dir");
  const branch = inputValue(env, "baseline-branch");
  const place = { cwd: env.GITHUB_WORKSPACE || Deno.cwd() };
  const sha = (env.GITHUB_SHA ?? "").slice(0, 12) || "a local run";
  const message = `tailgate: baselines after ${sha} (run ${
    env.GITHUB_RUN_ID ?? "local"
  }) [skip ci]`;
  // Plain lines quote inputs (the branch, the folder): printed inert, as no command guards them.
  const say = (line: string) => print(inertLine(line));
  const warn = (what: string, e: unknown) =>
    print(formatAnnotation({
      level: "warning",
      title: "tailgate baselines",
      message: `${what}: ${(e as Error).message}`,
    }));
  try {
    if (command === "restore" && mode === "branch") {
      const restored = await restoreFromBranch(place, branch, dir);
      say(
        restored.commit
          ? `restored ${restored.files.length} baseline file(s) from ${branch} at ${restored.commit}`
          : `no branch ${branch} yet: the first update on the default branch creates it`,
      );
      await writeOutputs({ "restored-commit": restored.commit ?? "" }, env.GITHUB_OUTPUT);
    } else if (command === "save" && mode === "branch") {
      const restoredCommit = env.TAILGATE_RESTORED_COMMIT || undefined;
      // The run step's `history-dir`: set when it ran `tailgate history`, whose pages go along.
      const historyDir = env.TAILGATE_HISTORY_DIR?.trim();
      const pages = historyDir ? await historyPages(resolve(place.cwd, historyDir)) : [];
      const saved = await saveToBranch(place, branch, dir, restoredCommit, message, { pages });
      say(
        saved.commit
          ? `pushed ${[...saved.changed, ...saved.pages].join(", ")} to ${branch} (${saved.commit})`
          : `baselines unchanged: nothing pushed to ${branch}`,
      );
      if (saved.kept.length) {
        print(formatAnnotation({
          level: "warning",
          title: "tailgate baselines",
          message: `${saved.kept.join(", ")} left as ${branch} has them: this job did not ` +
            "restore them, so its copies lack their runs",
        }));
      }
    } else if (command === "save" && mode === "committed") {
      const current = env.GITHUB_REF_NAME ?? "";
      if (inputValue(env, "baseline-commit") !== "true") {
        print(formatAnnotation({
          level: "notice",
          title: "tailgate baselines",
          message: `${dir} was updated in the workspace and copied into the reports artifact ` +
            "(baselines/): commit it, or set baseline-commit: true",
        }));
      } else if (await commitInPlace(place, current, dir, message)) {
        say(`committed ${dir} to ${current}`);
      }
    } else if (command !== "restore" && command !== "save") {
      say(`usage: baselines.ts restore|save (got ${command ?? "nothing"})`);
      return 2;
    }
  } catch (e) {
    warn(command === "restore" ? "baselines not restored" : "baselines not saved", e);
  }
  return 0;
}

if (import.meta.main) {
  Deno.exitCode = await baselinesMain(Deno.args[0], Deno.env.toObject(), console.log);
}
