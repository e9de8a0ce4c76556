import assert from "node:assert/strict";
import { buildResult } from "../../../runner/result/build_result.ts";
import { readRunResult } from "../../../runner/result/read_run_result.ts";
import { mergedUnexpectedBodies } from "../../../runner/result/unexpected_bodies.ts";
import type { RawBodySample } from "../../../runner/engine/body_sample.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import {
  ENVIRONMENT,
  recordPlan,
  resultPlan,
  sampleResult,
  SECRET_TOKEN,
} from "../../_helpers/result_fixtures.ts";
import { grpcPlan, recordGrpcPlan } from "../../_helpers/grpc_result_fixtures.ts";

function sample(
  labelIndex: number,
  status: number,
  atMs: number,
  body: string,
  bodyBytes = new TextEncoder().encode(body).length,
): RawBodySample {
  return { labelIndex, status, atMs, bytes: new TextEncoder().encode(body), bodyBytes };
}

Deno.test("buildResult() stores each unexpected status's first body, by label and code, secrets blotted out", () => {
  const plan = resultPlan();
  const denied = `{"error":"token ${SECRET_TOKEN} expired","captured":"c4pt"}`;
  const record = recordPlan(plan, {
    bodySamples: [
      sample(1, 500, 1234.5678, "oops"),
      sample(0, 401, 20, denied),
      sample(1, 429, 7, "x".repeat(512), 4096),
    ],
  });
  // A value setup captured is a secret too.
  const result = buildResult(plan, record, ENVIRONMENT, undefined, {
    secrets: [...plan.secretValues!, "c4pt"],
  });
  assert.deepEqual(result.unexpectedBodies, [
    {
      label: "GET /a",
      status: 401,
      atMs: 20,
      body: '{"error":"token *** expired","captured":"***"}',
      bodyBytes: denied.length,
    },
    { label: "GET /b", status: 429, atMs: 7, body: "x".repeat(512), bodyBytes: 4096, cut: true },
    { label: "GET /b", status: 500, atMs: 1234.568, body: "oops", bodyBytes: 4 },
  ]);
  assert.ok(!JSON.stringify(result).includes(SECRET_TOKEN), "the secret is stored nowhere");
  // The plan's own secrets are blotted out without being named.
  const plain = buildResult(plan, record, ENVIRONMENT);
  assert.ok(!JSON.stringify(plain).includes(SECRET_TOKEN));
  assert.equal(buildResult(plan, recordPlan(plan), ENVIRONMENT).unexpectedBodies, undefined);
});

Deno.test("readRunResult() reads the unexpected bodies, and results written before them", () => {
  const withBodies = sampleResult({ bodySamples: [sample(1, 500, 3, "oops")] });
  const read = readRunResult(JSON.stringify(withBodies));
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
  assert.deepEqual(read.value.unexpectedBodies, withBodies.unexpectedBodies);
  assert.ok(readRunResult(JSON.stringify(sampleResult())).ok);
});

