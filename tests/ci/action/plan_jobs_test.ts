import assert from "node:assert/strict";
import { join } from "node:path";
import { readRunInputs } from "../../../ci/action/action_inputs.ts";
import { claimJobDirs, planJobs } from "../../../ci/action/plan_jobs.ts";
import { claimOutDir } from "../../../runner/api/out_dir.ts";

Deno.test("planJobs() gives each plan its folder and refuses file names with control characters", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-jobs-" });
  try {
    await Deno.mkdir(join(dir, "plans/api"), { recursive: true });
    for (const f of ["plans/a.yaml", "plans/api/orders.yaml"]) {
      await Deno.writeTextFile(join(dir, f), "name: x\n");
    }
    const read = readRunInputs({ TAILGATE_PLANS: "plans/**/*.yaml", TAILGATE_BASELINE: "none" });
    assert.ok(read.ok);
    const jobs = planJobs(read.value, dir);
    assert.ok(typeof jobs !== "string", String(jobs));
    assert.deepEqual(jobs.map((j) => [j.plan, j.dir, j.args[0]]), [
      ["plans/a.yaml", "tailgate-out/a", "run"],
      ["plans/api/orders.yaml", "tailgate-out/api-orders", "run"],
    ]);
    await Deno.writeTextFile(join(dir, "plans/b\u2028::error::x\t.yaml"), "name: b\n");
    assert.equal(
      planJobs(read.value, dir),
      "plan file names with a control character or line break: `plans/b\\u2028::error::x\\t.yaml`; " +
        "rename them (printed in the log, such a name could pass for a workflow command)",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("claimJobDirs() clears no plan's folder when another one is not tailgate's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-jobs-" });
  try {
    const job = (plan: string) => ({ plan: `plans/${plan}.yaml`, dir: `out/${plan}`, args: [] });
    await claimOutDir(join(dir, "out"), { clear: false });
    await claimOutDir(join(dir, "out/a"), { clear: true });
    await Deno.writeTextFile(join(dir, "out/a/result.json"), "{}");
    await Deno.mkdir(join(dir, "out/b"));
    await Deno.writeTextFile(join(dir, "out/b/notes.md"), "keep me\n");
    const problems = await claimJobDirs([job("a"), job("b"), job("c")], dir);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /^out: `out\/b` \(for plans\/b\.yaml\) holds files tailgate did not/);
    assert.ok((await Deno.stat(join(dir, "out/a/result.json"))).isFile, "a is not cleared");
    await Deno.remove(join(dir, "out/b/notes.md"));
    assert.deepEqual(await claimJobDirs([job("a"), job("b"), job("c")], dir), []);
    await assert.rejects(Deno.stat(join(dir, "out/a/result.json")), Deno.errors.NotFound);
    assert.ok((await Deno.stat(join(dir, "out/c/.tailgate-out"))).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
