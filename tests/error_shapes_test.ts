/**
 * Keeps one shape of an expected failure (docs/ARCHITECTURE.md, "Errors"): `Result<T>` of
 * runner/model/result.ts. A source file that spells its own `{ ok: true; … } | { ok: false; … }`
 * type fails here, naming the file and line, so the next function reuses `Result<T>` instead.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, sourceFiles } from "./_helpers/source_files.ts";

/** Where `Result<T>` is defined: the one file that may spell the union. */
const DEFINITION = "runner/model/result.ts";

/**
 * Files that still spell their own union, each with why: none. An entry whose file no longer does
 * fails too, so converting a file removes its entry.
 */
const NOT_YET: Record<string, string> = {};

/**
 * The lines of `source` that declare an ad-hoc success-or-failure type: a type literal with an
 * `ok: true;` or `ok: false;` member (an object value writes `ok: true,` and is not one).
 */
export function adHocShapes(source: string): number[] {
  const lines: number[] = [];
  source.split("\n").forEach((line, i) => {
    if (/\bok\s*:\s*(true|false)\s*;/.test(line)) lines.push(i + 1);
  });
  return lines;
}

Deno.test("adHocShapes() finds a hand-made success-or-failure type, in one line or several", () => {
  assert.deepEqual(
    adHocShapes(
      "export function parse(t: string): { ok: true; n: number } | { ok: false; error: string } {",
    ),
    [1],
  );
  assert.deepEqual(
    adHocShapes(
      "type Read = { ok: true; table: Table } | {\n  ok: false;\n  problem: string;\n};",
    ),
    [1, 2],
  );
  assert.deepEqual(adHocShapes("interface Made {\n  ok: true;\n  text: string;\n}"), [2]);
});

Deno.test("adHocShapes() lets Result<T> and object values be", () => {
  const fine = [
    'import { err, ok, type Result } from "../model/result.ts";',
    "export function parse(t: string): Result<number> {",
    "  if (t === '') return err(problem('empty'));",
    "  return { ok: true, value: Number(t) };",
    "}",
    "const shown = { ok: false, problems: [] };",
    "const step = { ok: true };",
  ].join("\n");
  assert.deepEqual(adHocShapes(fine), []);
});

Deno.test("no source file spells its own success-or-failure type: Result<T> is the one", async () => {
  const files = [
    ...(await Promise.all(["runner", "reporters", "ci"].map(sourceFiles))).flat(),
    "cli.ts",
    "mod.ts",
  ].sort();
  const found = new Map<string, number[]>();
  for (const file of files) {
    if (file === DEFINITION) continue;
    const lines = adHocShapes(await Deno.readTextFile(join(REPO_ROOT, file)));
    if (lines.length) found.set(file, lines);
  }
  const fresh = [...found].filter(([file]) => !(file in NOT_YET))
    .map(([file, lines]) => `${file}:${lines.join(",")}`);
  assert.deepEqual(fresh, [], "return Result<T> (runner/model/result.ts) instead");
  const stale = Object.keys(NOT_YET).filter((file) => !found.has(file));
  assert.deepEqual(stale, [], "these files use Result<T> now: take them off NOT_YET");
});
