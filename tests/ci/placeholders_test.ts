import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const EXAMPLES = join(ROOT, "ci/examples");

/** The placeholders docs/ci.md's table names: the backticked values of its first column. */
async function documented(): Promise<string[]> {
  const doc = await Deno.readTextFile(join(ROOT, "docs/ci.md"));
  const section = doc.split("## The examples' placeholders")[1]?.split("\n## ")[0] ?? "";
  return section.split("\n")
    .filter((l) => l.startsWith("| `"))
    .flatMap((l) => [...l.split("|")[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

Deno.test("every placeholder of the examples is marked, and explained in docs/ci.md's one table", async () => {
  const tokens = await documented();
  assert.ok(tokens.length >= 8, `the table names ${tokens.length} placeholders`);
  const used = new Set<string>();
  for await (const entry of Deno.readDir(EXAMPLES)) {
    const text = await Deno.readTextFile(join(EXAMPLES, entry.name));
    assert.match(text, /docs\/ci\.md, "The examples' placeholders"/, entry.name);
    for (const [i, line] of text.split("\n").entries()) {
      if (line.trimStart().startsWith("#")) continue;
      const where = `${entry.name}:${i + 1}`;
      const found = tokens.filter((t) => line.includes(t));
      const marked = /\s# placeholder\b/.test(line);
      if (marked) assert.ok(found.length > 0, `${where} is marked but names no placeholder`);
      // A message that repeats a value (`echo "::error::… 8080/health"`) is not where it is set.
      if (found.length > 0 && !line.includes("::error::")) {
        assert.ok(marked, `${where} holds ${found.join(", ")} without \`# placeholder\``);
        found.forEach((t) => used.add(t));
      }
    }
  }
  assert.deepEqual(tokens.filter((t) => !used.has(t)), [], "placeholders no example holds");
});
