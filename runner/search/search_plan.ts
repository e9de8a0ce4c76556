/**
 * The lifecycle of `tailgate search`, on the run's lifecycle's first part (runner/api's
 * `withPreparedRun`: the out folder, the CA certificates, the service started, the target
 * reached): load the plan's search history → the steps, each a run → the search's verdict →
 * `search.json`, `search.md` and `search.html` written atomically (also when it is stopped:
 * Ctrl-C keeps every step measured) → the rate filed in the history → the exit code.
 *
 * @module
 */
import { join } from "node:path";
import { failed, type Outcome, stepFailed, withPreparedRun } from "../api/mod.ts";
import type { StartFlags } from "../api/mod.ts";
import { appendSearchHistory, loadSearchHistory, searchHistoryPath } from "../history/mod.ts";
import { EXIT_CODES, ok, problemText, withIoFailures } from "../model/mod.ts";
import { formatDurationMs, formatRatePerSec, type ResolvedPlan } from "../plan/mod.ts";
import { renderSearchTerminal } from "../../reporters/mod.ts";
import { StepFailure } from "../session/mod.ts";
import { runSearch } from "./run_search.ts";
import { searchExhaustion } from "./search_exhaustion.ts";
import { writeSearchFiles } from "./search_files.ts";

/** Options of {@linkcode searchPlan}. */
export interface SearchPlanOptions {
  /** Where search.json, search.md and search.html go. */
  outDir: string;
  /** The plans' histories; undefined skips the regression gate (`--no-baseline`). */
  baselineDir?: string;
  /** Add this search's rate to the history (complete searches that found one). */
  updateBaseline?: boolean;
  /** PEM files to trust for https targets (`--ca-cert`). */
  caCertFiles?: readonly string[];
  /** What the command line says of the service under test; else the plan's `service`. */
  start?: StartFlags;
  /** Progress lines: the service's wait, each step as it starts and ends. */
  onProgress?: (line: string) => void;
  /** Ctrl-C or SIGTERM: ends the search, keeping every step measured. */
  signal?: AbortSignal;
}

/**
 * Searches `plan`'s sustainable rate as `tailgate search` does: the outcome, exit 0 when every
 * gate passed (or there is none and a rate was found), 1 a gate failed, 3 inconclusive or stopped,
 * 4 the target or the service lost, 5 a file or the history not written; failures before the
 * search are outcomes too.
 */
export async function searchPlan(
  plan: ResolvedPlan,
  options: SearchPlanOptions,
): Promise<Outcome> {
  const search = plan.search;
  if (search === undefined) {
    return failed(
      `${plan.file} has no \`search\` section: add e.g. \`search: { from: 1k/s, max: 100k/s }\` ` +
        "(docs/plan.md, `search`)",
    );
  }
  const exhausted = searchExhaustion({ ...plan, search });
  if (exhausted) return failed(exhausted);
  const { outDir, baselineDir } = options;
  const progress = options.onProgress ?? (() => {});
  return await withPreparedRun(plan, {
    outDir,
    ...(baselineDir === undefined ? {} : { historyDir: baselineDir }),
    ...(options.caCertFiles ? { caCertFiles: options.caCertFiles } : {}),
    ...(options.start ? { start: options.start } : {}),
    onProgress: progress,
    ...(options.signal ? { signal: options.signal } : {}),
  }, async ({ caCerts, service, signal }) => {
    if (baselineDir === undefined && options.updateBaseline) {
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
    if (baselineDir !== undefined && options.updateBaseline) {
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
