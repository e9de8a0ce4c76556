/**
 * Keeps the npm dependencies as docs/ARCHITECTURE.md describes them: each is imported by exactly
 * one boundary file, by its full `npm:name@version` specifier (so `deno install -g` works without
 * the project's deno.json), at the version deno.json pins and deno.lock locks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, sourceFiles } from "./_helpers/source_files.ts";

Deno.test("each npm package is imported by one file, by the version deno.json pins and deno.lock locks", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.json")));
  const lock = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.lock")));
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
  for (const pinned of Object.values(pins)) {
    const users = [...new Set(importers.get(pinned) ?? [])];
    assert.equal(users.length, 1, `${pinned}: imported by ${users.join(", ") || "no file"}`);
    assert.ok(lock.specifiers[pinned], `${pinned} is not in deno.lock`);
  }
  const unpinned = [...importers.keys()].filter((s) => !Object.values(pins).includes(s));
  assert.deepEqual(unpinned, [], "an npm import deno.json does not pin");
});
