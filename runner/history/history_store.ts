/**
 * The baseline store: one JSON file per plan (`<dir>/<slug>.json`) holding the plan's last runs
 * in full (the regression gate's window) and its long history (`tailgate history`). Appending
 * replaces the file atomically, so a crash mid-write leaves the old one, and a file that cannot be
 * read is never overwritten.
 *
 * @module
 */
import { join } from "node:path";
import { writeFileAtomic } from "../model/mod.ts";
import { readRegularFile } from "../model/mod.ts";
import { err, ok, prefixed, problem, problemText, type Result } from "../model/mod.ts";
import type { RunResult } from "../model/mod.ts";
import { ranContended, targetLost } from "../result/mod.ts";
import { parseHistory } from "./history_parse.ts";
import { withHistoryLock } from "./history_lock.ts";
import { matchStages, type StageMatch } from "./stage_match.ts";
import {
  DEFAULT_BASELINE_RUNS,
  DEFAULT_HISTORY_RUNS,
  HISTORY_FILE_SCHEMA,
  HISTORY_FILE_VERSION,
  type HistoryFile,
  type NotBaselineReason,
  type StoredRun,
} from "./history_types.ts";
import { historyEntryFromRun } from "./history_entry.ts";
import { planFingerprint } from "./fingerprints.ts";
import { fitHistory, historyText } from "./history_text.ts";

/**
 * The largest baseline or search history read (64 MiB): a baseline of a 3-stage plan holds 10
 * runs in full and a long history of 500 runs in about 7 MiB (docs/benchmarks.md); a longer
 * history is trimmed, oldest first, to stay below it; anything larger is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MAX_HISTORY_BYTES } from "./history_store.ts";
 * assert.equal(MAX_HISTORY_BYTES, 67108864);
 * ```
 */
export const MAX_HISTORY_BYTES = 64 * 1024 * 1024;

/**
 * Thrown by {@linkcode appendToHistory} and `appendSearchHistory` when the history's file fails
 * them: `invalid_file` (the existing file cannot be read and was left as it is), `write_failed`
 * (the old file is unchanged). A run the history refuses is no exception: a problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HistoryError } from "./history_store.ts";
 * const e = new HistoryError("write_failed", "could not write the history: disk full");
 * assert.equal(e.kind, "write_failed");
 * ```
 */
export class HistoryError extends Error {
  constructor(
    readonly kind: "invalid_file" | "write_failed",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "HistoryError";
  }
}

/**
 * The file name (without `.json`) a plan's baseline is stored under: lowercase `[a-z0-9._-]`,
 * anything else one `-`, no leading or trailing `-`/`.`, at most 100 characters, "plan" if empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historySlug } from "./history_store.ts";
 * assert.equal(historySlug("Shop API / checkout"), "shop-api-checkout");
 * ```
 */
export function historySlug(planName: string): string {
  const trim = (s: string) => s.replace(/^[-.]+|[-.]+$/g, "");
  const slug = trim(
    planName.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "-").replace(/-{2,}/g, "-"),
  );
  return trim(slug.slice(0, 100)) || "plan";
}

/**
 * The name a run's history is filed under: the plan's name, followed by its command-line
 * overrides when it had any, so a short pull-request run (`--rate-scale 0.25`) keeps a history of
 * its own and never replaces the full plan's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyName } from "./history_store.ts";
 * assert.equal(historyName({ name: "shop", overrides: ["--duration-scale 0.1"] }), "shop --duration-scale 0.1");
 * ```
 */
export function historyName(plan: { name: string; overrides?: string[] }): string {
  return plan.overrides?.length ? `${plan.name} ${plan.overrides.join(" ")}` : plan.name;
}

/**
 * The path of a plan's baseline file in `dir`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyPath } from "./history_store.ts";
 * assert.equal(historyPath(".tailgate/baselines", "Shop"), ".tailgate/baselines/shop.json");
 * ```
 */
export function historyPath(dir: string, planName: string): string {
  return join(dir, `${historySlug(planName)}.json`);
}

/**
 * The baseline entry of a run: its date, fingerprint and stage and label histograms.
 */
export function storedRunFrom(result: RunResult): StoredRun {
  return structuredClone({
    date: result.run.startedAt,
    environment: result.environment,
    stages: result.stages.map((s) => ({
      index: s.index,
      name: s.name,
      warmup: s.warmup,
      fromPerSec: s.fromPerSec,
      toPerSec: s.toPerSec,
      durationMs: s.durationMs,
      counts: s.counts,
      response: s.response,
      service: s.service,
      labels: s.labels.map((l) => ({
        label: l.label,
        counts: l.counts,
        response: l.response,
        service: l.service,
      })),
    })),
  });
}

