/**
 * The npm package, as a new user gets it (README, "Installing the command"): `npm pack`, the
 * tarball installed into an empty prefix by a user with an empty HOME and an empty Deno cache and
 * only Node on PATH (its peer dependency `deno` from the registry, through the machine's npm
 * cache), then `tailgate --version`, `--help`, `tailgate check` on a plan the package ships and a
 * 2 s ad-hoc run against the built-in target, from a folder outside the repository. The first use
 * fetches the runtime's npm packages into Deno's cache, exactly those deno.runtime.lock locks:
 * no test tool. tests/install/ runs alone, after the unit tests: its processes (npm, deno
 * install) would load the machine under the timing-sensitive ones.
 */
import assert from "node:assert/strict";
import { dirname, join, posix } from "node:path";
import { startTarget } from "../../mod.ts";
import denoJson from "../../deno.json" with { type: "json" };

const ROOT = new URL("../../", import.meta.url).pathname;
/** What reaches the registry on this machine (a proxy, its certificates): passed on as it is. */
const NETWORK_VARIABLES = [
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "DENO_CERT",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "no_proxy",
];

async function sh(cmd: string, args: string[], cwd: string, env?: Record<string, string>) {
  const out = await new Deno.Command(cmd, {
    args,
    cwd,
    ...(env ? { env, clearEnv: true } : {}),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** `name@version` of every npm package in a Deno cache's registry folder. */
function cachedPackages(registry: string): string[] {
  const found: string[] = [];
  const versions = (dir: string, name: string) => {
    for (const v of Deno.readDirSync(dir)) if (v.isDirectory) found.push(`${name}@${v.name}`);
  };
  for (const e of Deno.readDirSync(registry)) {
    if (!e.isDirectory) continue;
    if (!e.name.startsWith("@")) versions(join(registry, e.name), e.name);
    else {
      for (const s of Deno.readDirSync(join(registry, e.name))) {
        if (s.isDirectory) versions(join(registry, e.name, s.name), `${e.name}/${s.name}`);
      }
    }
  }
  return found.sort();
}

/** A PATH with Node and the system's tools, checked to hold no deno. */
async function nodeOnlyPath(): Promise<string> {
  const node = (await sh("sh", ["-c", "command -v node"], ROOT)).stdout.trim();
  const dirs = [...new Set([dirname(await Deno.realPath(node)), "/usr/bin", "/bin"])];
  for (const dir of dirs) {
    assert.ok(!(await Deno.stat(join(dir, "deno")).catch(() => null)), `deno in ${dir}`);
  }
  return dirs.join(":");
}

Deno.test("the packed npm package installs and runs with only Node, fetching the runtime's packages alone", async () => {
  const work = await Deno.makeTempDir({ prefix: "tailgate-npm-" });
  try {
    const packed = await sh("npm", ["pack", "--json", "--pack-destination", work], ROOT);
    assert.equal(packed.code, 0, packed.stderr);
    const [{ filename, files }] = JSON.parse(packed.stdout);
    const shipped = files.map((f: { path: string }) => f.path);
    for (
      const f of [
        "bin/tailgate.cjs",
        "cli.ts",
        "deno.json",
        "deno.runtime.lock",
        "docs/cli.md",
        "LICENSE",
        "plans/schema.json",
      ]
    ) {
      assert.ok(shipped.includes(f), `the package ships ${f}`);
    }
    assert.ok(!shipped.some((f: string) => f.startsWith("tests/")), "no tests in the package");
    // An image a shipped document shows is shipped beside it (the report's screenshot).
    for (const doc of shipped.filter((f: string) => f.startsWith("docs/") && f.endsWith(".md"))) {
      const text = await Deno.readTextFile(join(ROOT, doc));
      for (const [, target] of text.matchAll(/\]\(([^)\s#]+\.(?:png|svg|jpg|gif))\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const path = posix.normalize(posix.join(posix.dirname(doc), target));
        assert.ok(shipped.includes(path), `${doc} shows ${target}: the package ships ${path}`);
      }
    }
    assert.ok(!shipped.includes("deno.lock"), "not the lockfile of the tests' tools");

    const home = join(work, "home");
    await Deno.mkdir(home);
    const npmCache = (await sh("npm", ["config", "get", "cache"], ROOT)).stdout.trim();
    const denoDir = join(work, "deno-dir");
    const env: Record<string, string> = {
      PATH: await nodeOnlyPath(),
      HOME: home,
      DENO_DIR: denoDir,
      NO_COLOR: "1",
      // npm's download cache only (content-addressed): the deno package is not downloaded anew.
      npm_config_cache: npmCache,
    };
    for (const name of NETWORK_VARIABLES) {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }
    const install = (prefix: string, ...flags: string[]) =>
      sh(
        "npm",
        ["install", "--global", "--prefix", prefix, ...flags, join(work, filename)],
        work,
        env,
      );
    const prefix = join(work, "prefix");
    const installed = await install(prefix);
    assert.equal(installed.code, 0, installed.stderr);
    const tailgate = join(prefix, "bin", "tailgate");

    const version = await sh(tailgate, ["--version"], work, env);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, new RegExp(`^tailgate ${denoJson.version} \\(deno `));
    const packageDir = join(prefix, "lib", "node_modules", "tailgate");
    const help = await sh(tailgate, ["--help"], work, env);
    assert.equal(help.code, 0, help.stderr);
    assert.ok(help.stdout.replaceAll("\n", " ").includes(`in ${packageDir}/docs/`), help.stdout);
    const plan = join(packageDir, "plans", "examples", "smoke.yaml");
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

    // The first use fetched the runtime's packages, each at its locked version, and nothing
    // else: no test tool, no second copy of the deno binary the npm package brought.
    const runtimeLock = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.runtime.lock")));
    const locked = Object.keys(runtimeLock.npm).map((k) => k.replace(/_.*$/, "")).sort();
    assert.deepEqual(cachedPackages(join(denoDir, "npm", "registry.npmjs.org")), locked);

    // Without deno's postinstall script (the one npm warns about), the launcher finds the
    // binary itself.
    const bare = join(work, "prefix-no-scripts");
    const noScripts = await install(bare, "--ignore-scripts");
    assert.equal(noScripts.code, 0, noScripts.stderr);
    const again = await sh(join(bare, "bin", "tailgate"), ["--version"], work, env);
    assert.equal(again.code, 0, again.stderr);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
