import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { asObject, readYamlObject, type YamlObject } from "../../_helpers/yaml_value.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const stepsOf = (job: YamlObject) =>
  (job.steps as YamlObject[]).map((s, i) => asObject(s, `step ${i}`));
const runOf = (steps: YamlObject[]) => steps.map((s) => String(s.run ?? "")).join("\n");

Deno.test("a version tag runs the tests, then publishes with provenance and makes the release", async () => {
  const w = await readYamlObject(join(ROOT, ".github/workflows/release.yml"));
  const on = asObject(w.on, "on");
  assert.deepEqual(Object.keys(on), ["push"]);
  const tags = asObject(on.push, "push").tags as string[];
  assert.deepEqual(tags, ["v[0-9]+.[0-9]+.[0-9]+*"]);
  assert.deepEqual(w.permissions, { contents: "read" });
  const jobs = asObject(w.jobs, "jobs");
  const test = stepsOf(asObject(jobs.test, "test"));
  assert.match(runOf(test), /prepare_release\.ts --check/);
  assert.match(runOf(test), /bash \.ci\/run$/m);
  const release = asObject(jobs.release, "release");
  assert.equal(release.needs, "test");
  assert.deepEqual(release.permissions, { contents: "write", "id-token": "write" });
  const steps = runOf(stepsOf(release));
  assert.match(steps, /prepare_release\.ts --out dist/);
  assert.match(steps, /npm publish "\$\{TARBALL\}" --provenance --access public/);
  assert.match(
    steps,
    /gh release create "\$\{GITHUB_REF_NAME\}" "\$\{TARBALL\}" "\$\{CHECKSUMS\}"/,
  );
  assert.match(steps, /--notes-file "\$\{NOTES\}"/);
  // Deno's version is the one package.json pins, read, not written again here.
  const text = await Deno.readTextFile(join(ROOT, ".github/workflows/release.yml"));
  assert.doesNotMatch(text, /deno@\d/);
  assert.match(text, /deno@\$\(node -p 'require\("\.\/package\.json"\)\.peerDependencies\.deno'\)/);
});
