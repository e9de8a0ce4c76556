/**
 * Keeps the npm dependencies as docs/ARCHITECTURE.md describes them: each is imported by exactly
 * one boundary file, by its full `npm:name@version` specifier (so `deno install -g` works without
 * the project's deno.json), locked by deno.lock. The runtime's packages are the ones deno.json
 * pins (and deno.runtime.lock locks, for the npm launcher); a test tool is imported only under
 * tests/ or bench/ and pinned in its boundary file alone, so no user fetches it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, sourceFiles } from "./_helpers/source_files.ts";

Deno.test("each npm package is imported by one file; the runtime's are deno.json's, test tools none of it", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.json")));
  const lock = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.lock")));
  const runtimeLock = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.runtime.lock")));
  const pins = config.imports as Record<string, string>;
  const files =
    (await Promise.all(["runner", "reporters", "ci", "tests", "bench"].map(sourceFiles)))
      .flat().concat(["cli.ts", "mod.ts"]);
  const importers = new Map<string, string[]>();
  for (const file of files) {
    const text = await Deno.readTextFile(join(REPO_ROOT, file));
    // Import statements and dynamic imports; never a name written in a comment or a string
    // (`side?: "from" | "to"` is no import).
    const statements =
      /^(?:import|export)\b[^;]*?[\s}*]from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm;
    const dynamic = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
    for (const m of [...text.matchAll(statements), ...text.matchAll(dynamic)]) {
      const specifier = m[1] ?? m[2];
      if (specifier.startsWith(".") || specifier.startsWith("node:")) continue;
      if (file === "tests/dependencies_test.ts") continue;
      // A subpath (`npm:csv-parse@7.0.3/sync`) counts as an import of its package.
      const pkg = /^npm:(?:@[^/]+\/)?[^/]+/.exec(specifier)?.[0] ?? specifier;
      importers.set(pkg, [...importers.get(pkg) ?? [], file]);
    }
  }
  const bare = [...importers.keys()].filter((s) => !s.startsWith("npm:"));
  assert.deepEqual(bare, [], "bare specifiers need deno.json's import map: write npm:name@version");
  const isTool = (file: string) => file.startsWith("tests/") || file.startsWith("bench/");
  for (const [pkg, files] of importers) {
    const users = [...new Set(files)];
    assert.equal(users.length, 1, `${pkg}: imported by ${users.join(", ")}`);
    assert.match(pkg, /^npm:(@[^/]+\/)?[^/@]+@\d+\.\d+\.\d+$/, "an exact version");
    assert.ok(lock.specifiers[pkg], `${pkg} is not in deno.lock`);
    if (isTool(users[0])) {
      assert.ok(!Object.values(pins).includes(pkg), `${pkg}, a test tool, is pinned by deno.json`);
      assert.ok(!runtimeLock.specifiers[pkg], `${pkg}, a test tool, is in deno.runtime.lock`);
    } else {
      assert.ok(Object.values(pins).includes(pkg), `${pkg}: deno.json does not pin it`);
      assert.ok(runtimeLock.specifiers[pkg], `${pkg} is not in deno.runtime.lock`);
    }
  }
  const unused = Object.values(pins).filter((p) => !importers.has(p));
  assert.deepEqual(unused, [], "deno.json pins a package no file imports");
});
