/**
 * Long-history entries for the history tests: each run a real encoded histogram whose values sit
 * at the level asked, so its stored percentiles are what a recorder would have stored.
 *
 * @module
 */
import { createHistogram, toEncodedHistogram } from "../../runner/hdr/mod.ts";
import { emptyCounts } from "../../runner/model/request_counts.ts";
import type { Environment, RequestCounts } from "../../runner/model/run_result.ts";
import type {
  HistoryEntry,
  HistoryFile,
  HistoryStage,
} from "../../runner/history/history_types.ts";
import { type DecodedRuns, decodeRuns } from "../../runner/history/history_damage.ts";

/** A machine's fingerprint as stored. */
export function environmentOf(cpuModel = "Test CPU 3000"): Environment {
  return {
    tailgateVersion: "0.1.0",
    denoVersion: "2.9.6",
    v8Version: "14.0",
    os: "linux",
    arch: "x86_64",
    cpuModel,
    cores: 2,
  };
}

/** Counts of `completed` requests of which `failed` failed (as 500s). */
export function countsOf(completed: number, failed = 0): RequestCounts {
  return {
    ...emptyCounts(),
    scheduled: completed,
    sent: completed,
    completed,
    ok: completed - failed,
    ...(failed ? { errors: { unexpected_status: failed }, statusCodes: { "500": failed } } : {}),
  };
}

/** A histogram of `n` values spread evenly over ±10% around `levelUs`. */
function levelHistogram(levelUs: number, n = 200) {
  const h = createHistogram();
  for (let i = 0; i < n; i++) h.recordValue(Math.round(levelUs * (0.9 + (0.2 * i) / (n - 1))));
  return toEncodedHistogram(h);
}

/** One stage at `levelUs`, with labels at the same level when `labels` are named. */
export function stageAt(
  levelUs: number,
  options: {
    index?: number;
    name?: string;
    warmup?: boolean;
    ratePerSec?: number;
    durationMs?: number;
    labels?: readonly string[];
    failed?: number;
  } = {},
): HistoryStage {
  const durationMs = options.durationMs ?? 10_000;
  const ratePerSec = options.ratePerSec ?? 100;
  const completed = Math.round(ratePerSec * durationMs / 1000);
  const response = levelHistogram(levelUs);
  return {
    index: options.index ?? 0,
    name: options.name ?? "steady",
    warmup: options.warmup ?? false,
    fromPerSec: ratePerSec,
    toPerSec: ratePerSec,
    durationMs,
    counts: countsOf(completed, options.failed ?? 0),
    response,
    labels: (options.labels ?? []).map((label) => ({
      label,
      counts: countsOf(Math.round(completed / options.labels!.length)),
      responsePercentilesUs: response.percentilesUs,
    })),
  };
}

/** A run of the long history on day `i` of 2026, at commit `i` (40 hex digits). */
export function entryAt(
  i: number,
  stages: HistoryStage[],
  options: { runner?: string; plan?: string; cpuModel?: string; commit?: boolean } = {},
): HistoryEntry {
  const date = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString();
  return {
    date,
    ...(options.commit === false ? {} : { commit: commitOf(i) }),
    branch: "main",
    runner: options.runner ?? "runner-a",
    plan: options.plan ?? "plan-a",
    environment: environmentOf(options.cpuModel),
    stages,
  };
}

/** A made-up but well-formed commit id for run `i`: 40 hex digits. */
export function commitOf(i: number): string {
  return (i * 2654435761 >>> 0).toString(16).padStart(8, "0").repeat(5);
}

/** A sound history's runs decoded as the history layer reads them; damage throws. */
export function decodedRuns(file: HistoryFile): DecodedRuns {
  const decoded = decodeRuns(file);
  if (!decoded.ok) throw new RangeError(decoded.problems[0].message);
  return decoded.value;
}
