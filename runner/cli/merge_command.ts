/**
 * `tailgate merge shard-*.json`: the results of a sharded run merged into the whole plan's
 * result (histograms exactly, intervals by wall-clock time), judged once, every report written.
 *
 * @module
 */
import { mergeResults } from "../result/mod.ts";
import { readRunResultFile } from "../result/mod.ts";
import type { RunResult } from "../model/mod.ts";
import { failed } from "./command.ts";
import { finishResult } from "../api/mod.ts";
import { checkOutDir, outOverlap } from "../api/mod.ts";
import { parseCommandArgs, readResultArgs, RESULT_ARG_OPTIONS } from "./args/mod.ts";
import type { RunOutcome } from "./run_command.ts";
import { problemText } from "../model/mod.ts";

/** The help of `tailgate merge`. */
export const MERGE_HELP =
  `Usage: tailgate merge <shard-result.json>... [--out DIR] [--report FORMATS]
                      [--fail-on WHAT] [--junit-inconclusive HOW]
                      [--baseline DIR | --no-baseline] [--update-baseline]
                      [--commit SHA] [--branch NAME] [--history-runs N]

Merges the result.json files of one sharded run (\`tailgate run --shard I/N\` on N machines, all
N of them) into the whole plan's result: histograms merged exactly, counts added, per-interval
data aligned by wall-clock time. Then judges the gates once and writes the reports, as
\`tailgate run\` does (same options, same exit codes).
  --out DIR        where the merged result and reports go (default ./tailgate-out/)
  --report FORMATS html, junit, md, hlog or all (default html,junit,md); result.json always
  --report-url URL where the HTML report will be; the Markdown summary links it
  --commit SHA     the commit the shards measured (7 to 40 hex digits); default the one
                   the shards recorded (GITHUB_SHA, CI_COMMIT_SHA or git's HEAD there)
  --branch NAME    the branch they ran on; default the one the shards recorded
  --fail-on WHAT, --allow-inconclusive, --junit-inconclusive HOW, --baseline DIR,
  --no-baseline, --update-baseline, --history-runs N, --color, --no-color    as for
                   \`tailgate run\``;

/**
 * Runs `tailgate merge`.
 */
export async function mergeCommand(args: string[], signal?: AbortSignal): Promise<RunOutcome> {
  const read = parseCommandArgs(args, RESULT_ARG_OPTIONS);
  if (!read.ok) return usage(read.problems[0].message);
  const parsed = read.value;
  const files = parsed.positionals;
  if (files.length === 0) {
    return usage("name the shard results, e.g. `tailgate merge shard-*/result.json`");
  }
  const shared = readResultArgs(parsed.values);
  if (!shared.ok) return usage(shared.problems.map(problemText).join("; "));
  const parts: RunResult[] = [];
  for (const file of files) {
    const read = await readRunResultFile(file);
    if (!read.ok) return usage(read.problems.map((p) => p.message).join("\n"));
    parts.push(read.value);
  }
  const mergedOrNot = mergeResults(parts, files);
  if (!mergedOrNot.ok) return usage(mergedOrNot.problems.map(problemText).join("; "));
  const merged = mergedOrNot.value;
  // The commit and branch the merged run is filed under: the flags, else what the shards recorded.
  const { commit, branch } = shared.value;
  const result = {
    ...merged.result,
    environment: {
      ...merged.result.environment,
      ...(commit === undefined ? {} : { gitSha: commit }),
      ...(branch === undefined ? {} : { gitBranch: branch }),
    },
  };
  const outProblem = await checkOutDir(shared.value.outDir) ??
    await outOverlap(shared.value.outDir, shared.value.baselineDir);
  if (outProblem) return usage(outProblem);
  const finished = await finishResult(result, {
    ...shared.value,
    judge: true,
    ...(signal ? { signal } : {}),
  });
  return {
    exitCode: finished.exitCode,
    errors: [...merged.warnings, ...finished.ioFailures],
    notes: finished.notes,
    output: `merged ${files.length} shard results\n${finished.summary}`,
    result: finished.result,
    ...(finished.paths.json ? { resultPath: finished.paths.json } : {}),
  };
}

function usage(error: string): RunOutcome {
  return failed(error);
}
