import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { INPUT_DEFAULTS, inputVariable } from "../../ci/action/action_inputs.ts";
import { publishOutcomes } from "../../ci/action/publish.ts";
import { REPORT_FORMATS } from "../../reporters/report_formats.ts";
import { asObject, readYamlObject, type YamlObject } from "../_helpers/yaml_value.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const action = await readYamlObject(join(ROOT, "action.yml"));
const inputs = asObject(action.inputs, "inputs");
const outputs = asObject(action.outputs, "outputs");
const steps = (asObject(action.runs, "runs").steps as YamlObject[]).map((s, i) =>
  asObject(s, `step ${i}`)
);
const docs = await Deno.readTextFile(join(ROOT, "docs/ci.md"));

/** The rows of the Markdown table under `## heading` in docs/ci.md: first cell to the rest. */
function docTable(heading: string): Map<string, string[]> {
  const section = docs.split(`\n## ${heading}\n`)[1].split("\n## ")[0];
  const rows = new Map<string, string[]>();
  for (const line of section.split("\n")) {
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    const name = /^`([a-z-]+)`$/.exec(cells[0] ?? "");
    if (name) rows.set(name[1], cells.slice(1));
  }
  return rows;
}

Deno.test("action.yml is a composite action whose inputs all have a description and the scripts' default", () => {
  assert.equal(asObject(action.runs, "runs").using, "composite");
  assert.deepEqual(Object.keys(inputs).sort(), Object.keys(INPUT_DEFAULTS).sort());
  for (const [name, spec] of Object.entries(inputs)) {
    const s = asObject(spec, name);
    assert.equal(typeof s.description, "string", name);
    assert.ok((s.description as string).length > 10, name);
    assert.equal(s.required, false, name);
    assert.equal(s.default, INPUT_DEFAULTS[name as keyof typeof INPUT_DEFAULTS], name);
  }
});

Deno.test("docs/ci.md documents every input with its default, and every output", () => {
  const table = docTable("Inputs");
  assert.deepEqual([...table.keys()].sort(), Object.keys(inputs).sort());
  for (const [name, [shown]] of table) {
    const value = INPUT_DEFAULTS[name as keyof typeof INPUT_DEFAULTS];
    assert.equal(shown, value === "" ? "(none)" : `\`${value}\``, name);
  }
  assert.deepEqual([...docTable("Outputs").keys()].sort(), Object.keys(outputs).sort());
});

Deno.test("every output is one the run step writes", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "tailgate-action-yml-" });
  try {
    const file = join(cwd, "github-output");
    await publishOutcomes([], {
      out: "out",
      cwd,
      failOn: "inconclusive",
      paths: { workspace: cwd, cwd },
      annotate: false,
      outputFile: file,
    }, () => {});
    const written = new Set(
      [...(await Deno.readTextFile(file)).matchAll(/^([\w-]+)<</gm)].map((m) => m[1]),
    );
    for (const [name, spec] of Object.entries(outputs)) {
      const s = asObject(spec, name);
      assert.equal(s.value, `\${{ steps.run.outputs.${name} }}`, name);
      assert.ok(written.has(name), `the run step writes no output ${name}`);
      assert.equal(typeof s.description, "string", name);
    }
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("action.yml pins actions by major version and runs scripts that exist, with the inputs' variables", async () => {
  const internal = new Set([
    "TAILGATE_DEFAULT_BRANCH",
    "TAILGATE_RESTORED_COMMIT",
    "TAILGATE_CACHE_RESTORED_KEY",
    "TAILGATE_HISTORY_DIR",
  ]);
  const variables = new Set(
    Object.keys(INPUT_DEFAULTS).map((n) => inputVariable(n as keyof typeof INPUT_DEFAULTS)),
  );
  for (const step of steps) {
    if (typeof step.uses === "string") assert.match(step.uses, /^[\w-]+\/[\w/-]+@v\d+$/, step.uses);
    else {
      assert.equal(step.shell, "bash", String(step.name));
      for (const m of String(step.run).matchAll(/"\$GITHUB_ACTION_PATH\/(action\/\w+\.ts)"/g)) {
        assert.ok((await Deno.stat(join(ROOT, "ci", m[1]))).isFile, m[1]);
      }
    }
    for (const name of Object.keys(step.env ? asObject(step.env, "env") : {})) {
      if (name.startsWith("TAILGATE_")) {
        assert.ok(variables.has(name) || internal.has(name), `${step.name}: unknown ${name}`);
      }
    }
  }
  assert.deepEqual(
    steps.filter((s) => typeof s.uses === "string").map((s) => s.uses),
    [
      "denoland/setup-deno@v2",
      "actions/cache/restore@v4",
      "actions/cache/save@v4",
      "actions/upload-artifact@v4",
    ],
  );
});

Deno.test("action.yml's defaults agree with the project: the Deno of .ci/run, every report format", async () => {
  const ciRun = await Deno.readTextFile(join(ROOT, ".ci/run"));
  assert.equal(INPUT_DEFAULTS["deno-version"], /DENO_VERSION="([^"]+)"/.exec(ciRun)?.[1]);
  assert.deepEqual(INPUT_DEFAULTS.report.split(","), [...REPORT_FORMATS]);
});

Deno.test("the run step cannot fail the job before the baselines are saved and the reports uploaded", () => {
  const names = steps.map((s) => s.name);
  const run = steps.find((s) => s.id === "run")!;
  assert.equal(run["continue-on-error"], true);
  const at = (name: string) => names.indexOf(name);
  assert.ok(at("Run the plans") < at("Save baselines (cache)"));
  assert.ok(at("Save baselines (git)") < at("Upload the reports"));
  const gate = steps.at(-1)!;
  assert.equal(gate.name, "Gate");
  assert.equal(gate.if, "${{ !cancelled() }}");
  assert.match(String(gate.run), /exit "\$JOB_EXIT_CODE"/);
  assert.equal(
    steps[at("Upload the reports")].if,
    "${{ !cancelled() && inputs.artifact-name != '' }}",
  );
});

Deno.test("a re-run job can upload its reports: upload-artifact@v4 refuses an existing name unless told to overwrite", () => {
  const upload = steps.find((s) => s.name === "Upload the reports")!;
  assert.equal(asObject(upload.with, "with").overwrite, true);
});
