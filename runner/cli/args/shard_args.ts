/**
 * The `--shard I/N` and `--start-at TIME` arguments of a run split across machines.
 *
 * @module
 */
import type { ShardSpec } from "../../schedule/mod.ts";
import { err, ok, problem, type Result } from "../../model/mod.ts";

/** Most shards a plan can be split into (a guard against typos such as `0/4000`). */
export const MAX_SHARDS = 1024;

/** Farthest ahead a start time may be: a guard against a wrong date or zone. */
export const MAX_START_AHEAD_MS = 24 * 3600_000;

/**
 * Parses `I/N`: share I (counted from 0, as a Kubernetes completion index) of N.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseShard } from "./shard_args.ts";
 * assert.deepEqual(parseShard("1/4"), { ok: true, value: { index: 1, count: 4 } });
 * assert.equal(parseShard("4/4").ok, false); // shards are 0/4 .. 3/4
 * ```
 */
export function parseShard(
  text: string,
): Result<ShardSpec> {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return err(problem(`\`${text}\` is not I/N`, "write e.g. 0/4 for the first of 4"));
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) {
    return err(problem(`N must be 1..${MAX_SHARDS}, not ${count}`));
  }
  if (index >= count) {
    return err(problem(
      `shard ${index} of ${count} does not exist: shards count from 0, so they are ` +
        `0/${count} .. ${count - 1}/${count}`,
    ));
  }
  return ok({ index, count });
}

/**
 * Parses an ISO 8601 date-time with a zone (`Z` or `+02:00`): every machine must read the same
 * instant, so a time without a zone is refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseStartAt } from "./shard_args.ts";
 * assert.deepEqual(parseStartAt("2026-11-22T10:00:00Z"), { ok: true, value: 1795341600000 });
 * assert.equal(parseStartAt("2026-11-22 10:00").ok, false); // no zone
 * ```
 */
export function parseStartAt(
  text: string,
  nowEpochMs: number = Date.now(),
): Result<number> {
  const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i;
  if (!iso.test(text.trim())) {
    return err(problem(
      `\`${text}\` is not an ISO 8601 time with a zone; write e.g. ` +
        `${new Date(Math.ceil(nowEpochMs / 60_000) * 60_000 + 120_000).toISOString()} ` +
        "(`date -u -d '+2 min' +%FT%TZ`)",
    ));
  }
  const epochMs = Date.parse(text.trim());
  if (Number.isNaN(epochMs)) return err(problem(`\`${text}\` is not a valid date`));
  if (epochMs - nowEpochMs > MAX_START_AHEAD_MS) {
    return err(problem(
      `${text} is more than 24 h ahead; check the date and the zone`,
    ));
  }
  return ok(epochMs);
}
