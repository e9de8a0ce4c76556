/**
 * The npm package, as a new user gets it: `npm pack`, the tarball installed into a temporary
 * prefix (its peer dependency `deno` from the registry or npm's cache), then `tailgate --version`,
 * `tailgate check` on a plan the package ships and a 2 s ad-hoc run against the built-in target,
 * all from a folder outside the repository. tests/install/ runs alone, after the unit tests: its
 * processes (npm, deno install) would load the machine under the timing-sensitive ones.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTarget } from "../../mod.ts";
import denoJson from "../../deno.json" with { type: "json" };

const ROOT = new URL("../../", import.meta.url).pathname;

async function sh(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const out = await new Deno.Command(cmd, { args, cwd, env, stdout: "piped", stderr: "piped" })
    .output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("the packed npm package installs and runs tailgate from outside the repository", async () => {
  const work = await Deno.makeTempDir({ prefix: "tailgate-npm-" });
  try {
    const packed = await sh("npm", ["pack", "--json", "--pack-destination", work], ROOT);
    assert.equal(packed.code, 0, packed.stderr);
    const [{ filename, files }] = JSON.parse(packed.stdout);
    const shipped = files.map((f: { path: string }) => f.path);
    for (const f of ["bin/tailgate.cjs", "cli.ts", "deno.json", "LICENSE", "plans/schema.json"]) {
      assert.ok(shipped.includes(f), `the package ships ${f}`);
    }
    assert.ok(!shipped.some((f: string) => f.startsWith("tests/")), "no tests in the package");
    const prefix = join(work, "prefix");
    const installed = await sh(
      "npm",
      ["install", "--global", "--prefix", prefix, "--no-audit", "--no-fund", join(work, filename)],
      work,
    );
    assert.equal(installed.code, 0, installed.stderr);
    const tailgate = join(prefix, "bin", "tailgate");
    // From a folder that is not the repository, with no deno on PATH.
    const env = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? work };
    // Deno's cache as the user's: only the npm packages tailgate reads land there, never a
    // second copy of the deno binary the npm package brought.
    const denoDir = join(work, "deno-dir");
    Object.assign(env, { DENO_DIR: denoDir });
    const version = await sh(tailgate, ["--version"], work, env);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, new RegExp(`^tailgate ${denoJson.version} \\(deno `));
    const plan = join(prefix, "lib", "node_modules", "tailgate", "plans", "examples", "smoke.yaml");
    const check = await sh(tailgate, ["check", plan], work, env);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /1 plan checked: 1 valid/);
    await using target = await startTarget({ mode: "hello", port: 0 });
    const out = join(work, "out");
    const run = await sh(
      tailgate,
      ["run", `${target.url}/`, "--rate", "50/s", "--duration", "2s", "--out", out],
      work,
      env,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const result = JSON.parse(await Deno.readTextFile(join(out, "result.json")));
    assert.equal(result.totals.counts.completed, 100);
    assert.ok((await Deno.stat(join(out, "report.html"))).isFile);
    const cached = [...Deno.readDirSync(join(denoDir, "npm", "registry.npmjs.org"))].map((e) =>
      e.name
    );
    assert.ok(cached.includes("yaml") && cached.includes("chart.js"), cached.join(", "));
    assert.ok(!cached.includes("deno") && !cached.includes("@deno"), cached.join(", "));
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
