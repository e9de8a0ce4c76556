import assert from "node:assert/strict";
import { join } from "node:path";
import { expandPlans, planPatterns, planSlugs } from "../../../ci/action/expand_plans.ts";

async function tree(files: string[]): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "tailgate-plans-" });
  for (const f of files) {
    await Deno.mkdir(join(path, f, ".."), { recursive: true });
    await Deno.writeTextFile(join(path, f), "name: x\n");
  }
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

Deno.test("planPatterns() takes one pattern per line and drops blanks and comments", () => {
  assert.deepEqual(planPatterns("  plans/*.yaml \n\n# later\n!plans/wip.yaml\r\n"), [
    "plans/*.yaml",
    "!plans/wip.yaml",
  ]);
});

Deno.test("expandPlans() matches ** across folders (none included), excludes !patterns and sorts", async () => {
  await using dir = await tree([
    "plans/b.yaml",
    "plans/a.yaml",
    "plans/api/orders.yaml",
    "plans/wip/draft.yaml",
    "plans/notes.md",
    "other/c.yaml",
  ]);
  assert.deepEqual(expandPlans(["plans/**/*.yaml", "!plans/wip/**"], dir.path), [
    "plans/a.yaml",
    "plans/api/orders.yaml",
    "plans/b.yaml",
  ]);
  assert.deepEqual(expandPlans(["other/*.yaml", "plans/a.yaml", "plans/*.yaml"], dir.path), [
    "other/c.yaml",
    "plans/a.yaml",
    "plans/b.yaml",
  ]);
  assert.deepEqual(expandPlans(["missing/*.yaml"], dir.path), []);
  assert.deepEqual(expandPlans(["!plans/a.yaml"], dir.path), []);
});

Deno.test("planSlugs() drops the shared folder and the extension and keeps the names distinct", () => {
  assert.deepEqual(planSlugs(["plans/a.yaml", "plans/api/Orders API.yaml"]), [
    "a",
    "api-orders-api",
  ]);
  assert.deepEqual(planSlugs(["plans/demo.yaml"]), ["demo"]);
  assert.deepEqual(planSlugs(["smoke.yml"]), ["smoke"]);
  // The Action copies histories to <out>/baselines/: no plan's folder may be that one.
  assert.deepEqual(planSlugs(["plans/baselines.yaml", "plans/a.yaml"]), ["baselines-2", "a"]);
  assert.deepEqual(planSlugs(["x/a-b.yaml", "x/a/b.yaml"]), ["a-b", "a-b-2"]);
});
