import assert from "node:assert/strict";
import { runPlan } from "../../../runner/api/run_plan.ts";
import { parsePlanText } from "../../../runner/plan/load_plan.ts";
import { readRunResult } from "../../../runner/result/read_run_result.ts";
import { startTarget } from "../../../runner/target/mod.ts";

function plan(url: string, ratePerSec: number, duration: string) {
  const { plan, issues } = parsePlanText(`
name: front-door
target: ${url}
requests: [{ name: GET /, path: / }]
load: { connections: 4, stages: [{ name: steady, rate: ${ratePerSec}/s, duration: ${duration} }] }
slo: [p90 < 1s]
`);
  assert.ok(plan, issues.map((i) => i.message).join("\n"));
  return plan;
}

Deno.test("runPlan() returns the measured result of every scheduled request, not yet judged", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const progress: string[] = [];
  const result = await runPlan(plan(target.url, 200, "1500ms"), {
    onProgress: (p) => progress.push(p.stageName),
  });
  assert.equal(result.run.complete, true);
  assert.equal(result.run.stopReason, "completed");
  const [steady] = result.stages;
  assert.equal(steady.counts.scheduled, 300);
  assert.equal(steady.counts.completed, 300);
  assert.equal(steady.counts.statusCodes["200"], 300);
  assert.deepEqual(result.verdicts, [], "judging is judge()'s");
  assert.equal(result.verdict, undefined);
  assert.ok(progress.includes("steady"), "progress reported");
  const read = readRunResult(JSON.stringify(result));
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
});

Deno.test("runPlan() stopped by its signal returns what it measured, marked interrupted", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const stop = new AbortController();
  // Stopped at the first progress report (about a second into the schedule) of a 30 s plan.
  const result = await runPlan(plan(target.url, 100, "30s"), {
    signal: stop.signal,
    onProgress: (p) => p.completed > 0 && stop.abort(),
  });
  assert.equal(result.run.complete, false);
  assert.equal(result.run.stopReason, "interrupted");
  const completed = result.stages[0].counts.completed;
  assert.ok(completed >= 50 && completed < 1000, `${completed} completed before the stop`);
});

Deno.test("runPlan() stores the first body of an unexpected status, the captured token and env secret blotted out", async () => {
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/login") return Response.json({ access_token: "tok-7Hq2-captured" });
    // A server that quotes the credentials it refuses, as some do.
    const quoted = `${req.headers.get("authorization")} ${req.headers.get("x-api-key")}`;
    return new Response(JSON.stringify({ error: "forbidden", credentials: quoted }), {
      status: 403,
    });
  });
  const { plan, issues } = parsePlanText(
    `
name: quoted
target: http://127.0.0.1:${server.addr.port}
setup:
  - { name: login, method: POST, path: /login, capture: { token: { json: /access_token } } }
requests:
  - path: /orders
    headers: { Authorization: "Bearer {{token}}", X-Api-Key: "\${env.API_KEY}" }
load: { connections: 2, stages: [{ rate: 20/s, duration: 500ms }] }
allow_errors: true
`,
    { env: (name) => name === "API_KEY" ? "key-Pp93-from-env" : undefined },
  );
  assert.ok(plan, issues.map((i) => i.message).join("\n"));
  const result = await runPlan(plan);
  assert.deepEqual(result.stages[0].counts.statusCodes, { "403": 10 });
  const [body, ...rest] = result.unexpectedBodies ?? [];
  assert.deepEqual(rest, []);
  assert.deepEqual({ ...body, atMs: undefined }, {
    label: "GET /orders",
    status: 403,
    atMs: undefined,
    body: '{"error":"forbidden","credentials":"Bearer *** ***"}',
    // The whole body as sent, secrets and all.
    bodyBytes: JSON.stringify({
      error: "forbidden",
      credentials: "Bearer tok-7Hq2-captured key-Pp93-from-env",
    }).length,
  });
  const stored = JSON.stringify(result);
  for (const secret of ["tok-7Hq2-captured", "key-Pp93-from-env"]) {
    assert.ok(!stored.includes(secret), `${secret} is stored`);
  }
  const read = readRunResult(stored);
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
});
