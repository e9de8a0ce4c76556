import assert from "node:assert/strict";
import {
  fingerprintMismatch,
  planFingerprint,
  runnerFingerprint,
} from "../../../runner/history/fingerprints.ts";
import { buildResult } from "../../../runner/result/build_result.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import {
  ENVIRONMENT,
  recordPlan,
  RESULT_PLAN,
  sampleResult,
  SECRET_TOKEN,
} from "../../_helpers/result_fixtures.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";

/** The sample plan's result after `edit` rewrote the plan's text. */
function resultOfPlan(edit: (text: string) => string): RunResult {
  const { plan, issues } = parseText(edit(RESULT_PLAN), { env: { TOKEN: SECRET_TOKEN } });
  assert.ok(plan, JSON.stringify(issues));
  return buildResult(plan, recordPlan(plan), ENVIRONMENT);
}

Deno.test("identical runs on other days and commits share both fingerprints", () => {
  const a = sampleResult({ startedAt: new Date("2025-01-01T00:00:00Z") });
  const b = sampleResult({ startedAt: new Date("2025-03-01T00:00:00Z") });
  b.environment = { ...ENVIRONMENT, gitSha: "a".repeat(40), gitBranch: "main", v8Version: "x" };
  assert.equal(planFingerprint(a), planFingerprint(b));
  assert.equal(runnerFingerprint(a.environment), runnerFingerprint(b.environment));
  assert.match(planFingerprint(a), /^[0-9a-f]{12}$/);
  assert.match(runnerFingerprint(a.environment), /^[0-9a-f]{12}$/);
});

Deno.test("the plan fingerprint changes with a request or a stage, not with names or SLOs", () => {
  const base = planFingerprint(resultOfPlan((t) => t));
  const edits: Array<[string, string, string, boolean]> = [
    ["a path", "path: /b", "path: /c", true],
    ["a header", "Bearer", "Token", true],
    ["a rate", "rate: 20/s", "rate: 25/s", true],
    ["a duration", "duration: 2s", "duration: 3s", true],
    ["the name", "name: shop", "name: shop2\ndescription: the shop", false],
    ["an SLO", "p99 < 50ms", "p99 < 80ms", false],
    ["a stage's name", "name: main", "name: steady", false],
    ["the target's host", "127.0.0.1:8080", "10.0.0.7:9000", false],
  ];
  for (const [what, from, to, changes] of edits) {
    const edited = planFingerprint(resultOfPlan((t) => t.replace(from, to)));
    assert.equal(edited !== base, changes, `${what} ${changes ? "must" : "must not"} change it`);
  }
});

Deno.test("a seed drawn per run keeps the plan fingerprint; a seed the plan fixes is in it", () => {
  const drawn = (seed: number) => {
    const result = resultOfPlan((t) => t);
    result.plan.load = { ...result.plan.load, seed, seedPerRun: true };
    return planFingerprint(result);
  };
  const before = resultOfPlan((t) => t);
  assert.equal(before.plan.load.seedPerRun, true);
  // A result written before runs drew their seeds: seed 1, no seedPerRun.
  const { seedPerRun: _, ...older } = before.plan.load;
  const old = planFingerprint({ ...before, plan: { ...before.plan, load: { ...older, seed: 1 } } });
  assert.equal(drawn(123), drawn(456), "runs with fresh seeds are the same load");
  assert.equal(drawn(123), old, "the history of a plan without a seed continues");
  const fixed = (seed: number) =>
    planFingerprint(resultOfPlan((t) => t.replace("load:", `load:\n  seed: ${seed}`)));
  assert.notEqual(fixed(7), fixed(8));
});

Deno.test("the runner fingerprint changes with the CPU, cores, Deno or tailgate", () => {
  const base = runnerFingerprint(ENVIRONMENT);
  for (
    const other of [
      { cpuModel: "AMD EPYC 7B13" },
      { cores: 8 },
      { denoVersion: "2.9.7" },
      { tailgateVersion: "0.2.0" },
    ]
  ) {
    assert.notEqual(runnerFingerprint({ ...ENVIRONMENT, ...other }), base, JSON.stringify(other));
  }
});

Deno.test("fingerprintMismatch() lists exactly the fields that differ, not the git commit", () => {
  const a = { ...ENVIRONMENT, gitSha: "aaaa" };
  assert.deepEqual(fingerprintMismatch(a, { ...a, gitSha: "bbbb", v8Version: "x" }), []);
  assert.deepEqual(fingerprintMismatch(a, { ...a, cores: 8, denoVersion: "2.9.7" }), [
    "cores: 4 vs 8",
    "deno: 2.9.6 vs 2.9.7",
  ]);
  const b = { ...a, cpuModel: "AMD EPYC 7B13", tailgateVersion: "0.2.0" };
  assert.deepEqual(fingerprintMismatch(a, b), [
    "cpu: test cpu vs AMD EPYC 7B13",
    "tailgate: 0.0.0-test vs 0.2.0",
  ]);
});

Deno.test("a plan's journeys are in its fingerprint: a step's path or think changes it", () => {
  const journey = (path: string, think: string) =>
    planFingerprint(resultOfPlan((t) =>
      t.replace(
        "requests:\n",
        `requests:\n  - journey: order\n    weight: 1\n    steps:\n      - { name: a, path: ${path} }\n      - { name: b, path: /b, think: ${think} }\n`,
      )
    ));
  const base = journey("/x", "10ms");
  assert.equal(journey("/x", "10ms"), base);
  assert.notEqual(journey("/y", "10ms"), base);
  assert.notEqual(journey("/x", "20ms"), base);
  assert.notEqual(base, planFingerprint(resultOfPlan((t) => t)));
});
