/**
 * Keeps `deno task test:fast` (the edit loop) a true part of `deno task test` (everything, as CI
 * runs it): the fast set is the unit tests less the slow set its `--ignore` lists (end-to-end files
 * that take a second or more, the install and the truth tests), so a test file is in
 * one set or the other, never both or neither, and the doc examples run in both. A slow file moved
 * or renamed must move in the list too: an entry that names no test file fails here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./_helpers/source_files.ts";

/** One `deno test` command of a task: its options and the paths it tests. */
interface TestCommand {
  doc: boolean;
  ignore: string[];
  paths: string[];
}

function testCommands(task: string): TestCommand[] {
  return task.split("&&").map((command) => {
    const words = command.trim().split(/\s+/);
    assert.deepEqual(words.slice(0, 2), ["deno", "test"], command);
    const ignore = words.find((w) => w.startsWith("--ignore="))?.slice("--ignore=".length);
    return {
      doc: words.includes("--doc"),
      ignore: ignore ? ignore.split(",") : [],
      paths: words.slice(2).filter((w) => !w.startsWith("--")),
    };
  });
}

async function tasks(): Promise<Record<string, string>> {
  return JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "deno.json"))).tasks;
}

Deno.test("test:fast runs the unit tests less the slow set, and every doc example", async () => {
  const { test, "test:fast": fast } = await tasks();
  const all = testCommands(test);
  const [units, docs, ...rest] = testCommands(fast);
  assert.deepEqual(rest, [], "test:fast is one unit command and one doc command");
  const allUnits = all.find((c) => !c.doc && c.ignore.length > 0);
  assert.ok(allUnits, "deno task test has a unit command with --ignore");
  assert.deepEqual(units.paths, allUnits.paths, "the same roots as deno task test");
  for (const ignored of allUnits.ignore) {
    assert.ok(units.ignore.includes(ignored), `${ignored} is left out of test:fast too`);
  }
  assert.ok(docs.doc, "the doc examples run in test:fast");
  assert.deepEqual(docs.paths, all.find((c) => c.doc)?.paths, "every doc example, as in test");
});

Deno.test("every entry of the slow set names a test file or folder that exists", async () => {
  const [units] = testCommands((await tasks())["test:fast"]);
  assert.ok(units.ignore.length > 2, "the slow set lists end-to-end files");
  assert.equal(new Set(units.ignore).size, units.ignore.length, "each slow entry once");
  for (const entry of units.ignore) {
    assert.ok(entry.startsWith("tests/"), `${entry} is under tests/`);
    const info = await Deno.stat(join(REPO_ROOT, entry)).catch(() => undefined);
    assert.ok(info, `${entry}, in test:fast's --ignore (the slow set), no longer exists`);
    assert.ok(info.isDirectory || entry.endsWith("_test.ts"), `${entry} is a test file`);
  }
});
