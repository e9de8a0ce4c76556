import assert from "node:assert/strict";
import { adHocPlanText } from "../../../runner/cli/adhoc_plan.ts";
import { parsePlanText } from "../../../runner/plan/load_plan.ts";

Deno.test("adHocPlanText(): the flags become a plan that validates, with the command line on top", () => {
  const made = adHocPlanText({
    url: "http://127.0.0.1:8080/orders?limit=20",
    rate: "1k/s",
    duration: "30s",
    connections: "64",
    warmup: "5s",
    slos: ["p99 < 10ms", "error_rate < 1%"],
    headers: ["Accept: application/json", 'X-Quote: it\'s "odd"'],
    method: "post",
    body: "@body.json",
  });
  assert.ok(made.ok);
  assert.match(
    made.text,
    /^# tailgate run 'http:\/\/127\.0\.0\.1:8080\/orders\?limit=20' --rate 1k\/s/,
  );
  const { plan, issues } = parsePlanText(made.text.replace('{ file: "body.json" }', '"{}"'));
  assert.deepEqual(issues.filter((i) => i.severity === "error"), []);
  assert.equal(plan!.requests[0].method, "POST");
  assert.equal(plan!.requests[0].url, "http://127.0.0.1:8080/orders?limit=20");
  assert.deepEqual(plan!.requests[0].headers.map((h) => [h.name, h.value]), [
    ["Accept", "application/json"],
    ["X-Quote", 'it\'s "odd"'],
  ]);
  assert.deepEqual(plan!.load.stages.map((s) => [s.name, s.warmup, s.durationMs]), [
    ["warmup", true, 5_000],
    ["steady", false, 30_000],
  ]);
  assert.equal(plan!.load.connections, 64);
  assert.deepEqual(plan!.slos.map((s) => s.text), ["p99 < 10ms", "error_rate < 1%"]);
  assert.match(made.text, /body: \{ file: "body\.json" \}/);
});

Deno.test("adHocPlanText(): a missing rate or duration, a bad URL or header is named with the fix", () => {
  const bad = adHocPlanText({ url: "ftp://x", slos: [], headers: ["NoColon"] });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.errors, [
    "`ftp://x`: only http and https URLs are loaded",
    "an ad-hoc run needs --rate, e.g. --rate 1k/s",
    "an ad-hoc run needs --duration, e.g. --duration 30s",
    '-H `NoColon`: write a header as "Name: value"',
  ]);
});