/**
 * Reads a plan's baseline: `undefined` when there is none yet, a problem naming the file, what is
 * wrong and how to fix it when it cannot be used. A version-1 file comes back migrated (its runs
 * are the history's first entries).
 */
export async function loadHistoryFile(
  dir: string,
  planName: string,
): Promise<Result<HistoryFile | undefined>> {
  const path = historyPath(dir, planName);
  const read = await readRegularFile(path, MAX_HISTORY_BYTES);
  if (!read.ok) {
    if (read.problems[0].kind === "missing") return ok(undefined);
    return err(problem(
      `cannot read baseline ${path}: it ${read.problems[0].reason}`,
      "restore it from version control, move it away (the next --update-baseline starts a new " +
        "history), or pass another folder with --baseline",
    ));
  }
  const parsed = parseHistory(new TextDecoder().decode(read.value), planName);
  return parsed.ok ? parsed : err(prefixed(`baseline ${path} `, parsed.problems));
}

/**
 * The history written; where the previous one was kept when this run started a new one; how many
 * of the oldest history entries were dropped for the file to stay under
 * {@linkcode MAX_HISTORY_BYTES}; why the run joined the long history only, when it did.
 */
export type AppendedHistory = HistoryFile & {
  supersededPath?: string;
  droppedForSize?: number;
  notBaseline?: NotBaselineReason[];
};

/**
 * Why a judged run may not be a baseline others are judged by, though the long history keeps it:
 * it failed an SLO, or ran on a contended machine (its contention could have delayed more of its
 * requests than `CONTENDED_SHARE` and than this runner's stored runs usually show, `usualShares`;
 * or it explained one of its SLOs). Empty for a baseline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notBaselineReasons } from "./history_store.ts";
 * const verdicts = [{ kind: "slo" as const, name: "p99 < 1ms", status: "fail" as const, stageIndexes: [], message: "" }];
 * assert.deepEqual(notBaselineReasons({ verdicts, health: {} }), ["slo_failed"]);
 * assert.deepEqual(notBaselineReasons({ verdicts: [], health: { contention: { share: 0.2 } } }), ["contended"]);
 * ```
 */
export function notBaselineReasons(
  result: {
    verdicts: Pick<RunResult["verdicts"][number], "kind" | "status" | "causes">[];
    health: Parameters<typeof ranContended>[0];
  },
  usualShares: readonly number[] = [],
): NotBaselineReason[] {
  const failed = result.verdicts.some((v) => v.kind === "slo" && v.status === "fail");
  // An SLO the contention left undecided may have failed; a regression check it explained, at
  // the contention this runner usually shows, is this runner's usual noise and its spread.
  const contended = ranContended(result.health, usualShares) ||
    result.verdicts.some((v) => v.kind === "slo" && v.causes?.includes("contention"));
  return [
    ...(failed ? ["slo_failed" as const] : []),
    ...(contended ? ["contended" as const] : []),
  ];
}

/**
 * Adds a sound run to its plan's history, keeping the newest `keep` runs in full (`runs`, the
 * regression gate's window) and the newest `historyRuns` in the long history (`history`; a run
 * that failed an SLO or ran contended joins only the long history, marked: `notBaseline`), and
 * writes the file atomically with `write` as version {@linkcode HISTORY_FILE_VERSION}, or the problem
 * when the run may not join it (incomplete, tool-limited).
 * Throws {@linkcode HistoryError}; the existing file is then unchanged.
 * A run whose measured stages differ from the newest stored run's (the plan changed) starts a new
 * history: the old one is first written whole to `<slug>.superseded-<time>.json` beside it.
 * `match` is how the run's stages met the history when it was judged (its judgement's): it decides
 * while the history's newest run is still the one matched, and the stages are matched again only
 * when another run was filed meanwhile.
 * `signal` stops a wait for the history's lock (history_lock.ts); the lock, a folder that cannot
 * be made and a failed write throw, naming the file.
 */
export async function appendToHistory(
  dir: string,
  result: RunResult,
  keep: number = DEFAULT_BASELINE_RUNS,
  write: (path: string, data: string) => Promise<void> = writeFileAtomic,
  signal?: AbortSignal,
  historyRuns: number = DEFAULT_HISTORY_RUNS,
  match?: StageMatch,
): Promise<Result<AppendedHistory>> {
  if (!Number.isInteger(keep) || keep < 1) {
    throw new RangeError(`keep must be a whole number of runs, at least 1 (got ${keep})`);
  }
  if (!Number.isInteger(historyRuns) || historyRuns < 1) {
    throw new RangeError(
      `historyRuns must be a whole number of runs, at least 1 (got ${historyRuns})`,
    );
  }
  const unsound = unsoundReason(result);
  if (unsound) return err(problem(unsound));
  const planName = historyName(result.plan);
  await makeHistoryDir(dir);
  // Re-read under the lock: a history another run appended to meanwhile keeps its run.
  return ok(
    await withHistoryLock(
      historyPath(dir, planName),
      () => appendLocked(dir, result, { keep, historyRuns }, write, match),
      signal ? { signal } : {},
    ),
  );
}

