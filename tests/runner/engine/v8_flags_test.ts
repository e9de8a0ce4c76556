import assert from "node:assert/strict";
import {
  ENGINE_V8_FLAGS,
  YOUNG_GENERATION_MIN_MB,
  youngGenerationWarning,
} from "../../../runner/engine/v8_flags.ts";

const ROOT = new URL("../../../", import.meta.url);

async function youngGenerationIn(flags: string[]): Promise<number> {
  const code = `import { youngGenerationMb } from "${
    new URL("runner/engine/v8_flags.ts", ROOT).href
  }"; console.log(youngGenerationMb());`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", ...flags, code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return Number(new TextDecoder().decode(out.stdout).trim());
}

Deno.test("the engine's V8 flags give a young generation of 16 MB or more; V8's default does not", async () => {
  const withFlags = await youngGenerationIn([`--v8-flags=${ENGINE_V8_FLAGS}`]);
  const without = await youngGenerationIn([]);
  assert.ok(withFlags >= YOUNG_GENERATION_MIN_MB, `with the flags: ${withFlags} MB`);
  assert.ok(without < YOUNG_GENERATION_MIN_MB, `without: ${without} MB`);
  assert.match(youngGenerationWarning(without)!, /default young generation/);
  assert.equal(youngGenerationWarning(withFlags), undefined);
});

Deno.test("every way this repository starts a run passes the engine's V8 flags", async () => {
  const flag = `--v8-flags=${ENGINE_V8_FLAGS}`;
  const tasks = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).tasks;
  assert.ok(tasks.tailgate.includes(flag), "the tailgate task");
  assert.ok(tasks.demo.includes(flag), "the demo task");
  for (const file of ["README.md", "docs/cli.md"]) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    assert.ok(text.includes(`deno compile ${flag}`), `${file}: the compile line`);
  }
  const k8s = await Deno.readTextFile(new URL("ci/examples/k8s-indexed-job.yaml", ROOT));
  assert.ok(k8s.includes(flag), "the Kubernetes example");
  const action = await Deno.readTextFile(new URL("ci/action/run_tailgate.ts", ROOT));
  assert.ok(action.includes("`--v8-flags=${ENGINE_V8_FLAGS}`"), "the GitHub Action's runner");
});
