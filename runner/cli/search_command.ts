/**
 * `tailgate search plan.yaml`: the capacity search of the plan's `search` section (the highest
 * rate at which its SLOs hold). Writes `search.json`, `search.md` and `search.html` atomically when the search
 * ends, also when it is stopped (Ctrl-C keeps every step measured), and exits by the search's
 * verdict (its `sustainable_rate` SLOs and the rate found against the plan's search history).
 *
 * @module
 */
import { firstUrl } from "../plan/mod.ts";
import { join } from "node:path";
import { checkTarget } from "../engine/mod.ts";
import { DEFAULT_HISTORY_DIR } from "../history/mod.ts";
import { appendSearchHistory, loadSearchHistory, searchHistoryPath } from "../history/mod.ts";
import { EXIT_CODES, withIoFailures } from "../model/mod.ts";
import { formatDurationMs, formatRatePerSec } from "../plan/mod.ts";
import { runSearch } from "../search/mod.ts";
import { renderSearchTerminal } from "../../reporters/mod.ts";
import { writeSearchFiles } from "../search/mod.ts";
import { type CommandOutcome, failed } from "./command.ts";
import { ok, problemText } from "../model/mod.ts";
import { readCaCerts } from "../api/mod.ts";
import { checkOutDir } from "../api/mod.ts";
import { outOverlap } from "../api/mod.ts";
import { planToRun } from "./plan_to_run.ts";
import { parseCommandArgs } from "./args/mod.ts";
import { retarget } from "../plan/mod.ts";
import { searchExhaustion } from "../search/mod.ts";
import {
  readStartArgs,
  serviceToStart,
  START_HELP,
  START_OPTIONS,
  startCommandService,
  withRunService,
} from "./args/mod.ts";
import { StepFailure } from "../session/mod.ts";
import { stepFailed } from "./run_command.ts";

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
  const exhausted = searchExhaustion({ ...plan, search });
  if (exhausted) return failed(exhausted);
  const outProblem = await checkOutDir(outDir) ??
    await outOverlap(outDir, parsed.values["no-baseline"] ? undefined : parsed.values.baseline);
  if (outProblem) return failed(outProblem);
  const certs = await readCaCerts(parsed.values["ca-cert"] ?? []);
  if (!certs.ok) return failed(certs.problems);
  const caCerts = certs.value;
  // The plan's service, or --start's: --ready and --ready-timeout override either's.
  const toStart = serviceToStart(start.value, plan);
  if (!toStart.ok) return failed(toStart.problems);
  const started = toStart.value
    ? await startCommandService(toStart.value, firstUrl(plan), outDir, progress, signal)
    : undefined;
  if (started && "outcome" in started) return started.outcome;
  // Stopped however this returns, what the stop found said; a service lost mid-search stops it.
  const service = started?.service;
  signal = service?.signal ?? signal;
  return await withRunService(service, async () => {
    // Reached, and an https target's certificate trusted, before the first step.
    const unreachable = await checkTarget(
      new URL(firstUrl(plan)),
      caCerts,
      undefined,
      plan.load.http,
    );
    if (unreachable) return failed(unreachable, EXIT_CODES.unreachable);

    const baselineDir = parsed.values["no-baseline"]
      ? undefined
      : parsed.values.baseline ?? DEFAULT_HISTORY_DIR;
    if (baselineDir === undefined && parsed.values["update-baseline"]) {
      return failed("--update-baseline needs a history: drop --no-baseline");
    }
    const history = baselineDir === undefined
      ? ok([])
      : await loadSearchHistory(baselineDir, plan.name);
    if (!history.ok) return failed(history.problems);

    const searched = await runSearch({ ...plan, search }, {
      ...(signal ? { signal } : {}),
      ...(caCerts.length ? { caCerts } : {}),
      history: history.value,
      ...(service ? { service: { pgid: service.pgid } } : {}),
      onStep: ({ phase, step }) => {
        const what =
          `${formatRatePerSec(step.ratePerSec)} for ${formatDurationMs(step.durationMs)}` +
          (step.soak ? " (soak)" : "");
        if (phase === "start") progress(`search: trying ${what}`);
        else if ("outcome" in step) progress(`search: ${what}: ${step.outcome} (${step.summary})`);
      },
    }).catch((e) => {
      if (e instanceof StepFailure) return e;
      throw e;
    });
    if (searched instanceof StepFailure) return stepFailed(searched);
    // A service that died: the search is kept, as one that did not complete.
    const lost = service?.death();
    const result = lost
      ? { ...searched, complete: false, warnings: [...(searched.warnings ?? []), lost] }
      : searched;
    const { written, ioFailures } = await writeSearchFiles(outDir, result);
    const notes: string[] = [];
    if (baselineDir !== undefined && parsed.values["update-baseline"]) {
      try {
        const updated = await appendSearchHistory(baselineDir, result, undefined, signal);
        // A search the history refuses is a note; a file at fault (disk, folder, lock) throws.
        notes.push(
          updated.ok
            ? `history ${searchHistoryPath(baselineDir, plan.name)} now holds ` +
              `${updated.value.entries.length} searches`
            : `history not updated: ${problemText(updated.problems[0])}`,
        );
      } catch (e) {
        ioFailures.push(`history not updated: ${(e as Error).message}`);
      }
    }
    const exitCode = result.verdict.status === "pass"
      ? EXIT_CODES.ok
      : result.verdict.status === "fail"
      ? EXIT_CODES.gateFailed
      : EXIT_CODES.invalidRun;
    // The service lost, or a step's setup failed: the search ended there (exit 4), files kept.
    const ended = [lost, result.setupFailure].filter((w) => w !== undefined);
    return {
      exitCode: ended.length ? EXIT_CODES.unreachable : withIoFailures(exitCode, ioFailures),
      errors: [
        ...ended.map((w) => `${w}; what was measured is in ${join(outDir, "search.json")}`),
        ...ioFailures,
      ],
      notes,
      output: `${renderSearchTerminal(result)}\n\n` +
        written.map((path) => `wrote ${path}`).join("\n"),
    };
  });
}
