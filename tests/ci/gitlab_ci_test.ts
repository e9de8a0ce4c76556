import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { INPUT_DEFAULTS, inputVariable, readRunInputs } from "../../ci/action/action_inputs.ts";
import { REPORT_FILES } from "../../reporters/report_formats.ts";
import { asObject, readYamlObject, type YamlObject } from "../_helpers/yaml_value.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const pipeline = await readYamlObject(join(ROOT, "ci/examples/gitlab-ci.yml"));
/** GitLab's keywords that may stand at the top level beside jobs. */
const GLOBAL_KEYWORDS = new Set([
  "stages",
  "variables",
  "default",
  "include",
  "workflow",
  "image",
  "services",
  "cache",
]);
const template = asObject(pipeline[".tailgate"], ".tailgate");
const jobs = Object.entries(pipeline).filter(([name]) =>
  !GLOBAL_KEYWORDS.has(name) && !name.startsWith(".")
);

/** A job as GitLab sees it: its `extends` template deep-merged under it. */
function resolved(job: YamlObject): YamlObject {
  const merge = (base: YamlObject, over: YamlObject): YamlObject => {
    const out: YamlObject = { ...base };
    for (const [k, v] of Object.entries(over)) {
      const b = base[k];
      out[k] = b && typeof b === "object" && !Array.isArray(b) && v && typeof v === "object" &&
          !Array.isArray(v)
        ? merge(b, v)
        : v;
    }
    return out;
  };
  assert.equal(job.extends, ".tailgate");
  const { extends: _, ...own } = job;
  return merge(template, own);
}

Deno.test("the GitLab pipeline has a merge-request job and a default-branch job in a declared stage", () => {
  const stages = pipeline.stages as string[];
  assert.ok(Array.isArray(stages));
  assert.deepEqual(jobs.map(([name]) => name), [
    "tailgate:merge-request",
    "tailgate:default-branch",
  ]);
  for (const [name, job] of jobs) {
    const j = resolved(asObject(job, name));
    assert.ok(stages.includes(j.stage as string), `${name}: stage ${j.stage}`);
    assert.ok(Array.isArray(j.script) && j.script.length > 0, name);
    assert.equal(j.image, `denoland/deno:${INPUT_DEFAULTS["deno-version"]}`);
  }
  const rule = (name: string) => JSON.stringify(asObject(pipeline[name], name).rules);
  assert.match(rule("tailgate:merge-request"), /\$CI_PIPELINE_SOURCE == \\"merge_request_event\\"/);
  assert.match(rule("tailgate:default-branch"), /\$CI_COMMIT_BRANCH == \$CI_DEFAULT_BRANCH/);
});

Deno.test("the JUnit report and the artifacts are where the CI script writes them", () => {
  const vars = asObject(template.variables, "variables");
  const out = vars.TAILGATE_OUT as string;
  const artifacts = asObject(template.artifacts, "artifacts");
  assert.equal(artifacts.when, "always");
  assert.deepEqual(artifacts.paths, [`${out}/`]);
  assert.equal(asObject(artifacts.reports, "reports").junit, `${out}/*/${REPORT_FILES.junit}`);
  assert.equal(typeof artifacts.expose_as, "string");
  assert.ok((template.after_script as string[]).some((l) => l.includes(`cat ${out}/summary.md`)));
});

Deno.test("each GitLab job's TAILGATE_ variables are inputs the script accepts, updating on the default branch only", async () => {
  const known = new Set(
    Object.keys(INPUT_DEFAULTS).map((n) => inputVariable(n as keyof typeof INPUT_DEFAULTS)),
  );
  const mine = new Set(["TAILGATE_REPO", "TAILGATE_REF", "TAILGATE_NOTE_TOKEN"]);
  for (const [name, job] of jobs) {
    const j = resolved(asObject(job, name));
    const vars = asObject(j.variables, "variables") as Record<string, string>;
    for (const key of Object.keys(vars).filter((k) => k.startsWith("TAILGATE_"))) {
      assert.ok(known.has(key) || key === "TAILGATE_UPDATE_BASELINE", `${name}: ${key}`);
    }
    const read = readRunInputs(vars);
    assert.ok(read.ok, `${name}: ${JSON.stringify(read)}`);
    const update = name === "tailgate:default-branch";
    assert.equal(read.value.updateBaseline, update, name);
    const cache = asObject(j.cache, "cache");
    assert.deepEqual(cache.paths, [`${read.value.baselineDir}/`]);
    assert.equal(cache.policy, update ? "pull-push" : "pull");
    assert.ok((j.script as string[]).some((l) => l.includes("/ci/action/run_plans.ts")));
  }
  for (const key of Object.keys(asObject(pipeline.variables, "variables"))) {
    assert.ok(mine.has(key), key);
  }
  assert.ok((await Deno.stat(join(ROOT, "ci/action/run_plans.ts"))).isFile);
});
