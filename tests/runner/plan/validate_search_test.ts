import assert from "node:assert/strict";
import { parsePlanText } from "../../../runner/plan/load_plan.ts";

function parse(search: string) {
  const parsed = parsePlanText(`name: s
target: http://127.0.0.1:8080
requests: [{ path: / }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
slo: [p99 < 10ms]
search:
${search}
`);
  return { plan: parsed.plan, issues: parsed.issues.filter((i) => i.path.startsWith("search")) };
}

Deno.test("search: the defaults fill what the plan leaves out", () => {
  const { plan, issues } = parse("  from: 1k/s\n  max: 100k/s");
  assert.deepEqual(issues, []);
  assert.deepEqual(plan?.search, {
    fromPerSec: 1_000,
    maxPerSec: 100_000,
    stepMs: 10_000,
    warmupMs: 2_000,
    cooldownMs: 2_000,
    precision: 0.05,
    soakMs: 30_000,
    line: 7,
  });
});

Deno.test("search: every problem is located, with its fix", () => {
  const { plan, issues } = parse(
    "  from: 10k/s\n  max: 1k/s\n  precision: 150%\n  stpe: 5s\n  require: fast",
  );
  assert.equal(plan, undefined);
  const at = issues.map((i) => `${i.line}:${i.path}: ${i.message}${i.hint ? ` (${i.hint})` : ""}`);
  assert.ok(
    at.some((l) => /^9:search\.precision: percentage `150%` is outside 0%\.\.100%/.test(l)),
    at.join("\n"),
  );
  assert.ok(at.some((l) => /^10:search.*stpe.*did you mean `step`/.test(l)), at.join("\n"));
  assert.ok(
    at.some((l) => /^11:search\.require: unknown key .*sustainable_rate >= 20k\/s/.test(l)),
    at.join("\n"),
  );
  const order = parse("  from: 10k/s\n  max: 1k/s");
  assert.match(order.issues[0].message, /`max` must be above `from`/);
  assert.equal(order.issues[0].line, 8);
  const missing = parse("  step: 5s");
  assert.deepEqual(
    missing.issues.map((i) => i.message),
    ["`search` needs `from`", "`search` needs `max`"],
  );
});

Deno.test("search: a precision of 0% or 100% is refused, other tools' names get a did-you-mean", () => {
  assert.match(
    parse("  from: 1k/s\n  max: 5k/s\n  precision: 0%").issues[0].message,
    /`precision` must be above 0% and below 100%/,
  );
  const { issues } = parse("  start: 500/s\n  max: 5k/s\n  sustainable_rate: 2k/s");
  assert.deepEqual(
    issues.filter((i) => i.hint?.startsWith("did you mean")).map((i) => [i.path, i.hint]),
    [["search.start", "did you mean `from`?"]],
  );
  // The gate is an SLO now: the old key and its synonyms point there.
  assert.match(
    issues.find((i) => i.path === "search.sustainable_rate")!.hint!,
    /under `slo`, write e\.g\. `sustainable_rate >= 20k\/s`/,
  );
});

function withSlo(slo: string, search = "{ from: 1k/s, max: 10k/s }") {
  return parsePlanText(`name: s
target: http://127.0.0.1:8080
requests: [{ path: / }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
slo:
  - p99 < 10ms
  - ${slo}
${search ? `search: ${search}` : ""}
`);
}

Deno.test("sustainable_rate: an SLO of the search, refused without one or beyond its max", () => {
  const ok = withSlo("sustainable_rate >= 5k/s");
  assert.deepEqual(ok.issues.filter((i) => i.severity === "error"), []);
  assert.equal(ok.plan?.slos[1].metric.kind, "sustainable_rate");
  assert.equal(ok.plan?.slos[1].bound, 5_000);

  const none = withSlo("sustainable_rate >= 5k/s", "");
  assert.equal(none.plan, undefined);
  const missing = none.issues.find((i) => i.severity === "error")!;
  assert.match(missing.message, /the plan has no `search`/);
  assert.equal(missing.line, 7);

  const beyond = withSlo("sustainable_rate >= 20k/s");
  assert.equal(beyond.plan, undefined);
  const issue = beyond.issues.find((i) =>
    /cannot pass: the search stops at `max: 10k\/s`/.test(i.message)
  )!;
  assert.equal(issue.line, 7);
  assert.match(issue.hint!, /raise `search\.max` to at least 20k\/s/);
});

Deno.test("search: steps too short for an SLO at `from` are warned about, with the step that works", () => {
  const short = withSlo("error_rate < 0.1%", "{ from: 100/s, max: 10k/s, step: 5s }");
  const warnings = short.issues.filter((i) => i.path === "search.step").map((i) =>
    `${i.message} (${i.hint})`
  );
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /sends about 500 requests, and `error_rate < 0\.1%` cannot pass with fewer than 3688/,
  );
  assert.match(warnings[0], /raise `step` to 37s or `from` to 738\/s/);
  const drift = withSlo("stalls == 0", "{ from: 1k/s, max: 10k/s, step: 5s }");
  assert.match(
    drift.issues.find((i) => i.path === "search.step")!.message,
    /`stalls == 0` needs 10s of a stage, and each step measures 5s/,
  );
  assert.deepEqual(
    withSlo("stalls == 0", "{ from: 1k/s, max: 10k/s, step: 12s }").issues.filter((i) =>
      i.path === "search.step"
    ),
    [],
  );
});
