/**
 * Reading a baseline file's text: checks its schema, version, plan and the shape of each run and
 * history entry, migrates a version-1 file (its runs become the first history entries), and says
 * what is wrong (and how to fix it) when the file cannot be used.
 *
 * @module
 */
import { HISTORY_FILE_SCHEMA, HISTORY_FILE_VERSION, type HistoryFile } from "./history_types.ts";
import { err, ok, problem, type Result } from "../model/mod.ts";
import { historyEntryFromRun } from "./history_entry.ts";
import { historyEntryDamage, runStageValueDamage } from "./history_shape.ts";

const MOVE_AWAY = "move it away (the next --update-baseline starts a new history) or restore it " +
  "from version control";

/**
 * The baseline file `text` holds for `planName`, or what is wrong with it: a problem whose message
 * is a phrase completing "baseline <path> …" that says what is wrong and how to fix it. A
 * version-1 file comes back migrated to version {@linkcode HISTORY_FILE_VERSION}: its runs are its
 * history's first entries (history_entry.ts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseHistory } from "./history_parse.ts";
 * parseHistory("{", "shop"); // { ok: false, problems: [{ message: "is not valid JSON (…): it is damaged; move it away …" }] }
 * const text = JSON.stringify({ schema: "tailgate/baseline", version: 1, plan: "shop", runs: [] });
 * assert.deepEqual(parseHistory(text, "shop"), { ok: true, value: { schema: "tailgate/baseline", version: 2, plan: "shop", runs: [], history: [] } });
 * ```
 */
export function parseHistory(text: string, planName: string): Result<HistoryFile> {
  const refuse = (phrase: string) => err(problem(phrase));
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return refuse(`is not valid JSON (${(e as Error).message}): it is damaged; ${MOVE_AWAY}`);
  }
  const record = isObject(doc) ? doc : {};
  if (record.schema !== HISTORY_FILE_SCHEMA) {
    return refuse(
      `is not a tailgate baseline (\`schema\` is not "${HISTORY_FILE_SCHEMA}"); ${MOVE_AWAY}, ` +
        `or pass another folder with --baseline`,
    );
  }
  if (!Number.isInteger(record.version) || (record.version as number) < 1) {
    return refuse(`has no valid \`version\`: it is damaged; ${MOVE_AWAY}`);
  }
  if ((record.version as number) > HISTORY_FILE_VERSION) {
    return refuse(
      `is format version ${record.version}; this tailgate reads up to ${HISTORY_FILE_VERSION}: ` +
        `upgrade tailgate to read it`,
    );
  }
  if (record.plan !== planName) {
    return refuse(
      `holds plan ${JSON.stringify(record.plan)}, not ${JSON.stringify(planName)} (both ` +
        `names map to this file): rename one of the plans`,
    );
  }
  const runs = Array.isArray(record.runs) ? record.runs : undefined;
  const bad = runs === undefined ? -1 : runs.findIndex((r) => !isRun(r));
  if (runs === undefined || bad >= 0) {
    const where = runs === undefined ? "`runs` is not a list" : `run ${bad + 1} is incomplete`;
    return refuse(`is damaged (${where}); ${MOVE_AWAY}`);
  }
  for (const [i, run] of (runs as { stages: Record<string, unknown>[] }[]).entries()) {
    for (const [j, stage] of run.stages.entries()) {
      const damage = runStageValueDamage(stage);
      if (damage) {
        return refuse(`is damaged (run ${i + 1}, stage ${j + 1}: ${damage}); ${MOVE_AWAY}`);
      }
    }
  }
  if (record.version === 1) {
    const v1 = doc as HistoryFile;
    return ok({
      ...v1,
      version: HISTORY_FILE_VERSION,
      history: v1.runs.map((run) => historyEntryFromRun(run)),
    });
  }
  if (!Array.isArray(record.history)) {
    return refuse(`is damaged (\`history\` is not a list); ${MOVE_AWAY}`);
  }
  for (const [i, entry] of record.history.entries()) {
    const damage = historyEntryDamage(entry);
    if (damage === undefined) continue;
    const date = isObject(entry) && typeof entry.date === "string" ? `, ${entry.date}` : "";
    return refuse(
      `is damaged (history entry ${i + 1} of ${record.history.length}${date}: ${damage}); ` +
        MOVE_AWAY,
    );
  }
  return ok(doc as HistoryFile);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function hasHistograms(v: unknown): boolean {
  return isObject(v) && isObject(v.counts) && isObject(v.response) && isObject(v.service) &&
    typeof v.response.hdr === "string" && typeof v.service.hdr === "string";
}

function isRun(v: unknown): boolean {
  return isObject(v) && typeof v.date === "string" && isObject(v.environment) &&
    Array.isArray(v.stages) &&
    v.stages.every((s) =>
      hasHistograms(s) && isObject(s) && typeof s.index === "number" && Array.isArray(s.labels) &&
      s.labels.every((l) => hasHistograms(l) && isObject(l) && typeof l.label === "string")
    );
}
