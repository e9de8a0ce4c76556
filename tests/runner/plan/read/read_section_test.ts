import assert from "node:assert/strict";
import { parseYaml } from "../../../../runner/plan/read/_yaml.ts";
import { PlanReader } from "../../../../runner/plan/read/plan_reader.ts";
import { readSection } from "../../../../runner/plan/read/read_section.ts";
import type { SectionName } from "../../../../runner/plan/read/plan_language.ts";

function read(yaml: string, name: SectionName, path: string) {
  const reader = new PlanReader("p.yaml");
  const section = readSection(reader, parseYaml(yaml).root!, path, name);
  const issues = () => reader.issues.map((i) => [i.path, i.message, i.hint ?? ""]);
  return { section: section!, issues };
}

Deno.test("readSection() gives the table's defaults for absent keys, parsed", () => {
  const { section, issues } = read("from: 1k/s\nmax: 8k/s\n", "search", "search");
  assert.equal(section.get("from"), 1000);
  assert.equal(section.get("step"), 10_000);
  assert.equal(section.get("precision"), 0.05);
  assert.deepEqual(issues(), []);
});

Deno.test("readSection() reports unknown keys with a guess and missing ones with the table's words", () => {
  const { issues } = read("form: 1k/s\n", "search", "search");
  assert.deepEqual(issues(), [
    ["search.form", "unknown key `form` in `search`", "did you mean `from`?"],
    ["search", "`search` needs `from`", "add e.g. `from: 1k/s`"],
    ["search", "`search` needs `max`", "add e.g. `max: 1k/s`"],
  ]);
  const data = read("order: random\n", "data_source", "data.users").issues();
  assert.deepEqual(data, [
    ["data.users", "data source `users` has no `file`", "add e.g. `file: data/users.csv`"],
  ]);
});

Deno.test("readSection() reads each kind with its bounds, and a wrong value is undefined", () => {
  const { section, issues } = read(
    "connections: 0\narrival: burst\nworkers: auto\nseed: 1.5\n",
    "load",
    "load",
  );
  assert.equal(section.get("connections"), undefined);
  assert.equal(section.value("connections"), 50);
  assert.equal(section.value("arrival"), "constant");
  assert.equal(section.get("workers"), "auto");
  assert.equal(section.get("seed"), undefined);
  assert.deepEqual(issues().map(([path, message]) => `${path}: ${message}`), [
    "load: `load` needs `stages`",
    "load.connections: `load.connections` must be at least 1, not 0",
    "load.arrival: unknown arrival `burst`",
    "load.seed: `load.seed` must be a whole number, not 1.5",
  ]);
});

Deno.test("readSection() checks a method and a positive duration", () => {
  const { section, issues } = read("method: get\ntimeout: 0s\n", "request", "requests[0]");
  assert.equal(section.get("method"), "get");
  assert.equal(section.get("timeout"), undefined);
  assert.deepEqual(issues().map(([, message, hint]) => `${message} / ${hint}`), [
    "`get` is not an HTTP method / write `GET`",
    "`requests[0].timeout` must be above zero / ",
  ]);
});
