import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gitIn } from "../_helpers/git_fixtures.ts";
import { asObject, readYamlObject } from "../_helpers/yaml_value.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WORKFLOWS = [
  "github-pr-gate.yml",
  "github-nightly.yml",
  "github-sharded.yml",
  "github-pr-ab.yml",
];

/**
 * actionlint (`go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.7`, which .ci/install-tools
 * runs): on PATH, or in Go's bin folder. Missing, the tests are skipped, unless
 * TAILGATE_REQUIRE_TOOLS=1 (CI), where a missing tool fails them.
 */
function findActionlint(): string | undefined {
  const dirs = (Deno.env.get("PATH") ?? "").split(":").filter((d) => d !== "");
  try {
    const gopath = new TextDecoder().decode(
      new Deno.Command("go", { args: ["env", "GOPATH"], stdout: "piped", stderr: "null" })
        .outputSync().stdout,
    ).trim();
    if (gopath) dirs.push(join(gopath, "bin"));
  } catch { /* no Go: PATH only */ }
  for (const dir of dirs) {
    try {
      if (Deno.statSync(join(dir, "actionlint")).isFile) return join(dir, "actionlint");
    } catch { /* not here */ }
  }
  return undefined;
}

const ACTIONLINT = findActionlint();
const REQUIRED = Deno.env.get("TAILGATE_REQUIRE_TOOLS") === "1";
const ignore = ACTIONLINT === undefined && !REQUIRED;

/** Runs actionlint on `files` in `cwd`; returns its exit code and its one-line findings. */
async function actionlint(
  cwd: string,
  files: string[],
): Promise<{ code: number; findings: string }> {
  if (ACTIONLINT === undefined) {
    throw new Error(
      "actionlint not found: go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.7",
    );
  }
  const out = await new Deno.Command(ACTIONLINT, {
    args: ["-no-color", "-oneline", ...files],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, findings: (dec.decode(out.stdout) + dec.decode(out.stderr)).trim() };
}

/**
 * A temporary git repository (actionlint resolves `uses: ./` from the repository's root) with
 * `.github/workflows/` and tailgate's `action.yml` at its root, as in tailgate's repository.
 */
async function project(workflows: Record<string, string>) {
  const path = await Deno.makeTempDir({ prefix: "tailgate-actionlint-" });
  await gitIn(path, ["init", "--quiet"]);
  await Deno.mkdir(join(path, ".github/workflows"), { recursive: true });
  await Deno.copyFile(join(ROOT, "action.yml"), join(path, "action.yml"));
  for (const [name, text] of Object.entries(workflows)) {
    await Deno.writeTextFile(join(path, ".github/workflows", name), text);
  }
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/**
 * action.yml's steps as a reusable workflow's job, its inputs as `workflow_call` inputs (the
 * same `inputs` context; `workflow_dispatch` allows fewer inputs). JSON is YAML.
 */
async function actionAsWorkflow(): Promise<string> {
  const action = await readYamlObject(join(ROOT, "action.yml"));
  const inputs = asObject(action.inputs, "inputs");
  const runs = asObject(action.runs, "runs");
  const callInputs = Object.fromEntries(
    Object.entries(inputs).map(([name, spec]) => {
      const s = asObject(spec, name);
      return [name, {
        description: s.description,
        required: false,
        default: s.default,
        type: "string",
      }];
    }),
  );
  return JSON.stringify(
    {
      name: "action.yml steps",
      on: { workflow_call: { inputs: callInputs } },
      permissions: { contents: "read" },
      jobs: { action: { "runs-on": "ubuntu-latest", steps: runs.steps } },
    },
    null,
    1,
  );
}

Deno.test({
  name: "actionlint finds nothing in the example GitHub workflows",
  ignore,
  fn: async () => {
    const { code, findings } = await actionlint(
      ROOT,
      WORKFLOWS.map((w) => join("ci/examples", w)),
    );
    assert.equal(findings, "");
    assert.equal(code, 0);
  },
});

Deno.test({
  name: "actionlint finds nothing in the repository's release workflow",
  ignore,
  fn: async () => {
    const { code, findings } = await actionlint(ROOT, [".github/workflows/release.yml"]);
    assert.equal(findings, "");
    assert.equal(code, 0);
  },
});

Deno.test({
  name: "actionlint finds nothing in the action's steps run as a workflow with its inputs",
  ignore,
  fn: async () => {
    await using dir = await project({ "action-steps.yml": await actionAsWorkflow() });
    const { code, findings } = await actionlint(dir.path, [".github/workflows/action-steps.yml"]);
    assert.equal(findings, "");
    assert.equal(code, 0);
  },
});

Deno.test({
  name:
    "actionlint checks a workflow's inputs against action.yml: every input passes, a misspelt one fails",
  ignore,
  fn: async () => {
    const action = await readYamlObject(join(ROOT, "action.yml"));
    const all = Object.keys(asObject(action.inputs, "inputs")).map((name) =>
      `          ${name}: x`
    );
    const workflow = (inputs: string[]) =>
      [
        "on: push",
        "jobs:",
        "  gate:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - id: tailgate",
        "        uses: ./",
        "        with:",
        ...inputs,
        "      - run: echo ${{ steps.tailgate.outputs.verdict }}",
        "",
      ].join("\n");
    await using dir = await project({
      "good.yml": workflow(all),
      "bad.yml": workflow(["          plan: plans/*.yaml"]),
    });
    const good = await actionlint(dir.path, [".github/workflows/good.yml"]);
    assert.equal(good.findings, "");
    const bad = await actionlint(dir.path, [".github/workflows/bad.yml"]);
    assert.equal(bad.code, 1);
    assert.match(bad.findings, /input "plan" is not defined in action "tailgate load-test gate"/);
  },
});
