/**
 * Every doc example `deno test --doc` runs asserts what its comments claim: a ```ts block in JSDoc
 * holds an assertion (`assert`), or says in its fence why it cannot, as Deno std marks such blocks
 * (```ts no-assert: a type, a server start, a CLI call). An example that only prints or only
 * states its result in a comment passes whatever the code does.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, sourceFiles } from "./_helpers/source_files.ts";

/** A doc example's fence: ```ts, ```typescript, ```js, … and what follows on its line. */
const FENCE = /^\s*\*\s?```(ts|typescript|tsx|js|javascript|jsx)\b(.*)$/;
const FENCE_END = /^\s*\*\s?```\s*$/;

/** The lines (1-based) of the examples in `text` that neither assert nor are marked no-assert. */
function examplesWithoutAssertion(text: string): number[] {
  const lines = text.split("\n");
  const found: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i]);
    if (!fence) continue;
    let end = i + 1;
    while (end < lines.length && !FENCE_END.test(lines[end])) end++;
    const attributes = fence[2].split(/\s+/);
    const body = lines.slice(i + 1, end).join("\n");
    if (
      !attributes.includes("no-assert") && !attributes.includes("ignore") && !/\bassert/.test(body)
    ) {
      found.push(i + 1);
    }
    i = end;
  }
  return found;
}

/** The files and folders whose doc examples `deno task test` runs (after its `--doc`). */
async function docTestRoots(): Promise<string[]> {
  const tasks = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.json"))).tasks;
  const command = (tasks.test as string).split("&&").find((c) => c.includes("--doc"));
  assert.ok(command, "deno.json's test task runs the doc examples (deno test --doc)");
  return command.trim().split(/\s+/).slice(2).filter((word) => !word.startsWith("--"));
}

Deno.test("an example that asserts nothing is found; an asserting or no-assert one is not", () => {
  const text = [
    "/**",
    " * ```ts",
    ' * import { percentileX } from "./percentile_curve.ts";',
    " * percentileX(99); // 100",
    " * ```",
    " * ```ts",
    ' * import assert from "node:assert/strict";',
    " * assert.equal(1 + 1, 2);",
    " * ```",
    " * ```ts no-assert",
    " * await startServer();",
    " * ```",
    " * ```json",
    ' * { "a": 1 }',
    " * ```",
    " */",
  ].join("\n");
  assert.deepEqual(examplesWithoutAssertion(text), [2]);
});

Deno.test("every doc example asserts, or is marked no-assert", async () => {
  const roots = await docTestRoots();
  assert.ok(roots.includes("runner/") && roots.includes("reporters/"), roots.join(" "));
  const files: string[] = [];
  for (const root of roots) {
    const dir = root.replace(/\/$/, "");
    files.push(...(root.endsWith(".ts") ? [root] : await sourceFiles(dir)));
  }
  const bare: string[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(join(REPO_ROOT, file));
    bare.push(...examplesWithoutAssertion(text).map((line) => `${file}:${line}`));
  }
  assert.ok(files.length > 100, `${files.length} files read`);
  assert.deepEqual(
    bare,
    [],
    "these examples assert nothing: make them assert what their comments say (`assert.equal(" +
      "f(x), y)`), or mark the fence ```ts no-assert where an assertion makes no sense",
  );
});
