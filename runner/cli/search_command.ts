/**
 * `tailgate search plan.yaml`: the capacity search of the plan's `search` section (the highest
 * rate at which its SLOs hold). Writes `search.json` and `search.md` atomically when the search
 * ends, also when it is stopped (Ctrl-C keeps every step measured), and exits by the search's gate.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkReachable } from "../engine/preflight.ts";
import { EXIT_CODES } from "../model/exit_codes.ts";
import type { SearchResult } from "../model/search_result.ts";
import { formatDurationMs, formatRatePerSec } from "../plan/units.ts";
import { writeFileAtomic } from "../result/atomic_write.ts";
import { runSearch } from "../search/run_search.ts";
import { renderSearchMarkdown, renderSearchTerminal } from "../../reporters/search_report.ts";
import { type CommandOutcome, failed } from "./command.ts";
import { checkOutDir } from "./out_dir.ts";
import { planToRun } from "./plan_to_run.ts";
import { argsError } from "./result_args.ts";
import { retarget } from "./run_command.ts";

/** The help of `tailgate search`. */
export const SEARCH_HELP = `Usage: tailgate search <plan.yaml> [--out DIR] [--target URL]

Finds the highest rate at which the plan's SLOs hold (its sustainable throughput): doubling
from search.from until a step fails, then bisecting to within search.precision, then a soak at
the rate found. Each step is a fresh run with its own warmup, judged pass, fail or inconclusive
(an inconclusive step is repeated twice as long, never guessed); a rate tailgate itself keeps
failing to send ends the search inconclusive, never as a figure about the server.
  --out DIR      where search.json and search.md go (default ./tailgate-out/)
  --target URL   search against this base URL instead of the plan's target
Exit codes: 0 the rate found meets search.require (or no require), 1 it does not, 2 invalid
plan or usage, 3 inconclusive or stopped, 4 the target is unreachable.`;

/**
 * Runs `tailgate search`.
 *
 * @example
 * ```ts
 * import { searchCommand } from "./search_command.ts";
 * // const outcome = await searchCommand(["plans/search.yaml"], console.error);
 * ```
 */
export async function searchCommand(
  args: string[],
  progress: (line: string) => void,
  signal?: AbortSignal,
): Promise<CommandOutcome> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { out: { type: "string" }, target: { type: "string" } },
    });
  } catch (e) {
    return failed(argsError(e));
  }
  const [planPath, ...extra] = parsed.positionals;
  if (planPath === undefined) return failed("name the plan, e.g. `tailgate search plan.yaml`");
  if (extra.length) return failed(`one plan per search; unexpected \`${extra.join(" ")}\``);
  const outDir = parsed.values.out ?? "tailgate-out";
  const loaded = await planToRun(planPath, progress);
  if ("outcome" in loaded) return loaded.outcome;
  const target = parsed.values.target;
  const plan = target ? retarget(loaded.plan, target) : loaded.plan;
  const search = plan.search;
  if (search === undefined) {
    return failed(
      `${planPath} has no \`search\` section: add e.g. \`search: { from: 1k/s, max: 100k/s }\` ` +
        "(docs/plan.md, `search`)",
    );
  }
  const outProblem = await checkOutDir(outDir);
  if (outProblem) return failed(outProblem);
  const unreachable = await checkReachable(new URL(plan.requests[0].url));
  if (unreachable) return failed(unreachable, EXIT_CODES.unreachable);

  const path = join(outDir, "search.json");
  const result = await runSearch({ ...plan, search }, {
    ...(signal ? { signal } : {}),
    onStep: ({ phase, step }) => {
      const what = `${formatRatePerSec(step.ratePerSec)} for ${formatDurationMs(step.durationMs)}` +
        (step.soak ? " (soak)" : "");
      if (phase === "start") progress(`search: trying ${what}`);
      else if ("outcome" in step) progress(`search: ${what}: ${step.outcome} (${step.summary})`);
    },
  });
  await write(outDir, result);
  const exitCode = result.verdict.status === "pass"
    ? EXIT_CODES.ok
    : result.verdict.status === "fail"
    ? EXIT_CODES.gateFailed
    : EXIT_CODES.invalidRun;
  return {
    exitCode,
    errors: [],
    notes: [],
    output: `${renderSearchTerminal(result)}\n\nwrote ${path}\nwrote ${join(outDir, "search.md")}`,
  };
}

async function write(outDir: string, result: SearchResult): Promise<void> {
  await Deno.mkdir(outDir, { recursive: true });
  await writeFileAtomic(join(outDir, "search.json"), JSON.stringify(result, null, 1) + "\n");
  await writeFileAtomic(join(outDir, "search.md"), renderSearchMarkdown(result));
}
