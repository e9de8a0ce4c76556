import assert from "node:assert/strict";
import { join } from "node:path";
import { loadPlan } from "../../../runner/plan/load_plan.ts";

const PLANS_DIR = new URL("../../../plans/", import.meta.url).pathname;

async function yamlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await yamlFiles(path));
    else if (/\.ya?ml$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

Deno.test("every plan shipped in plans/ is valid, with its secrets set", async () => {
  const files = await yamlFiles(PLANS_DIR);
  assert.ok(files.length >= 3, `expected the shipped plans, found ${files.length}`);
  for (const file of files) {
    const { plan, issues } = await loadPlan(file, {
      requireEnv: true,
      env: (name) => `test-value-of-${name}`,
    });
    assert.deepEqual(issues.filter((i) => i.severity === "error"), [], file);
    assert.ok(plan, file);
  }
});

Deno.test("plans/demo.yaml gates the steady stage of the stall demo", async () => {
  const { plan } = await loadPlan(join(PLANS_DIR, "demo.yaml"), { requireEnv: true });
  assert.ok(plan);
  assert.equal(plan.target, "http://127.0.0.1:8991");
  assert.deepEqual(plan.load.stages.map((s) => [s.kind, s.warmup]), [
    ["constant", true],
    ["ramp", false],
    ["constant", false],
  ]);
  assert.ok(plan.slos.some((s) => s.metric.kind === "percentile" && s.atRatePerSec === 1000));
});
