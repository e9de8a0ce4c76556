/**
 * Histories a job started from nothing. With `baseline: cache` a history lives only as long as
 * GitHub keeps the cache entry (7 days unused, 10 GB per repository): when the restore matched no
 * entry, every history the run then writes starts again, and the job says so. The job can know
 * two things: which history files the run created (absent before it), and whether the cache
 * restore matched any entry (`cache-matched-key` of actions/cache/restore, empty on a miss).
 *
 * @module
 */
import { globSync } from "node:fs";
import { join } from "node:path";
import { readRegularFile } from "../../../runner/model/mod.ts";
import { MAX_HISTORY_BYTES } from "../../../runner/history/mod.ts";

/** A history file the job's runs created. */
export interface StartedHistory {
  /** The history file's name in the baseline folder (`shop.json`). */
  file: string;
  /** The plan's name, as the file gives it (else the file's name). */
  plan: string;
  /**
   * True when no stored history was restored at all (the cache restore missed): the plan's runs
   * before this one were lost, or none was ever saved. False: the restored entry held no history
   * of this plan (a new plan, or a renamed one).
   */
  lost: boolean;
}

/**
 * The history files in `dir`: its `*.json` regular files (no link, no FIFO), by name; none when
 * the folder does not exist.
 */
export function historyFiles(dir: string): Set<string> {
  try {
    return new Set(
      globSync("*.json", { cwd: dir }).filter((f) => Deno.lstatSync(join(dir, f)).isFile),
    );
  } catch {
    return new Set();
  }
}

/**
 * Whether the cache restore matched no entry: true or false in `baseline: cache` under the action
 * (`TAILGATE_CACHE_RESTORED_KEY`, the restore's matched key: empty on a miss); undefined when it
 * cannot be known (another mode, or a job that does not pass the key, as GitLab's).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cacheRestoreMissed } from "./started_histories.ts";
 * assert.equal(cacheRestoreMissed({ TAILGATE_CACHE_RESTORED_KEY: "" }, "cache"), true);
 * assert.equal(cacheRestoreMissed({}, "cache"), undefined);
 * ```
 */
export function cacheRestoreMissed(
  env: Record<string, string | undefined>,
  mode: string,
): boolean | undefined {
  const key = env.TAILGATE_CACHE_RESTORED_KEY;
  if (mode !== "cache" || key === undefined) return undefined;
  return key.trim() === "";
}

/**
 * The history files in `dir` that were not among `before`, each with its plan's name and whether
 * its earlier runs were lost (`restoreMissed`).
 */
export async function startedHistories(
  dir: string,
  before: ReadonlySet<string>,
  restoreMissed: boolean,
): Promise<StartedHistory[]> {
  const started: StartedHistory[] = [];
  for (const file of [...historyFiles(dir)].filter((f) => !before.has(f)).sort()) {
    started.push({ file, plan: await planNameOf(join(dir, file)), lost: restoreMissed });
  }
  return started;
}

/**
 * What a started history means, in words (for the annotation and the summary).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startedHistoryMessage } from "./started_histories.ts";
 * assert.equal(startedHistoryMessage({ file: "shop.json", plan: "shop", lost: true }),
 *   "no stored history for shop was restored (the cache expired or was evicted, or none was " +
 *   "saved yet): the history starts again here");
 * ```
 */
export function startedHistoryMessage(s: StartedHistory): string {
  return s.lost
    ? `no stored history for ${s.plan} was restored (the cache expired or was evicted, or none ` +
      "was saved yet): the history starts again here"
    : `the history of ${s.plan} starts here: the restored cache entry held none for it (a new ` +
      "plan, or a renamed one)";
}

async function planNameOf(path: string): Promise<string> {
  const fallback = path.split("/").at(-1)!.replace(/\.json$/, "");
  const read = await readRegularFile(path, MAX_HISTORY_BYTES);
  if (!read.ok) return fallback;
  try {
    const plan = (JSON.parse(new TextDecoder().decode(read.value)) as { plan?: unknown }).plan;
    return typeof plan === "string" && plan !== "" ? plan : fallback;
  } catch {
    return fallback;
  }
}
