/**
 * Whether two stored runs compare: short digests of the runner (the machine and build that
 * measured) and of the plan (the load it sent), and how two runners differ in words. Pure.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Environment, RunResult } from "../model/mod.ts";
import type { StoredRunStage } from "./history_types.ts";

/** How many hex digits of the SHA-256 a fingerprint keeps (48 bits). */
const DIGITS = 12;

/** The fields of an environment that say whether its numbers compare, and their short names. */
const FINGERPRINT: Array<[keyof Environment, string]> = [
  ["cpuModel", "cpu"],
  ["cores", "cores"],
  ["denoVersion", "deno"],
  ["tailgateVersion", "tailgate"],
];

function digest(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, DIGITS);
}

/**
 * The runner's fingerprint: a digest of the CPU model, cores, Deno and tailgate versions (the
 * fields `fingerprintMismatch` compares; not the commit, which differs by design).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runnerFingerprint } from "./fingerprints.ts";
 * const env = { tailgateVersion: "1", denoVersion: "2", v8Version: "3", os: "linux", arch: "x86_64", cpuModel: "c", cores: 4 };
 * assert.equal(runnerFingerprint(env), runnerFingerprint({ ...env, gitSha: "abc1234" }));
 * assert.notEqual(runnerFingerprint(env), runnerFingerprint({ ...env, cores: 8 }));
 * assert.match(runnerFingerprint(env), /^[0-9a-f]{12}$/);
 * ```
 */
export function runnerFingerprint(environment: Environment): string {
  return digest(["runner", ...FINGERPRINT.map(([key]) => environment[key])]);
}

/**
 * The plan's fingerprint: a digest of the load as run, its requests (method, path and query,
 * headers as templates, body, weight, timeout, expected statuses), the load's settings (a seed
 * only when the plan fixed it) and measured shape, and the data and vars drawn. Not the plan's name, description or SLOs, not the
 * stages' names or lines, and not the target's origin (a service on another host or port sends
 * the same load).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planFingerprint } from "./fingerprints.ts";
 * import type { RunResult } from "../model/run_result.ts";
 * const request = { label: "GET /", method: "GET", url: "http://a:1/", headers: [], weight: 1, timeoutMs: 1000, expect: { codes: [], classes: [2] } };
 * const plan = { name: "shop", file: "p.yaml", requests: [request], slos: [], load: { connections: 1, maxConnections: 1, arrival: "constant", seed: 1, workers: 1, stages: [] } };
 * const result = { plan } as unknown as RunResult;
 * const moved = { plan: { ...plan, name: "other", requests: [{ ...request, url: "http://b:2/" }] } };
 * const slower = { plan: { ...plan, requests: [{ ...request, timeoutMs: 50 }] } };
 * assert.equal(planFingerprint(result), planFingerprint(moved as unknown as RunResult));
 * assert.notEqual(planFingerprint(result), planFingerprint(slower as unknown as RunResult));
 * ```
 */
export function planFingerprint(result: Pick<RunResult, "plan" | "traffic">): string {
  const { requests, load } = result.plan;
  return digest([
    "plan",
    requests.map((r) => [
      r.label,
      r.method,
      pathOf(r.url),
      r.headers.map((h) => [h.name, h.value, h.secret]),
      r.body ?? null,
      r.weight,
      r.timeoutMs,
      r.expect.codes,
      r.expect.classes,
    ]),
    // A seed drawn per run changes every run: it digests as 1, the seed such runs used before.
    [
      load.connections,
      load.maxConnections,
      load.arrival,
      load.seedPerRun ? 1 : load.seed,
      load.workers,
    ],
    load.stages.map((s) => [s.index, s.kind, s.fromPerSec, s.toPerSec, s.durationMs, s.warmup]),
    (result.traffic?.sources ?? []).map((s) => [
      s.name,
      s.file,
      s.format,
      s.columns,
      s.rows,
      s.order,
      s.exhausted,
    ]),
    (result.traffic?.vars ?? []).map((v) => [v.name, v.spec]),
    // Only a plan with journeys digests them: every other plan keeps the fingerprint it had.
    ...(result.plan.journeys?.length
      ? [result.plan.journeys.map((j) => [
        j.name,
        j.weight,
        j.steps.map((s) => [
          s.label,
          s.method,
          pathOf(s.url),
          s.headers.map((h) => [h.name, h.value, h.secret]),
          s.body ?? null,
          s.timeoutMs,
          s.expect.codes,
          s.expect.classes,
          s.think ? [s.think.minMs, s.think.maxMs] : null,
        ]),
      ])]
      : []),
  ]);
}

/**
 * The plan fingerprint of a run migrated from a version-1 baseline file, which did not keep the
 * plan: a digest of its stored stages' shape alone, so it never equals a
 * {@linkcode planFingerprint} (the history marks such runs `migrated`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storedStagesFingerprint } from "./fingerprints.ts";
 * assert.match(storedStagesFingerprint([]), /^[0-9a-f]{12}$/);
 * ```
 */
export function storedStagesFingerprint(
  stages: readonly Pick<
    StoredRunStage,
    "index" | "fromPerSec" | "toPerSec" | "durationMs" | "warmup"
  >[],
): string {
  return digest([
    "stored stages",
    stages.map((s) => [s.index, s.fromPerSec, s.toPerSec, s.durationMs, s.warmup]),
  ]);
}

/** A request URL without its origin: what the request asks, wherever the service runs. */
function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/**
 * How two fingerprints differ, one readable line per field (CPU model, cores, Deno and tailgate
 * versions; not the git commit, which differs by design). Empty when the numbers compare.
 */
export function fingerprintMismatch(a: Environment, b: Environment): string[] {
  return FINGERPRINT.filter(([key]) => a[key] !== b[key])
    .map(([key, name]) => `${name}: ${a[key] ?? "unknown"} vs ${b[key] ?? "unknown"}`);
}
