import assert from "node:assert/strict";
import { parseYaml } from "../../../../runner/plan/read/_yaml.ts";
import { parsePlanText } from "../../../../runner/plan/load_plan.ts";
import {
  applyOverrides,
  parseStageOverride,
  type PlanOverrides,
  type StageOverride,
} from "../../../../runner/plan/overrides/plan_overrides.ts";
import { overriddenText } from "../../../../runner/plan/overrides/overridden_text.ts";
import {
  followStages,
  rewriteSloRates,
  type StageRates,
} from "../../../../runner/plan/overrides/follow_slos.ts";
import { parseSlo } from "../../../../runner/plan/slo/parse_slo.ts";
import type { PlanStage, Slo } from "../../../../runner/plan/types.ts";
import { rateText } from "../../../../runner/plan/units.ts";

const PLAN = `name: shop
target: http://127.0.0.1:8080
requests: [{ path: / }]
load:
  stages:
    - { name: warmup, rate: 2k/s, duration: 10s, warmup: true }
    - { name: climb, ramp: 1k/s -> 20k/s, over: 2m }
    - { name: steady, rate: 20k/s, duration: 10m }
    - { name: peak, rate: 30k/s, duration: 1m }
slo:
  - p99.9 < 10ms at 20k/s
  - "throughput >= 19.5k/s at 20k/s"
  - 'p99 < 5ms at 30k/s for "GET /"'
  - max < 2s
`;

const stage = (text: string): StageOverride => {
  const parsed = parseStageOverride(text);
  if (!parsed.ok) throw new Error(parsed.problems[0].message);
  return parsed.value;
};

const parse = (overrides: PlanOverrides, text = PLAN) =>
  parsePlanText(text, { file: "shop.yaml", env: () => undefined, overrides });

Deno.test("--rate-scale scales every stage and the SLOs bound to them, keeping every line", () => {
  const { plan, issues, overriddenText: printed } = parse({ rateScale: 0.25 });
  assert.deepEqual(issues.filter((i) => i.severity === "error"), []);
  const stages = plan!.load.stages;
  assert.deepEqual(
    stages.map((s) => s.kind === "constant" ? [s.ratePerSec] : [s.fromPerSec, s.toPerSec]),
    [[500], [250, 5000], [5000], [7500]],
  );
  // Unnamed stages would be named from the new values; these keep their names.
  assert.equal(stages[2].name, "steady");
  assert.deepEqual(plan!.slos.map((s) => s.text), [
    "p99.9 < 10ms at 5k/s",
    "throughput >= 4.875k/s at 5k/s",
    'p99 < 5ms at 7.5k/s for "GET /"',
    "max < 2s",
  ]);
  assert.deepEqual(plan!.slos.map((s) => s.line), [11, 12, 13, 14]);
  assert.deepEqual(stages.map((s) => s.line), [6, 7, 8, 9]);
  assert.deepEqual(plan!.overrides, ["--rate-scale 0.25"]);
  // The printed plan reads back as the same plan.
  const again = parsePlanText(printed!, { file: "shop.yaml" });
  assert.deepEqual(again.plan!.load, plan!.load);
  assert.deepEqual(again.plan!.slos, plan!.slos);
});

Deno.test("--duration-scale scales durations and ramp lengths, not rates", () => {
  const { plan } = parse({ durationScale: 0.1 });
  assert.deepEqual(plan!.load.stages.map((s) => s.durationMs), [1000, 12_000, 60_000, 6000]);
  assert.equal(plan!.slos[0].atRatePerSec, 20_000);
});

Deno.test("--stage sets one stage after the scales, and SLOs at its rate follow it", () => {
  const { plan, issues } = parse({
    rateScale: 0.5,
    stages: [
      stage("steady:rate=8k/s,duration=30s"),
      stage("2:over=20s"),
    ],
  });
  assert.equal(issues.filter((i) => i.severity === "error").length, 0);
  const [, climb, steady, peak] = plan!.load.stages;
  assert.equal(steady.kind === "constant" && steady.ratePerSec, 8000);
  assert.equal(steady.durationMs, 30_000);
  assert.equal(climb.durationMs, 20_000);
  assert.equal(peak.kind === "constant" && peak.ratePerSec, 15_000);
  assert.equal(plan!.slos[0].text, "p99.9 < 10ms at 8k/s");
  assert.equal(plan!.slos[1].text, "throughput >= 7.8k/s at 8k/s");
  assert.deepEqual(plan!.overrides, [
    "--rate-scale 0.5",
    "--stage steady:rate=8k/s,duration=30s",
    "--stage 2:over=20s",
  ]);
});

