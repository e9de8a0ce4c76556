/**
 * Reading the long histories for `tailgate history`: one plan's baseline file, or every one in a
 * baseline folder, each parsed (and migrated when it is version 1) with its path.
 *
 * @module
 */
import { join } from "node:path";
import { readRegularFile } from "../model/mod.ts";
import { err, ok, prefixed, type Problem, problem, type Result } from "../model/mod.ts";
import { historyPath, loadHistoryFile, MAX_HISTORY_BYTES } from "./history_store.ts";
import { parseHistory } from "./history_parse.ts";
import type { HistoryFile } from "./history_types.ts";

/** A history file as read: where it is, and what it holds (its `history`, oldest first). */
export interface StoredHistory {
  path: string;
  file: HistoryFile;
}

/**
 * Reads a plan's long history: the baseline file of `planName` in `dir` (migrated when it is
 * version 1) with its path; `undefined` when the plan has none yet; a problem naming the file,
 * what is wrong and the fix when it cannot be used.
 */
export async function loadHistory(
  dir: string,
  planName: string,
): Promise<Result<StoredHistory | undefined>> {
  const loaded = await loadHistoryFile(dir, planName);
  if (!loaded.ok) return loaded;
  if (loaded.value === undefined) return ok(undefined);
  return ok({ path: historyPath(dir, planName), file: loaded.value });
}

/**
 * Every plan's long history in the baseline folder `dir`, by file name: each `<slug>.json` but
 * the kept old histories (`.superseded-…`) and the search histories (`.search.json`). Every file
 * that cannot be used is a problem naming it; a folder that is missing or not a folder is one too.
 */
export async function loadHistories(dir: string): Promise<Result<StoredHistory[]>> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const name = entry.name;
      if (!entry.isFile || !name.endsWith(".json") || name.endsWith(".search.json")) continue;
      if (!name.includes(".superseded-")) names.push(name);
    }
  } catch (e) {
    return err(problem(
      `cannot read the baseline folder ${dir} (${(e as Error).message})`,
      "name the folder `tailgate run --baseline` writes to (default .tailgate/baselines)",
    ));
  }
  const histories: StoredHistory[] = [];
  const problems: Problem[] = [];
  for (const name of names.sort()) {
    const path = join(dir, name);
    const read = await readRegularFile(path, MAX_HISTORY_BYTES);
    if (!read.ok) {
      problems.push(problem(`cannot read baseline ${path}: it ${read.problems[0].reason}`));
      continue;
    }
    const text = new TextDecoder().decode(read.value);
    const parsed = parseHistory(text, planOf(text));
    if (parsed.ok) histories.push({ path, file: parsed.value });
    else problems.push(...prefixed(`baseline ${path} `, parsed.problems));
  }
  return problems.length ? err(problems) : ok(histories);
}

/** The plan a baseline file names, so parsing checks all but that; "" when it names none. */
function planOf(text: string): string {
  try {
    const plan = (JSON.parse(text) as { plan?: unknown }).plan;
    return typeof plan === "string" ? plan : "";
  } catch {
    return "";
  }
}
