/**
 * Helpers for tests of what a plan may put on the wire: a parse's errors with their place and
 * hint, and `tailgate run` on a plan pointed at a recording server.
 *
 * @module
 */
import { join } from "node:path";
import { main } from "../../cli.ts";
import type { PlanParse } from "../../runner/plan/parse_plan.ts";
import { capture } from "./cli_capture.ts";
import { type RecordedRequest, recordingServer } from "./recording_server.ts";

/**
 * The error issues of a parse as `line:col message | hint`.
 *
 * @example
 * ```ts
 * located(parseText(MINIMAL_PLAN)); // []
 * ```
 */
export function located(parse: PlanParse): string[] {
  return parse.issues.filter((i) => i.severity === "error").map((i) =>
    `${i.line}:${i.col} ${i.message} | ${i.hint}`
  );
}

/**
 * Runs `tailgate run` on `planText` (a variant of plan_fixtures.ts's `MINIMAL_PLAN`), written
 * beside `files` (name → text), with its target set to a recording server and its stage cut to
 * 10/s for 1s; returns the exit code, what it printed to stderr, and every request that reached
 * the server.
 *
 * @example
 * ```ts
 * const { code, requests } = await runOnRecorder(MINIMAL_PLAN);
 * ```
 */
export async function runOnRecorder(
  planText: string,
  files: Record<string, string> = {},
): Promise<{ code: number; err: string; requests: RecordedRequest[] }> {
  await using server = recordingServer();
  const dir = await Deno.makeTempDir({ prefix: "tailgate-wire-" });
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(join(dir, name), text);
    }
    const plan = join(dir, "plan.yaml");
    await Deno.writeTextFile(
      plan,
      planText.replace("http://127.0.0.1:8080", server.url)
        .replace("rate: 1k/s, duration: 10s", "rate: 10/s, duration: 1s"),
    );
    const io = capture();
    const code = await main(["run", plan, "--out", join(dir, "out"), "--no-baseline"], io);
    return { code, err: io.err.join("\n"), requests: [...server.requests] };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
