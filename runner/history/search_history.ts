/**
 * The capacity search's history: one JSON file per plan (`<dir>/<slug>.search.json`, beside the
 * run baselines) holding the rates its last searches found, each with the machine's fingerprint.
 * Appending re-reads the file under the history lock and replaces it atomically; a file that
 * cannot be read is never overwritten; only complete searches that found a rate are added.
 *
 * @module
 */
import { join } from "node:path";
import type { Environment } from "../model/mod.ts";
import type { SearchResult } from "../model/mod.ts";
import { writeFileAtomic } from "../model/mod.ts";
import { readRegularFile } from "../model/mod.ts";
import { err, ok, problem, problemText, type Result } from "../model/mod.ts";
import { HistoryError, historySlug, makeHistoryDir, MAX_HISTORY_BYTES } from "./history_store.ts";
import { withHistoryLock } from "./history_lock.ts";

/** The file's `schema` value. */
export const SEARCH_HISTORY_SCHEMA = "tailgate/search-history";
/** The file's format version. */
export const SEARCH_HISTORY_VERSION = 1;

/**
 * Searches kept at most, the newest: 30, as many as the regression gate's prediction bound reads
 * (`MAX_HISTORY_RUNS` in runner/gates/stats/prediction_bound.ts; a gates test keeps them equal).
 */
export const SEARCH_HISTORY_RUNS = 30;

/** One past search. */
export interface SearchHistoryEntry {
  /** When it started (ISO 8601). */
  date: string;
  /** `found` (a bracket) or `at_least` (the plan's highest rate passed). */
  status: "found" | "at_least";
  /** The sustainable rate found, per second. */
  ratePerSec: number;
  /** The lowest rate that failed, per second (`found` only). */
  failPerSec?: number;
  /** The machine it ran on. */
  environment: Environment;
}

/** The whole file. */
export interface SearchHistory {
  schema: typeof SEARCH_HISTORY_SCHEMA;
  version: number;
  plan: string;
  entries: SearchHistoryEntry[];
}

/**
 * Where a plan's search history is kept in `dir`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { searchHistoryPath } from "./search_history.ts";
 * assert.equal(searchHistoryPath(".tailgate/baselines", "Shop"), ".tailgate/baselines/shop.search.json");
 * ```
 */
export function searchHistoryPath(dir: string, planName: string): string {
  return join(dir, `${historySlug(planName)}.search.json`);
}

/**
 * Reads a plan's search history: no entries when there is none yet; a problem naming the file,
 * what is wrong and the fix when it cannot be used.
 */
export async function loadSearchHistory(
  dir: string,
  planName: string,
): Promise<Result<SearchHistoryEntry[]>> {
  const path = searchHistoryPath(dir, planName);
  const fix = "move it away (the next --update-baseline starts a new history) or restore it " +
    "from version control";
  const read = await readRegularFile(path, MAX_HISTORY_BYTES);
  if (!read.ok) {
    if (read.problems[0].kind === "missing") return ok([]);
    return err(problem(`cannot read search history ${path}: it ${read.problems[0].reason}`, fix));
  }
  const refuse = (what: string) => err(problem(`search history ${path} ${what}: ${fix}`));
  let doc: Partial<SearchHistory>;
  try {
    doc = JSON.parse(new TextDecoder().decode(read.value));
  } catch (e) {
    return refuse(`is not valid JSON (${(e as Error).message})`);
  }
  if (doc?.schema !== SEARCH_HISTORY_SCHEMA || doc.version !== SEARCH_HISTORY_VERSION) {
    return refuse(`is not a ${SEARCH_HISTORY_SCHEMA} file of version ${SEARCH_HISTORY_VERSION}`);
  }
  if (doc.plan !== planName) return refuse(`belongs to plan "${doc.plan}", not "${planName}"`);
  const entries = Array.isArray(doc.entries) ? doc.entries : undefined;
  const bad = entries?.findIndex((e) =>
    !(typeof e?.ratePerSec === "number" && e.ratePerSec > 0 && typeof e.date === "string" &&
      (e.status === "found" || e.status === "at_least") && typeof e.environment === "object")
  );
  if (entries === undefined || bad !== -1) {
    return refuse(
      `has a damaged entry${entries === undefined ? " list" : ` (number ${bad! + 1})`}`,
    );
  }
  return ok(entries);
}

/**
 * Adds a complete search that found a rate to its plan's history (the newest
 * {@linkcode SEARCH_HISTORY_RUNS} kept), or the problem when the search found no rate to keep. Throws
 * {@linkcode HistoryError}, or the lock's error (history_lock.ts: held, or `signal` stopped the
 * wait); the file is then unchanged.
 */
export async function appendSearchHistory(
  dir: string,
  result: SearchResult,
  write: (path: string, data: string) => Promise<void> = writeFileAtomic,
  signal?: AbortSignal,
): Promise<Result<SearchHistory>> {
  const c = result.conclusion;
  if (!result.complete || (c.status !== "found" && c.status !== "at_least")) {
    return err(problem(
      "refusing to add a search that found no rate to the history: " +
        (result.complete
          ? c.reason ?? "it was inconclusive"
          : "it was stopped before it concluded"),
    ));
  }
  const planName = result.plan.name;
  const path = searchHistoryPath(dir, planName);
  await makeHistoryDir(dir);
  return ok(
    await withHistoryLock(path, async () => {
      const loaded = await loadSearchHistory(dir, planName);
      if (!loaded.ok) {
        throw new HistoryError(
          "invalid_file",
          `${problemText(loaded.problems[0])} (the file was left as it is)`,
        );
      }
      const entry: SearchHistoryEntry = {
        date: result.startedAt,
        status: c.status as "found" | "at_least",
        ratePerSec: c.ratePerSec!,
        ...(c.failPerSec === undefined ? {} : { failPerSec: c.failPerSec }),
        environment: result.environment,
      };
      const history: SearchHistory = {
        schema: SEARCH_HISTORY_SCHEMA,
        version: SEARCH_HISTORY_VERSION,
        plan: planName,
        entries: [...loaded.value, entry].slice(-SEARCH_HISTORY_RUNS),
      };
      try {
        await write(path, JSON.stringify(history, null, 1) + "\n");
      } catch (e) {
        throw new HistoryError(
          "write_failed",
          `could not write search history ${path} (${(e as Error).message}); it is unchanged`,
          { cause: e },
        );
      }
      return history;
    }, signal ? { signal } : {}),
  );
}