async function appendLocked(
  dir: string,
  result: RunResult,
  limits: { keep: number; historyRuns: number },
  write: (path: string, data: string) => Promise<void>,
  match: StageMatch | undefined,
): Promise<AppendedHistory> {
  const planName = historyName(result.plan);
  const loaded = await loadHistoryFile(dir, planName);
  if (!loaded.ok) {
    throw new HistoryError(
      "invalid_file",
      `${problemText(loaded.problems[0])} (the file was left as it is)`,
    );
  }
  const path = historyPath(dir, planName);
  // Never mix runs whose measured stages do not compare: a plan whose stages changed starts a new
  // history, and the old one is kept beside it, written whole before anything is replaced.
  const newest = loaded.value?.runs.at(-1);
  let supersededPath: string | undefined;
  const matched = match !== undefined && match.newestDate === newest?.date
    ? match
    : matchStages(result.stages, loaded.value?.runs ?? []);
  if (!matched.sameAsNewest) {
    const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
    supersededPath = path.replace(/\.json$/, `.superseded-${stamp}.json`);
    try {
      await write(supersededPath, historyText(loaded.value!));
    } catch (e) {
      throw new HistoryError(
        "write_failed",
        `could not keep the old history as ${supersededPath} (${(e as Error).message}); the ` +
          "baseline is unchanged",
        { cause: e },
      );
    }
  }
  const kept = supersededPath === undefined ? loaded.value : undefined;
  const run = storedRunFrom(result);
  // A run that failed an SLO or ran contended joins the long history, marked, not the window.
  const usual = (kept?.history ?? []).flatMap((e) =>
    e.contentionShare === undefined ? [] : [e.contentionShare]
  );
  const notBaseline = notBaselineReasons(result, usual);
  const share = result.health.contention?.share;
  const entry = {
    ...historyEntryFromRun(run, planFingerprint(result)),
    ...(notBaseline.length ? { notBaseline } : {}),
    ...(share === undefined ? {} : { contentionShare: share }),
  };
  const { file, dropped } = fitHistory({
    schema: HISTORY_FILE_SCHEMA,
    version: HISTORY_FILE_VERSION,
    plan: planName,
    runs: [...kept?.runs ?? [], ...(notBaseline.length ? [] : [run])].slice(-limits.keep),
    history: [...kept?.history ?? [], entry].slice(-limits.historyRuns),
  }, MAX_HISTORY_BYTES);
  try {
    await write(path, historyText(file));
  } catch (e) {
    throw new HistoryError(
      "write_failed",
      `could not write baseline ${path} (${(e as Error).message}); the previous baseline is ` +
        `unchanged`,
      { cause: e },
    );
  }
  return {
    ...file,
    ...(supersededPath === undefined ? {} : { supersededPath }),
    ...(dropped === 0 ? {} : { droppedForSize: dropped }),
    ...(notBaseline.length ? { notBaseline } : {}),
  };
}

/**
 * Makes the folder histories are kept in, or throws a {@linkcode HistoryError} naming it.
 */
export async function makeHistoryDir(dir: string): Promise<void> {
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch (e) {
    throw new HistoryError(
      "write_failed",
      `cannot make the history folder ${dir} (${(e as Error).message})`,
      { cause: e },
    );
  }
}

function unsoundReason(result: RunResult): string | undefined {
  const why = "a baseline only holds sound runs, or later runs would be judged against bad numbers";
  if (!result.run.complete) {
    return `refusing to add an incomplete run (stopped: ${result.run.stopReason}) to the ` +
      `baseline: ${why}; run the plan to completion and update the baseline then`;
  }
  const lost = targetLost(result.intervals);
  if (lost !== undefined) {
    return `refusing to add a run whose target stopped answering (${
      (lost.sinceMs / 1000).toFixed(1)
    } s in; ${lost.failedRequests} requests failed on the connection) to the baseline: ${why}`;
  }
  if (result.health.toolLimited) {
    return `refusing to add a tool-limited run to the baseline (${
      result.health.reasons.join("; ")
    }): its numbers describe the load generator, not the server, and ${why}; fix the cause ` +
      `and rerun`;
  }
  return undefined;
}
