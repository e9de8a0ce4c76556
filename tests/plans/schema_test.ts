import assert from "node:assert/strict";
import { parseDurationMs, parseRatePerSec } from "../../runner/plan/units.ts";
import { keysOf, REGRESSION_METRICS } from "../../runner/plan/read/plan_language.ts";

// The keys the readers accept: the plan language's (runner/plan/read/read_section.ts).
const [PLAN_KEYS, LOAD_KEYS, STAGE_KEYS, REQUEST_KEYS] =
  (["plan", "load", "stage", "request"] as const)
    .map(keysOf);

const schema = JSON.parse(
  await Deno.readTextFile(new URL("../../plans/schema.json", import.meta.url)),
);
const defs = schema.definitions;

Deno.test("plans/schema.json names exactly the keys the validator accepts", () => {
  assert.deepEqual(Object.keys(schema.properties).sort(), [...PLAN_KEYS].sort());
  assert.deepEqual(Object.keys(schema.properties.load.properties).sort(), [...LOAD_KEYS].sort());
  assert.deepEqual(Object.keys(defs.stage.properties).sort(), [...STAGE_KEYS].sort());
  assert.deepEqual(Object.keys(defs.request.properties).sort(), [...REQUEST_KEYS].sort());
  assert.deepEqual(Object.keys(schema.properties.defaults.properties).sort(), [
    "headers",
    "timeout",
  ]);
  assert.deepEqual(
    Object.keys(schema.properties.regression.properties).sort(),
    [...REGRESSION_METRICS].sort(),
  );
  assert.deepEqual(
    Object.keys(schema.properties.service?.properties ?? {}).sort(),
    [...keysOf("service")].sort(),
  );
  assert.deepEqual(schema.properties.service.required, ["start"]);
});

Deno.test("the schema's duration and rate patterns agree with the parsers", () => {
  const duration = new RegExp(defs.duration.pattern, "u");
  const durations = [
    "250us",
    "250µs",
    "1.5ms",
    "60s",
    "2m",
    "1h",
    "1m30s",
    "60sec",
    "60",
    "ms",
    "-3s",
    "2 mins",
  ];
  for (const d of durations) {
    assert.equal(duration.test(d), parseDurationMs(d).ok, `duration ${d}`);
  }
  const rate = new RegExp(defs.rate.pattern, "u");
  const rates = ["20k/s", "500/s", "1.5M/m", "600/min", "20000", "20krps", "2m/s", "/s", "k/s"];
  for (const r of rates) assert.equal(rate.test(r), parseRatePerSec(r).ok, `rate ${r}`);
});

Deno.test("every example in the schema parses", () => {
  for (const d of defs.duration.examples) assert.ok(parseDurationMs(d).ok, d);
  for (const r of defs.rate.examples) assert.ok(parseRatePerSec(r).ok, r);
});

Deno.test("plans/schema.json is the schema the plan language generates (deno task schema)", async () => {
  const { planSchemaText, PLAN_SCHEMA_PATH } = await import(
    "../../runner/plan/read/plan_schema.ts"
  );
  const committed = await Deno.readTextFile(new URL(`../../${PLAN_SCHEMA_PATH}`, import.meta.url));
  assert.equal(committed, planSchemaText(), "run `deno task schema` and commit plans/schema.json");
});

Deno.test("the validator's bounds and defaults are the ones the schema states", async () => {
  const { parsePlanText } = await import("../../runner/plan/load_plan.ts");
  const connections = schema.properties.load.properties.connections;
  const plan = (load: string) =>
    parsePlanText(`name: x
target: http://127.0.0.1:8080
requests: [{ path: / }]
load: { ${load}stages: [{ rate: 10/s, duration: 1s }] }
`);
  assert.equal(plan("").plan?.load.connections, connections.default);
  assert.ok(plan(`connections: ${connections.maximum}, `).plan);
  assert.equal(plan(`connections: ${connections.maximum + 1}, `).plan, undefined);
  assert.equal(plan(`connections: ${connections.minimum - 1}, `).plan, undefined);
  const workers = schema.properties.load.properties.workers.oneOf[1];
  assert.ok(plan(`workers: ${workers.maximum}, `).plan);
  assert.equal(plan(`workers: ${workers.maximum + 1}, `).plan, undefined);
  assert.deepEqual(
    schema.properties.load.properties.arrival.enum.map((a: string) =>
      plan(`arrival: ${a}, `).plan?.load.arrival
    ),
    schema.properties.load.properties.arrival.enum,
  );
  assert.equal(plan(`arrival: uniform, `).plan, undefined);
  // No default seed: a plan without one draws a fresh seed for each run.
  assert.equal(schema.properties.load.properties.seed.default, undefined);
  assert.equal(plan("").plan?.load.seedPerRun, true);
  assert.equal(plan("seed: 0, ").plan?.load.seedPerRun, undefined);
  const timeoutDefault = schema.properties.defaults.properties.timeout.default;
  const parsedTimeout = parseDurationMs(timeoutDefault);
  assert.ok(parsedTimeout.ok);
  assert.equal(plan("").plan?.requests[0].timeoutMs, parsedTimeout.value);
});

Deno.test("every http the schema allows is read as that version, and max_streams within its bounds", async () => {
  const { parsePlanText } = await import("../../runner/plan/load_plan.ts");
  const plan = (load: string) =>
    parsePlanText(`name: x
target: http://127.0.0.1:8080
requests: [{ path: / }]
load: { ${load}stages: [{ rate: 10/s, duration: 1s }] }
`).plan;
  const { http, max_streams: streams } = schema.properties.load.properties;
  // Text and numbers alike: a JSON value written into the YAML flow mapping as itself.
  for (const value of http.enum) {
    assert.equal(plan(`http: ${JSON.stringify(value)}, `)?.load.http, String(value), `${value}`);
  }
  assert.equal(plan(`http: 3, `), undefined);
  assert.equal(plan("")?.load.http, undefined, `absent means the default, ${http.default}`);
  assert.equal(
    plan(`http: 2, max_streams: ${streams.maximum}, `)?.load.maxStreams,
    streams.maximum,
  );
  assert.equal(plan(`http: 2, max_streams: ${streams.maximum + 1}, `), undefined);
  assert.equal(plan(`http: 2, max_streams: ${streams.minimum - 1}, `), undefined);
});