Deno.test("readRunResult() refuses unexpected bodies no run writes, naming the JSON path", () => {
  const cases: Array<[(b: Record<string, unknown>, r: RunResult) => void, RegExp]> = [
    [
      (b) => b.label = "GET /nowhere",
      /^unexpectedBodies\[0\]\.label is "GET \/nowhere": not a label of the plan$/,
    ],
    [(b) => b.status = 200, /^unexpectedBodies\[0\]\.status is 200: the label expects it$/],
    [
      (b) => b.status = 1000,
      /^unexpectedBodies\[0\]\.status is 1000: a status is a whole number from 100 to 999$/,
    ],
    [(b) => b.atMs = -1, /^unexpectedBodies\[0\]\.atMs is -1: it must be a finite number from 0$/],
    [(b) => b.body = 5, /^unexpectedBodies\[0\]\.body is not a string$/],
    [
      (b) => b.body = "x".repeat(2049),
      /^unexpectedBodies\[0\]\.body is 2049 characters long: at most 2048$/,
    ],
    [
      (b) => b.bodyBytes = 1.5,
      /^unexpectedBodies\[0\]\.bodyBytes is 1\.5: a count is a whole number/,
    ],
    [(b) => b.cut = false, /^unexpectedBodies\[0\]\.cut is false: it is true or absent$/],
    [
      (_, r) => r.unexpectedBodies!.push({ ...r.unexpectedBodies![0] }),
      /^unexpectedBodies\[1\] repeats label "GET \/b" and status 500$/,
    ],
    [
      (_, r) => (r as { unexpectedBodies: unknown }).unexpectedBodies = {},
      /^unexpectedBodies is not a list$/,
    ],
  ];
  for (const [alter, expected] of cases) {
    const r = sampleResult({ bodySamples: [sample(1, 500, 3, "oops")] });
    alter(r.unexpectedBodies![0] as unknown as Record<string, unknown>, r);
    const read = readRunResult(JSON.stringify(r));
    assert.ok(!read.ok, `read as valid: ${expected}`);
    assert.match(read.problems[0].message, expected);
  }
  const many = sampleResult();
  many.unexpectedBodies = Array.from({ length: 101 }, (_, i) => ({
    label: "GET /b",
    status: 400 + i,
    atMs: 0,
    body: "",
    bodyBytes: 0,
  }));
  const read = readRunResult(JSON.stringify(many));
  assert.ok(!read.ok);
  assert.equal(
    read.problems[0].message,
    "unexpectedBodies has 101 entries: a run keeps at most 100",
  );
});

Deno.test("mergedUnexpectedBodies() keeps each label's and code's first on the merged clock", () => {
  const body = (label: string, status: number, atMs: number, text: string) => ({
    label,
    status,
    atMs,
    body: text,
    bodyBytes: text.length,
  });
  const merged = mergedUnexpectedBodies(["GET /a", "GET /b"], [
    // Shard 0 started at the merged run's start; shard 1 100 ms later.
    { bodies: [body("GET /b", 500, 150, "shard 0"), body("GET /a", 401, 5, "a")], offsetMs: 0 },
    { bodies: [body("GET /b", 500, 20, "shard 1"), body("GET /b", 503, 1, "b")], offsetMs: 100 },
    { bodies: undefined, offsetMs: 0 },
  ]);
  assert.deepEqual(merged, [
    body("GET /a", 401, 5, "a"),
    body("GET /b", 500, 120, "shard 1"),
    body("GET /b", 503, 101, "b"),
  ]);
  assert.equal(mergedUnexpectedBodies(["GET /a"], [{ bodies: undefined, offsetMs: 0 }]), undefined);
});

Deno.test("readRunResult() reads a gRPC label's first UNAVAILABLE body, and an HTTP 503 on it", () => {
  const plan = grpcPlan();
  const bodySamples = [sample(0, 1014, 3, ""), sample(0, 503, 4, "no healthy upstream")];
  const r = buildResult(plan, { ...recordGrpcPlan(plan), bodySamples }, ENVIRONMENT);
  assert.deepEqual(r.unexpectedBodies?.map((b) => b.status), [503, 1014]);
  const read = readRunResult(JSON.stringify(r));
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
  const cases: Array<[number, string]> = [
    [1000, "unexpectedBodies[0].status is 1000: the label expects it"],
    [
      99,
      "unexpectedBodies[0].status is 99: a status is a whole number from 100 to 999, or a gRPC " +
      "status from 1000",
    ],
  ];
  for (const [status, message] of cases) {
    const bad = structuredClone(r);
    bad.unexpectedBodies![0].status = status;
    const refused = readRunResult(JSON.stringify(bad));
    assert.ok(!refused.ok, `read as valid: ${status}`);
    assert.equal(refused.problems[0].message, message);
  }
});
