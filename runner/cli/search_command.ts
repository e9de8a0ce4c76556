/**
 * `tailgate search plan.yaml`: the capacity search of the plan's `search` section (the highest
 * rate at which its SLOs hold). Writes `search.json`, `search.md` and `search.html` atomically when the search
 * ends, also when it is stopped (Ctrl-C keeps every step measured), and exits by the search's
 * verdict (its `sustainable_rate` SLOs and the rate found against the plan's search history).
 *
 * @module
 */
import { DEFAULT_HISTORY_DIR } from "../history/mod.ts";
import { retarget } from "../plan/mod.ts";
import { searchPlan } from "../search/mod.ts";
import { type CommandOutcome, failed } from "./command.ts";
import { planToRun } from "./plan_to_run.ts";
import { parseCommandArgs, readStartArgs, START_HELP, START_OPTIONS } from "./args/mod.ts";

/** The help of `tailgate search`. */
export const SEARCH_HELP = `Usage: tailgate search <plan.yaml> [--out DIR] [--target URL]
                       [--ca-cert FILE] [--baseline DIR | --no-baseline] [--update-baseline]
                       [--start CMD | --no-start] [--ready URL|PORT] [--ready-timeout DUR]

Finds the highest rate at which the plan's SLOs hold (its sustainable throughput): doubling
from search.from until a step fails, then bisecting to within search.precision, then a soak at
the rate found. Each step is a fresh run with its own warmup, judged pass, fail or inconclusive
(an inconclusive step is repeated twice as long, never guessed); a rate tailgate itself keeps
failing to send ends the search inconclusive, never as a figure about the server.
  --out DIR      where search.json, search.md and search.html go (default ./tailgate-out/)
  --target URL   search against this base URL instead of the plan's target
  --ca-cert FILE trust this PEM certificate for https targets (repeatable); an untrusted
                 certificate is named before the search starts (exit 4)
  --baseline DIR the plans' histories (default .tailgate/baselines): the rate found is judged
                 against the plan's past searches on this machine (a drop of over 10% that the
                 history's spread cannot explain is a regression)
  --no-baseline  skip the regression gate
  --update-baseline  add this search's rate to the history (complete searches that found one)
${START_HELP}
Gates: the plan's sustainable_rate SLOs (e.g. sustainable_rate >= 20k/s) and the history.
Exit codes: 0 every gate passed (or there is none and a rate was found), 1 a gate failed,
2 invalid plan or usage, 3 inconclusive or stopped (or Ctrl-C while the service got ready),
4 the target is unreachable (or the started service exited or was never ready), 5 a file or the
history could not be written (over 0, 1 and 3).`;

/** The options `parseArgs` reads (every one is in the help; a test keeps it so). */
export const SEARCH_OPTIONS = {
  out: { type: "string" },
  target: { type: "string" },
  "ca-cert": { type: "string", multiple: true },
  baseline: { type: "string" },
  "no-baseline": { type: "boolean" },
  "update-baseline": { type: "boolean" },
  ...START_OPTIONS,
} as const;

/**
 * Runs `tailgate search`.
 */
export async function searchCommand(
  args: string[],
  progress: (line: string) => void,
  signal?: AbortSignal,
): Promise<CommandOutcome> {
  const read = parseCommandArgs(args, SEARCH_OPTIONS);
  if (!read.ok) return failed(read.problems);
  const parsed = read.value;
  const [planPath, ...extra] = parsed.positionals;
  if (planPath === undefined) return failed("name the plan, e.g. `tailgate search plan.yaml`");
  if (extra.length) return failed(`one plan per search; unexpected \`${extra.join(" ")}\``);
  const start = readStartArgs(parsed.values);
  if (!start.ok) return failed(start.problems);
  const loaded = await planToRun(planPath, progress);
  if ("outcome" in loaded) return loaded.outcome;
  const target = parsed.values.target;
  const noBaseline = parsed.values["no-baseline"];
  return await searchPlan(target ? retarget(loaded.plan, target) : loaded.plan, {
    outDir: parsed.values.out ?? "tailgate-out",
    ...(noBaseline ? {} : { baselineDir: parsed.values.baseline ?? DEFAULT_HISTORY_DIR }),
    updateBaseline: parsed.values["update-baseline"] ?? false,
    caCertFiles: parsed.values["ca-cert"] ?? [],
    ...(start.value ? { start: start.value } : {}),
    onProgress: progress,
    ...(signal ? { signal } : {}),
  });
}
