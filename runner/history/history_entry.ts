/**
 * A run as the long history keeps it: its commit, branch, fingerprints, counts, each stage's
 * response histogram and each label's percentiles (no service or label histograms, no
 * intervals). Pure.
 *
 * @module
 */
import type { HistoryEntry, StoredRun } from "./history_types.ts";
import { runnerFingerprint, storedStagesFingerprint } from "./fingerprints.ts";

/**
 * The long history's entry of a stored run: its commit from `environment.gitSha`, its branch from
 * `environment.gitBranch`. `plan` is the run's plan fingerprint (`planFingerprint` of its
 * result); without it the run comes from a version-1 file, which kept no plan: its fingerprint
 * then digests its stages alone and the entry is marked `migrated`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyEntryFromRun } from "./history_entry.ts";
 * const environment = { tailgateVersion: "1", denoVersion: "2", v8Version: "3", os: "linux", arch: "x86_64", cpuModel: "c", cores: 4, gitSha: "abc1234" };
 * const entry = historyEntryFromRun({ date: "2025-01-01T00:00:00.000Z", environment, stages: [] });
 * assert.equal(entry.commit, "abc1234");
 * assert.equal(entry.migrated, true);
 * ```
 */
export function historyEntryFromRun(run: StoredRun, plan?: string): HistoryEntry {
  const { gitSha, gitBranch } = run.environment;
  return structuredClone({
    date: run.date,
    ...(gitSha ? { commit: gitSha } : {}),
    ...(gitBranch ? { branch: gitBranch } : {}),
    runner: runnerFingerprint(run.environment),
    plan: plan ?? storedStagesFingerprint(run.stages),
    ...(plan === undefined ? { migrated: true as const } : {}),
    environment: run.environment,
    stages: run.stages.map(({ service: _service, labels, ...stage }) => ({
      ...stage,
      labels: labels.map((l) => ({
        label: l.label,
        counts: l.counts,
        responsePercentilesUs: l.response.percentilesUs,
      })),
    })),
  });
}
