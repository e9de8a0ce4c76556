/**
 * A temporary workspace for the Action's scripts, with GitHub's files (`$GITHUB_OUTPUT`,
 * `$GITHUB_STEP_SUMMARY`) and variables of a pull request's job, removed when disposed.
 *
 * @module
 */
import { join } from "node:path";

/** A temporary workspace with GitHub's files, removed when done. */
export async function workspace(plans: Record<string, string>) {
  const path = await Deno.makeTempDir({ prefix: "tailgate-ws-" });
  const output = join(path, ".github-output");
  const summary = join(path, ".github-summary");
  await Deno.writeTextFile(output, "");
  await Deno.writeTextFile(summary, "# earlier step\n");
  for (const [file, text] of Object.entries(plans)) {
    await Deno.mkdir(join(path, file, ".."), { recursive: true });
    await Deno.writeTextFile(join(path, file), text);
  }
  return {
    path,
    env: {
      GITHUB_ACTIONS: "true",
      GITHUB_WORKSPACE: path,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_REF: "refs/pull/7/merge",
      GITHUB_RUN_ID: "7100",
      GITHUB_RUN_ATTEMPT: "1",
    },
    async outputs(): Promise<Record<string, string>> {
      const out: Record<string, string> = {};
      const text = await Deno.readTextFile(output);
      for (const m of text.matchAll(/^([\w-]+)<<(\S+)\n(.*?)\n\2$/gms)) out[m[1]] = m[3];
      return out;
    },
    summary: () => Deno.readTextFile(summary),
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}
