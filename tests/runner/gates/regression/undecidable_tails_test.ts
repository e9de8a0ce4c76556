import assert from "node:assert/strict";
import { parsePlanText } from "../../../../runner/plan/load_plan.ts";
import { formatIssue } from "../../../../runner/plan/format_issue.ts";
import {
  skippedDefaultTails,
  undecidableTails,
} from "../../../../runner/gates/regression/undecidable_tails.ts";

/** A plan of `requests` and `stages` (YAML flow items), with an optional `regression:` line. */
function plan(stages: string[], regression = "", requests = "[{ path: / }]") {
  const text = `name: tails
target: http://127.0.0.1:9
requests: ${requests}
load:
  stages:
${stages.map((s) => `    - ${s}\n`).join("")}${regression ? `regression: ${regression}\n` : ""}`;
  const parsed = parsePlanText(text);
  assert.ok(parsed.plan, JSON.stringify(parsed.issues));
  return { plan: parsed.plan, text };
}

Deno.test("a stage too short for the default p99.9 is said up front, skipped, with the length that decides it", () => {
  const { plan: p, text } = plan(["{ rate: 500/s, duration: 10s }"]);
  const issues = undecidableTails(p, text);
  assert.equal(issues.length, 1);
  const [issue] = issues;
  // A default metric tailgate skips of its own accord is a note: nothing for the plan to fix.
  assert.equal(issue.severity, "note");
  assert.equal(issue.path, "load.stages[0]");
  assert.equal(
    issue.message,
    'p99.9 cannot be judged on stage "500/s for 10s" by a regression check (against the ' +
      "history, or in `tailgate ab`): one run plans about 5,000 requests there, and p99.9 needs " +
      "10,000 (10 beyond it); tailgate skips this default metric there",
  );
  assert.equal(
    issue.hint,
    "run the stage for at least 20s at 500/s (each run, or each round of `tailgate ab`) to decide it",
  );
  // The caret sits under the stage, on its own line.
  const shown = formatIssue(issue, text).split("\n");
  assert.equal(shown[0], `plan.yaml:6:5: note: ${issue.message}`);
  assert.equal(shown[2], "      |     " + "^".repeat("- { rate: 500/s, duration: 10s }".length));
});

Deno.test("a stage long enough for every default percentile, and a warmup, say nothing", () => {
  const { plan: p, text } = plan([
    "{ rate: 10/s, duration: 1s, warmup: true }",
    "{ rate: 1k/s, duration: 10s }",
  ]);
  assert.deepEqual(undecidableTails(p, text), []);
});

Deno.test("named tail metrics too short are said to be inconclusive, together, with the longest length", () => {
  const { plan: p } = plan(["{ rate: 50/s, duration: 10s }"], "{ p99: 10%, p99.9: 20%, max: 30% }");
  const [issue, ...rest] = undecidableTails(p);
  assert.deepEqual(rest, []);
  assert.match(
    issue.message,
    /^p99 and p99\.9 cannot be judged .*: one run plans about 500 requests there, and p99 needs 1,000, p99\.9 10,000 \(10 beyond each\); named under `regression`, they will be inconclusive \(a warning\)$/,
  );
  assert.match(
    issue.hint!,
    /^run the stage for at least 4m at 50\/s .* to decide them, or drop them from `regression`$/,
  );
  const { plan: none } = plan(["{ rate: 50/s, duration: 10s }"], "{ throughput: 5%, max: 20% }");
  assert.deepEqual(undecidableTails(none), [], "no tail percentile named: nothing to say");
});

Deno.test("a label too rare for a percentile its stage holds gets its own warning, at the rarest label's length", () => {
  const { plan: p } = plan(
    ["{ rate: 1k/s, duration: 20s }"],
    "",
    "[{ name: GET /a, path: /a, weight: 9 }, { name: GET /b, path: /b, weight: 1 }]",
  );
  const issues = undecidableTails(p);
  assert.equal(issues.length, 1, JSON.stringify(issues));
  assert.match(
    issues[0].message,
    /^p99\.9 cannot be judged on stage "1k\/s for 20s" for label "GET \/b" by a regression check .*: one run plans about 2,000 requests for "GET \/b", and p99\.9 needs 10,000/,
  );
  // 10,000 requests of a tenth of 1k/s: 100 s.
  assert.match(issues[0].hint!, /^run the stage for at least 100s at 1k\/s /);
});

Deno.test("a ramp is measured at its average rate", () => {
  const { plan: p } = plan(["{ ramp: 200/s -> 1k/s, over: 10s }"]);
  const [issue] = undecidableTails(p);
  assert.match(issue.message, /one run plans about 6,000 requests there/);
  assert.match(issue.hint!, /^run the stage for at least 17s at its average rate, 600\/s /);
});

Deno.test("judgedOnly keeps a default tail at the stages an SLO judges it; the rest are skipped quietly", () => {
  const two = ["{ rate: 500/s, duration: 10s }", "{ rate: 400/s, duration: 10s }"];
  const quiet = plan(two);
  assert.deepEqual(undecidableTails(quiet.plan, quiet.text, { judgedOnly: true }), []);
  assert.deepEqual(skippedDefaultTails(quiet.plan), ["p99.9"]);
  // An SLO on p99.9 at 500/s: that stage is told; the other, judged by no SLO, is skipped quietly.
  const judged = plan(two);
  judged.plan.slos = parsePlanText(`${judged.text}slo: [p99.9 < 1s at 500/s]\n`).plan!.slos;
  const told = undecidableTails(judged.plan, judged.text, { judgedOnly: true });
  assert.deepEqual(told.map((i) => i.path), ["load.stages[0]"]);
  assert.deepEqual(skippedDefaultTails(judged.plan), ["p99.9"], "the 400/s stage");
  // Named metrics are the plan's own: each is said wherever it cannot be judged.
  const named = plan(two, "{ p99.9: 20% }");
  assert.equal(undecidableTails(named.plan, named.text, { judgedOnly: true }).length, 2);
  assert.deepEqual(skippedDefaultTails(named.plan), []);
});
