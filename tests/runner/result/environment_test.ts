import assert from "node:assert/strict";
import { collectEnvironment, cpuModelFrom, detectCi } from "../../../runner/result/environment.ts";

const NO_CI = () => undefined;

Deno.test("collectEnvironment() fingerprints deno, cores and the git commit of the checkout", async () => {
  const env = await collectEnvironment({
    gitDir: new URL("../../../", import.meta.url).pathname,
    env: NO_CI,
  });
  assert.equal(env.denoVersion, Deno.version.deno);
  assert.equal(env.cores, navigator.hardwareConcurrency);
  assert.ok(env.cores >= 1);
  assert.notEqual(env.cpuModel, "");
  if (env.gitSha !== undefined) assert.match(env.gitSha, /^[0-9a-f]{40}$/);
});

Deno.test("collectEnvironment() leaves out the git commit outside a repository", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = await collectEnvironment({ gitDir: dir, env: NO_CI });
    assert.equal(env.gitSha, undefined);
    assert.equal(env.gitBranch, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cpuModelFrom() reads x86 and ARM cpuinfo layouts", () => {
  assert.equal(cpuModelFrom("processor\t: 0\nmodel name\t: AMD EPYC 7B13\n"), "AMD EPYC 7B13");
  assert.equal(cpuModelFrom("Hardware\t: BCM2835\n"), "BCM2835");
  assert.equal(cpuModelFrom("nothing here"), undefined);
});

Deno.test("detectCi() names GitHub Actions and GitLab, and nothing outside CI", () => {
  assert.equal(
    detectCi((n) => ({ GITHUB_ACTIONS: "true", CI: "true" } as Record<string, string>)[n]),
    "github-actions",
  );
  assert.equal(detectCi((n) => (n === "GITLAB_CI" ? "true" : undefined)), "gitlab-ci");
  assert.equal(detectCi(() => undefined), undefined);
});
