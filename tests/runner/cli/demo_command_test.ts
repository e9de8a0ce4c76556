import assert from "node:assert/strict";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import { buildResult } from "../../../runner/result/build_result.ts";
import { judge } from "../../../runner/api/mod.ts";
import { renderTerminal } from "../../../reporters/text/mod.ts";
import {
  DEMO_OPTIONS,
  DEMO_RERUN,
  demoRunOptions,
  parseDemoArgs,
} from "../../../runner/cli/demo_command.ts";
import { ENVIRONMENT, recordPlan, resultPlan } from "../../_helpers/result_fixtures.ts";

Deno.test("parseDemoArgs takes one output folder, positional or --out", () => {
  assert.deepEqual(parseDemoArgs([]), { ok: true, value: "tailgate-out/demo" });
  assert.deepEqual(parseDemoArgs(["x"]), { ok: true, value: "x" });
  assert.equal(parseDemoArgs(["x", "--out", "y"]).ok, false);
});

Deno.test("the demo's run records how to rerun its plan with settings of one's own", () => {
  const options = demoRunOptions("plan.yaml", "out", "http://127.0.0.1:1/");
  assert.equal(options.rerunWith, DEMO_RERUN);
  assert.match(DEMO_RERUN, /^tailgate run plans\/demo\.yaml$/);
});

Deno.test("a tool-limited demo's advice names only what `tailgate demo` takes, or `tailgate run`", async () => {
  // A demo on a busy machine: sends 40 ms late at p99 on a saturated core.
  const plan = resultPlan();
  const record = recordPlan(plan, { cpu: { userMs: 2_900, systemMs: 100 } }, {
    everyRequestAnswered: true,
  });
  const late = createHistogram();
  late.recordValueWithCount(100, 90);
  late.recordValueWithCount(40_000, 10);
  record.recorded.sendLag = toEncodedHistogram(late);
  const measured = buildResult(plan, record, ENVIRONMENT, undefined, {
    advice: { rerunWith: DEMO_RERUN },
  });
  const result = (await judge(measured)).result;
  const text = renderTerminal(result, { color: false });
  assert.match(text, /TOOL-LIMITED/);
  assert.match(text, /workers/, "advice about workers is given…");
  // …but only as `tailgate run`'s: outside its quotes, nothing `tailgate demo` does not take.
  const demoOwn = Object.keys(DEMO_OPTIONS).map((o) => `--${o}`);
  const outside = text.replaceAll(/`tailgate run [^`]*`/g, "");
  const flags = [...outside.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]);
  assert.deepEqual(flags.filter((f) => !demoOwn.includes(f)), [], text);
  for (const line of text.split("\n").filter((l) => /workers/.test(l))) {
    assert.match(line, /workers \(`load\.workers`, with `tailgate run plans\/demo\.yaml`/, line);
  }
});
