/**
 * `tailgate demo`: starts the built-in target in stall mode as a child process (so it does not
 * share the generator's thread), runs plans/demo.yaml against it, and stops the target by its
 * PID. Shows coordinated omission: corrected p99 near the stall length, service time near zero.
 *
 * @module
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { spawnTarget } from "../target/mod.ts";
import { type RunOutcome, runPlanCommand } from "./run_command.ts";
import type { RunOptions } from "./run_args.ts";
import { REPORT_FORMATS } from "../../reporters/mod.ts";
import { err, ok, problem, type Result } from "../model/mod.ts";
import { parseCommandArgs } from "./args/mod.ts";

/** The stall the demo target is started with: frozen for 1 s in every 5 s. */
export const DEMO_TARGET_ARGS = ["--mode", "stall", "--stall", "1s", "--period", "5s"];

/**
 * The command that runs the demo's plan with settings of one's own (`tailgate demo` takes none but
 * `--out`): advice in the demo's result names it, never an option the demo lacks.
 */
export const DEMO_RERUN = "tailgate run plans/demo.yaml";

/** plans/demo.yaml: a file, or a URL when tailgate was installed from one. */
const DEMO_PLAN = new URL("../../plans/demo.yaml", import.meta.url);

/** The help of `tailgate demo`. */
export const DEMO_HELP = `Usage: tailgate demo [out-dir | --out DIR]

Starts the built-in target in stall mode, runs plans/demo.yaml against it and writes the result
and every report.
  --out DIR   where the result and the reports go (default tailgate-out/demo)`;

/** The options `parseArgs` reads (every one is in the help; a test keeps it so). */
export const DEMO_OPTIONS = { out: { type: "string" } } as const;

/**
 * The demo's output folder from its arguments (`[out-dir]` or `--out DIR`), or what is wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDemoArgs } from "./demo_command.ts";
 * assert.deepEqual(parseDemoArgs(["--out", "x"]), { ok: true, value: "x" });
 * ```
 */
export function parseDemoArgs(
  args: string[],
): Result<string> {
  const read = parseCommandArgs(args, DEMO_OPTIONS);
  if (!read.ok) return err(read.problems);
  const parsed = read.value;
  const [dir, ...extra] = parsed.positionals;
  if (extra.length || (dir !== undefined && parsed.values.out !== undefined)) {
    return err(problem("name one output folder: `tailgate demo DIR` or `--out DIR`"));
  }
  return ok(parsed.values.out ?? dir ?? "tailgate-out/demo");
}

/**
 * Runs the demo; `say` receives the explanation and the progress lines.
 */
export async function runDemo(
  outDir: string,
  say: (line: string) => void,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  await using target = await spawnTarget(DEMO_TARGET_ARGS);
  say(
    `tailgate demo: the built-in target at ${target.url} freezes for 1 s in every 5 s, like a ` +
      "server holding a lock.\nRequests keep arriving on schedule while it is frozen, so about a " +
      "fifth of them wait up to a second.\nWatch the corrected response time (from the intended " +
      "send time) against the service time (from the actual send).\n",
  );
  const planPath = DEMO_PLAN.protocol === "file:"
    ? fromFileUrl(DEMO_PLAN)
    : await fetchedPlan(DEMO_PLAN);
  return await runPlanCommand(demoRunOptions(planPath, outDir, target.url), say, signal);
}

/**
 * The run `tailgate demo` makes: `plans/demo.yaml` at `planPath` against the target at `url`,
 * every report into `outDir`, and {@linkcode DEMO_RERUN} for advice to name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEMO_RERUN, demoRunOptions } from "./demo_command.ts";
 * assert.equal(demoRunOptions("demo.yaml", "out", "http://127.0.0.1:1/").rerunWith, DEMO_RERUN);
 * ```
 */
export function demoRunOptions(planPath: string, outDir: string, url: string): RunOptions {
  return {
    planPath,
    outDir,
    target: url,
    caCertFiles: [],
    reports: REPORT_FORMATS,
    rerunWith: DEMO_RERUN,
  };
}

/** A plan at a URL (tailgate installed from one), saved to a temporary file to run. */
async function fetchedPlan(url: URL): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot read the demo plan at ${url.href}: ${response.status}`);
  const path = `${await Deno.makeTempDir({ prefix: "tailgate-demo-" })}/demo.yaml`;
  await Deno.writeTextFile(path, await response.text());
  return path;
}
