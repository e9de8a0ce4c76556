import assert from "node:assert/strict";
import { join } from "node:path";
import { loadPlan } from "../../../runner/plan/load_plan.ts";

const BROKEN = new URL("../../testdata/plans/broken/", import.meta.url).pathname;

/** Each broken plan, with the one located error it must produce. */
const EXPECTED: Record<string, string> = {
  "binary.yaml": "1:1 the file is binary, not YAML",
  "comment_only.yaml": "1:1 the plan is empty",
  "duplicate_key.yaml": "2:1 this key appears twice in the same mapping",
  "empty.yaml": "1:1 the plan is empty",
  "negative_duration.yaml": "6:30 duration `-3s` is negative",
  "negative_rate.yaml": "6:15 rate `-5/s` must be above zero",
  "not_yaml.yaml": "1:7 this `[` is never closed",
  "ramp_without_over.yaml": "6:7 this ramp has no `over`",
  "slo_rate_without_stage.yaml": "8:5 no stage runs at 20k/s",
  "tab_indent.yaml": "2:1 Tabs are not allowed as indentation",
  "unknown_key.yaml": "6:9 unknown key `rate_limit` in `load.stages[0]`",
  "unknown_unit.yaml": "6:32 unknown unit `sec` in `60sec`",
  "unparsable_slo.yaml": "8:11 expected <, <=, > or >= but found `less`",
  "zero_duration.yaml": "6:30 `load.stages[0].duration` must be above zero",
  "zero_rate.yaml": "6:15 rate `0/s` must be above zero",
};

Deno.test("every broken plan in testdata gets exactly its located error", async () => {
  const files = [...Deno.readDirSync(BROKEN)].map((e) => e.name).sort();
  assert.deepEqual(files, Object.keys(EXPECTED).sort(), "a broken plan without an expectation");
  for (const name of files) {
    const { plan, issues } = await loadPlan(join(BROKEN, name), { requireEnv: true });
    assert.equal(plan, undefined, name);
    const got = issues.map((i) => `${i.line}:${i.col} ${i.message}`);
    assert.deepEqual(got, [EXPECTED[name]], name);
    assert.ok(issues.every((i) => i.file.endsWith(name)), name);
  }
});

Deno.test("a huge file is refused before it is parsed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "huge.yaml");
    await Deno.writeTextFile(file, "name: x\n" + "#".repeat(1024 * 1024 + 1));
    const { issues } = await loadPlan(file, { requireEnv: true });
    assert.equal(issues.length, 1);
    assert.match(issues[0].message, /at most 1048576/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a missing file or a folder is an issue, not an exception", async () => {
  const missing = await loadPlan("/nonexistent/plan.yaml", { requireEnv: true });
  assert.equal(missing.issues[0].message, "the plan file does not exist");
  const folder = await loadPlan(BROKEN, { requireEnv: true });
  assert.equal(folder.issues[0].message, "the plan file is a directory");
});

Deno.test("a non-UTF-8 file is refused with a fix", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "latin1.yaml");
    await Deno.writeFile(file, new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xe9, 0x0a]));
    const { issues } = await loadPlan(file, { requireEnv: true });
    assert.equal(issues[0].message, "the file is not UTF-8 text");
    assert.equal(issues[0].hint, "save the plan as UTF-8");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
