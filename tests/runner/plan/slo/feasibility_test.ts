import assert from "node:assert/strict";
import { ENGINE_PEAK_PER_WORKER_PER_SEC } from "../../../../runner/plan/slo/feasibility.ts";
import { parsePlanText } from "../../../../runner/plan/load_plan.ts";

function warnings(load: string, slo: string) {
  const { plan, issues } = parsePlanText(`name: feasibility
target: http://127.0.0.1:8080
requests: [{ name: a, path: /a }, { name: b, path: /b }]
load:
${load}
slo:
${slo}
`);
  assert.ok(plan, issues.map((i) => i.message).join("\n"));
  return issues.filter((i) => i.severity === "warning" && i.path.startsWith("load.stages"));
}

Deno.test("a stage whose expected latency needs more connections than max_connections is warned, at the stage", () => {
  const [w, ...rest] = warnings(
    "  max_connections: 50\n  stages:\n    - { rate: 1k/s, duration: 60s }\n" +
      "    - { rate: 20k/s, duration: 60s }",
    "  - p50 < 5ms",
  );
  assert.deepEqual(rest, []);
  assert.equal(w.path, "load.stages[1]");
  assert.equal(w.line, 8);
  assert.match(
    w.message,
    /at 20k\/s, answers of 5ms \(the p50 bound\) keep 100 requests in flight/,
  );
  assert.match(w.hint!, /at least 100/);
});

Deno.test("connections are judged by mean and p50-or-lower bounds only, on the stages they bind", () => {
  const stages = "  max_connections: 50\n  stages:\n    - { rate: 20k/s, duration: 60s }\n" +
    "    - { rate: 1k/s, duration: 60s }";
  // A tail bound says nothing of the typical answer; a label's bound nothing of the others'.
  assert.deepEqual(warnings(stages, "  - p99.9 < 10ms"), []);
  assert.deepEqual(warnings(stages, '  - p50 < 5ms for "a"'), []);
  // Bound to the 1k/s stage: 1k/s x 5 ms = 5 in flight.
  assert.deepEqual(warnings(stages, "  - p50 < 5ms at 1k/s"), []);
  assert.equal(warnings(stages, "  - mean < 5ms").length, 1);
  // Enough connections: no warning.
  assert.deepEqual(
    warnings(
      "  max_connections: 100\n  stages:\n    - { rate: 20k/s, duration: 60s }",
      "  - p50 < 5ms",
    ),
    [],
  );
  // A ramp is judged at its highest rate.
  const [ramp] = warnings(
    "  max_connections: 50\n  stages:\n    - { ramp: 1k/s -> 40k/s, over: 60s }",
    "  - mean < 2ms",
  );
  assert.match(ramp.message, /at 40k\/s, answers of 2ms \(the mean bound\) keep 80 requests/);
});

Deno.test("a stage beyond what its engine workers can send is warned", () => {
  const above = ENGINE_PEAK_PER_WORKER_PER_SEC * 1.5;
  const [w] = warnings(`  stages:\n    - { rate: ${above}/s, duration: 10s }`, "  - max < 1s");
  assert.match(w.message, /150k\/s is more than one engine worker sent/);
  assert.match(w.hint!, /set `load\.workers` to 2/);
  assert.deepEqual(
    warnings(`  workers: 2\n  stages:\n    - { rate: ${above}/s, duration: 10s }`, "  - max < 1s"),
    [],
  );
  assert.deepEqual(
    warnings(
      `  stages:\n    - { rate: ${ENGINE_PEAK_PER_WORKER_PER_SEC}/s, duration: 10s }`,
      "  - max < 1s",
    ),
    [],
  );
});

Deno.test("over HTTP/2 a connection carries max_streams requests: warned only beyond connections × streams", () => {
  const stages = "  stages:\n    - { rate: 20k/s, duration: 60s }";
  // 20k/s × 5 ms = 100 in flight: more than 50 connections, fewer than 50 × 8 streams.
  assert.equal(warnings(`  max_connections: 50\n${stages}`, "  - p50 < 5ms").length, 1);
  assert.deepEqual(
    warnings(`  max_connections: 50\n  http: 2\n  max_streams: 8\n${stages}`, "  - p50 < 5ms"),
    [],
  );
  const [w, ...rest] = warnings(
    `  connections: 10\n  max_connections: 10\n  http: 2\n  max_streams: 8\n${stages}`,
    "  - p50 < 5ms",
  );
  assert.deepEqual(rest, []);
  assert.match(
    w.message,
    /keep 100 requests in flight \(rate × latency\), more than `max_connections` × `max_streams` \(10 × 8\): the rest would wait for a free stream in tailgate/,
  );
  assert.match(w.hint!, /`load\.max_connections` to at least 13 /);
  // One stream per connection is still HTTP/2: the wait is for a stream.
  const [one] = warnings(
    `  connections: 10\n  max_connections: 10\n  http: 2\n  max_streams: 1\n${stages}`,
    "  - p50 < 5ms",
  );
  assert.match(one.message, /\(10 × 1\): the rest would wait for a free stream/);
  assert.match(one.hint!, /at least 100 /);
  // Without max_streams, the most the server's SETTINGS may allow: 100 per connection.
  assert.deepEqual(
    warnings(`  connections: 1\n  max_connections: 1\n  http: 2\n${stages}`, "  - p50 < 5ms"),
    [],
  );
});