Deno.test("an SLO whose stages were moved apart warns that it now judges fewer of them", () => {
  const text = PLAN.replace("{ name: peak, rate: 30k/s", "{ name: peak, rate: 20k/s")
    .replace("at 30k/s", "at 20k/s");
  const { plan, issues } = parse({ stages: [stage("peak:rate=25k/s")] }, text);
  assert.equal(plan!.slos[0].text, "p99.9 < 10ms at 20k/s");
  const warning = issues.find((i) => i.path === "slo[0]");
  assert.equal(warning?.severity, "warning");
  assert.match(warning!.message, /judged stages 3, 4; `--stage peak:rate=25k\/s` moved some/);
  assert.match(warning!.message, /judges stage 3 only/);
});

Deno.test("an overridden value that breaks a rule is refused, naming the flag it came from", () => {
  const { plan, issues } = parse({ stages: [stage("steady:duration=0s")] });
  assert.equal(plan, undefined);
  const error = issues.find((i) => i.severity === "error")!;
  assert.equal(error.path, "load.stages[2].duration");
  assert.equal(error.line, 8);
  assert.match(error.message, /comes from `--stage steady:duration=0s`/);
});

Deno.test("an SLO follows a stage broken as written, so only the stage's error is reported", () => {
  const text = PLAN.replace("{ name: steady, rate: 20k/s, duration: 10m }", "{ rate: 20k/s }");
  const { issues } = parse({ rateScale: 0.25 }, text);
  assert.deepEqual(issues.filter((i) => i.severity === "error").map((i) => i.path), [
    "load.stages[2]",
  ]);
  assert.match(issues.find((i) => i.severity === "error")!.message, /comes from `--rate-scale/);
});

Deno.test("--stage names a stage by number or name, and a wrong one lists the stages", () => {
  const { issues } = parse({ stages: [stage("stedy:rate=1k/s")] });
  const error = issues.find((i) => i.severity === "error")!;
  assert.match(error.message, /the plan has no stage `stedy`/);
  assert.match(error.hint!, /1 \(warmup\), 2 \(climb\), 3 \(steady\), 4 \(peak\)/);
  const ramp = parse({ stages: [stage("climb:rate=1k/s")] });
  assert.match(ramp.issues[0].hint!, /it is a ramp/);
});

Deno.test("parseStageOverride() reads key=value pairs and refuses other keys with a guess", () => {
  assert.deepEqual(parseStageOverride("2:rate=5k/s,duration=20s"), {
    ok: true,
    value: {
      stage: "2",
      values: { rate: "5k/s", duration: "20s" },
      flag: "--stage 2:rate=5k/s,duration=20s",
    },
  });
  const ramp = parseStageOverride("climb:ramp=1k/s -> 2k/s");
  assert.equal(ramp.ok && ramp.value.values.ramp, "1k/s -> 2k/s");
  const bad = parseStageOverride("steady:durration=30s");
  assert.equal(bad.ok, false);
  assert.match(
    !bad.ok ? bad.problems[0].message : "",
    /`durration` cannot be set; did you mean `duration`\?/,
  );
  assert.equal(parseStageOverride("duration=30s").ok, false);
});

Deno.test("--connections replaces load.connections or adds it, in block and flow mappings", () => {
  const added = parse({ connections: "120" });
  assert.equal(added.plan!.load.connections, 120);
  assert.match(added.overriddenText!, /^load:\n {2}connections: 120\n {2}stages:/m);
  assert.equal(parsePlanText(added.overriddenText!).plan!.load.connections, 120);
  const flow = "name: x\ntarget: http://127.0.0.1:1\nrequests: [{ path: / }]\n" +
    "load: { connections: 4, stages: [{ rate: 1/s, duration: 1s }] }\n";
  assert.match(parse({ connections: "9" }, flow).overriddenText!, /load: \{ connections: 9, /);
  const inserted = flow.replace("connections: 4, ", "");
  const text = parse({ connections: "9" }, inserted).overriddenText!;
  assert.match(text, /load: \{ connections: 9, stages:/);
  const below = parse(
    { connections: "20" },
    flow.replace("connections: 4", "connections: 4, max_connections: 10"),
  );
  assert.match(
    below.issues[0].message,
    /below `connections` \(20\).*comes from `--connections 20`/,
  );
});

Deno.test("--seed replaces load.seed or adds it, and keeps the plan's history", () => {
  const added = parse({ seed: "7", connections: "3" });
  assert.equal(added.plan!.load.seed, 7);
  assert.equal(added.plan!.load.seedPerRun, undefined, "the seed is fixed");
  assert.equal(added.plan!.overrides?.includes("--seed 7"), false, "no history of its own");
  assert.match(added.overriddenText!, /^load:\n {2}connections: 3\n {2}seed: 7\n {2}stages:/m);
  const flow = "name: x\ntarget: http://127.0.0.1:1\nrequests: [{ path: / }]\n" +
    "load: { seed: 4, stages: [{ rate: 1/s, duration: 1s }] }\n";
  assert.match(parse({ seed: "9" }, flow).overriddenText!, /load: \{ seed: 9, stages/);
  const big = parse({ seed: "4294967296" }, flow);
  assert.equal(big.plan, undefined);
  assert.match(big.issues[0].message, /comes from `--seed 4294967296`/);
});

Deno.test("applyOverrides() leaves the tree it was given unchanged", () => {
  const root = parseYaml(PLAN).root!;
  const before = JSON.stringify(root);
  const applied = applyOverrides(root, { rateScale: 2 }, "shop.yaml");
  assert.equal(JSON.stringify(root), before);
  assert.notEqual(JSON.stringify(applied.root), before);
  assert.equal(overriddenText(PLAN, []), PLAN);
});

Deno.test("rateText() writes a rate that reads back exactly", () => {
  assert.equal(rateText(5000), "5k/s");
  assert.equal(rateText(12_345.6), "12345.6/s");
  assert.equal(rateText(0.5), "0.5/s");
});

Deno.test("rewriteSloRates() rewrites the at rate and throughput bound, never the label", () => {
  assert.equal(
    rewriteSloRates('p99 < 10ms at 20k/s for "GET /at 1k/s"', "5k/s"),
    'p99 < 10ms at 5k/s for "GET /at 1k/s"',
  );
  assert.equal(rewriteSloRates("throughput >= 19.5k/s", undefined, "5k/s"), "throughput >= 5k/s");
  assert.equal(rewriteSloRates("max < 2s", "5k/s"), "max < 2s");
});

Deno.test("followStages() moves an SLO with its stages, or says which stages it still judges", () => {
  const stages = (...rates: number[]): PlanStage[] =>
    rates.map((ratePerSec, index) => ({
      kind: "constant",
      index,
      name: `s${index}`,
      ratePerSec,
      durationMs: 60_000,
      warmup: index === 0,
      line: index + 1,
    }));
  const rates = (...perSec: number[]): StageRates[] => perSec.map((r) => [r, r]);
  const slo = (text: string): Slo => {
    const parsed = parseSlo(text);
    if (!parsed.ok) throw new Error(parsed.problems[0].message);
    return { ...parsed.value, line: 9 };
  };
  const before = stages(1000, 20_000, 20_000);
  assert.deepEqual(
    followStages(slo("p99 < 5ms at 20k/s"), before, rates(1000, 20_000, 20_000)),
    { kind: "same" },
  );
  assert.deepEqual(
    followStages(slo("p99 < 5ms at 20k/s"), before, rates(500, 10_000, 10_000)),
    { kind: "moved", slo: slo("p99 < 5ms at 10k/s"), stages: [1, 2] },
  );
  assert.deepEqual(
    followStages(slo("p99 < 5ms at 20k/s"), before, rates(1000, 20_000, 9000)),
    { kind: "narrowed", judged: [1, 2], kept: [1] },
  );
  // A latency SLO over every stage has nothing to move.
  assert.deepEqual(
    followStages(slo("p99 < 5ms"), before, rates(500, 10_000, 10_000)),
    { kind: "same" },
  );
  // A ramp moves its SLOs when both of its ends moved by one ratio.
  const ramp: PlanStage = { ...before[1], kind: "ramp", fromPerSec: 1000, toPerSec: 2000 };
  assert.deepEqual(
    followStages(slo("throughput >= 1k/s"), [ramp], [[500, 1000]]),
    { kind: "moved", slo: slo("throughput >= 500/s"), stages: [0] },
  );
  assert.deepEqual(followStages(slo("throughput >= 1k/s"), [ramp], [[500, 2000]]), {
    kind: "same",
  });
});
