import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { INPUT_DEFAULTS } from "../../ci/action/action_inputs.ts";
import { REPORT_FILES } from "../../reporters/report_formats.ts";
import { TAILGATE_VERSION } from "../../runner/version.ts";
import { asObject, readYamlObject, type YamlObject } from "../_helpers/yaml_value.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ACTION = `your-org/tailgate@v${TAILGATE_VERSION}`;
/** The GitHub workflows among the examples. */
const GITHUB_EXAMPLES = [
  "github-pr-gate.yml",
  "github-nightly.yml",
  "github-sharded.yml",
  "github-pr-ab.yml",
];
const example = (file: string) => readYamlObject(join(ROOT, "ci/examples", file));
const jobsOf = (w: YamlObject) => asObject(w.jobs, "jobs");
const stepsOf = (job: YamlObject) =>
  (job.steps as YamlObject[]).map((s, i) => asObject(s, `step ${i}`));
const withOf = (step: YamlObject) => asObject(step.with, `${step.name ?? step.uses} with`);
const tailgateSteps = (job: YamlObject) =>
  stepsOf(job).filter((s) => /^your-org\/tailgate(\/[^@]*)?@/.test(String(s.uses ?? "")));

Deno.test("every example uses the action at this release's tag with inputs it declares", async () => {
  for (const file of GITHUB_EXAMPLES) {
    const w = await example(file);
    let uses = 0;
    for (const [name, job] of Object.entries(jobsOf(w))) {
      for (const step of tailgateSteps(asObject(job, name))) {
        uses++;
        assert.equal(step.uses, ACTION, `${file} ${name}`);
        for (const input of Object.keys(withOf(step))) {
          assert.ok(input in INPUT_DEFAULTS, `${file} ${name}: unknown input ${input}`);
        }
      }
    }
    assert.ok(uses > 0, file);
  }
  const gitlab = await readYamlObject(join(ROOT, "ci/examples/gitlab-ci.yml"));
  assert.equal(asObject(gitlab.variables, "variables").TAILGATE_REF, `v${TAILGATE_VERSION}`);
  const k8s = await Deno.readTextFile(join(ROOT, "ci/examples/k8s-indexed-job.yaml"));
  assert.equal(
    k8s.match(/--branch=v[\d.]+/g)?.every((b) => b === `--branch=v${TAILGATE_VERSION}`),
    true,
  );
});

Deno.test("the PR gate runs on pull requests and pushes to main with minimal permissions", async () => {
  const w = await example("github-pr-gate.yml");
  const on = asObject(w.on, "on");
  assert.ok("pull_request" in on);
  assert.deepEqual(asObject(on.push, "push").branches, ["main"]);
  assert.deepEqual(w.permissions, { contents: "read" });
  const job = asObject(jobsOf(w)["load-test"], "load-test");
  assert.deepEqual(job.permissions, {
    contents: "read",
    checks: "write",
    "pull-requests": "write",
  });
  const steps = stepsOf(job);
  const report = steps.find((s) => s.uses === "mikepenz/action-junit-report@v5")!;
  assert.equal(
    withOf(report).report_paths,
    `\${{ steps.tailgate.outputs.results-dir }}/*/${REPORT_FILES.junit}`,
  );
  // A fork's token cannot create the check run; the action's own annotations carry the gates.
  assert.match(String(report.if), /!github\.event\.pull_request\.head\.repo\.fork/);
  const comment = steps.find((s) => s.uses === "marocchino/sticky-pull-request-comment@v2")!;
  assert.equal(withOf(comment).path, "${{ steps.tailgate.outputs.summary-file }}");
  assert.match(String(comment.if), /github\.event_name == 'pull_request'/);
  assert.match(String(comment.if), /!github\.event\.pull_request\.head\.repo\.fork/);
  for (const s of [report, comment]) assert.match(String(s.if), /!cancelled\(\)/);
  assert.equal(tailgateSteps(job)[0].id, "tailgate");
});

Deno.test("the nightly run is scheduled and may push the history to its branch", async () => {
  const w = await example("github-nightly.yml");
  assert.ok(Array.isArray(asObject(w.on, "on").schedule));
  const job = asObject(jobsOf(w).nightly, "nightly");
  assert.equal(asObject(job.permissions, "permissions").contents, "write");
  const inputs = withOf(tailgateSteps(job)[0]);
  assert.equal(inputs.baseline, "branch");
  assert.equal(inputs["update-baseline"], "auto");
  assert.ok((job["timeout-minutes"] as number) > 30);
});

Deno.test("the nightly run finds change points after its update and says how Pages serves the page", async () => {
  const w = await example("github-nightly.yml");
  const inputs = withOf(tailgateSteps(asObject(jobsOf(w).nightly, "nightly"))[0]);
  assert.equal(inputs.history, "auto");
  assert.equal(
    inputs["history-fail"],
    "false",
    "a nightly reports a change, it is not failed for it",
  );
  assert.ok(Number(inputs["history-recent"]) >= 1);
  const text = await Deno.readTextFile(join(ROOT, "ci/examples/github-nightly.yml"));
  assert.match(text, /Pages .*Deploy from a branch/);
  assert.match(text, /branch `tailgate-baselines`, folder `\/docs`/);
});

Deno.test("the sharded run: matrix shards 0..N-1 of N at one start time, merged from their artifacts", async () => {
  const w = await example("github-sharded.yml");
  const jobs = jobsOf(w);
  const start = asObject(jobs.start, "start");
  assert.equal(
    asObject(start.outputs, "outputs")["start-at"],
    "${{ steps.time.outputs.start-at }}",
  );
  assert.match(String(stepsOf(start)[0].run), /date -u -d '\+\d+ minutes' \+%Y-%m-%dT%H:%M:%SZ/);

  const shard = asObject(jobs.shard, "shard");
  assert.equal(shard.needs, "start");
  const strategy = asObject(shard.strategy, "strategy");
  assert.equal(strategy["fail-fast"], false);
  const indexes = asObject(strategy.matrix, "matrix").shard as number[];
  const n = indexes.length;
  assert.deepEqual(indexes, [...Array(n).keys()]);
  const inputs = withOf(tailgateSteps(shard)[0]);
  assert.equal(inputs.shard, `\${{ matrix.shard }}/${n}`);
  assert.equal(inputs["start-at"], "${{ needs.start.outputs.start-at }}");
  assert.doesNotMatch(String(inputs.plans), /[*?[{]/, "one plan per sharded job");
  assert.equal(inputs.report, "json");
  const artifact = String(inputs["artifact-name"]);
  assert.equal(artifact, "tailgate-shard-${{ matrix.shard }}");

  const merge = asObject(jobs.merge, "merge");
  assert.equal(merge.needs, "shard");
  assert.equal(merge.if, "${{ !cancelled() }}");
  const download = withOf(stepsOf(merge).find((s) => s.uses === "actions/download-artifact@v4")!);
  assert.equal(download.pattern, artifact.replace("${{ matrix.shard }}", "*"));
  assert.equal(withOf(tailgateSteps(merge)[0]).merge, download.path);
});

Deno.test("the A/B example builds base and head on one runner and compares them with tailgate ab", async () => {
  const w = await example("github-pr-ab.yml");
  assert.ok("pull_request" in asObject(w.on, "on"));
  const job = asObject(jobsOf(w).ab, "ab");
  const steps = stepsOf(job);
  const checkouts = steps.filter((s) => s.uses === "actions/checkout@v4").map((s) => withOf(s));
  assert.deepEqual(checkouts.map((c) => c.path), ["head", "base"]);
  assert.equal(checkouts[1].ref, "${{ github.event.pull_request.base.sha }}");
  const [tailgate] = tailgateSteps(job);
  const inputs = withOf(tailgate);
  assert.notEqual(inputs["ab-base"], inputs["ab-head"], "two ports");
  assert.match(String(inputs["ab-base-start"]), /8081/);
  assert.match(String(inputs["ab-head-start"]), /8082/);
  const report = steps.find((s) => s.uses === "mikepenz/action-junit-report@v5")!;
  assert.equal(
    withOf(report).report_paths,
    "${{ steps.tailgate.outputs.results-dir }}/*/ab-junit.xml",
  );
});

Deno.test("every example's JUnit check leaves the annotating to tailgate's action", async () => {
  for (const file of GITHUB_EXAMPLES) {
    const w = await example(file);
    const reports = Object.entries(jobsOf(w)).flatMap(([name, job]) =>
      stepsOf(asObject(job, name)).filter((s) => String(s.uses).startsWith("mikepenz/"))
    );
    assert.ok(reports.length > 0, file);
    for (const r of reports) {
      // Both would annotate every failed gate: GitHub would show each twice.
      assert.equal(withOf(r).skip_annotations, true, file);
      assert.equal(withOf(r).annotate_only, undefined, file);
    }
  }
});

Deno.test("the loopback examples start the service through tailgate: no start-and-poll loop", async () => {
  for (const file of ["github-pr-gate.yml", "github-nightly.yml"]) {
    const w = await example(file);
    for (const [name, job] of Object.entries(jobsOf(w))) {
      for (const step of stepsOf(asObject(job, name))) {
        assert.doesNotMatch(String(step.run ?? ""), /curl|sleep|start-service/, `${file} ${name}`);
      }
      for (const step of tailgateSteps(asObject(job, name))) {
        assert.match(String(withOf(step).start), /start-service/, `${file} ${name}: start`);
        assert.match(String(withOf(step).ready), /^http:\/\/127\.0\.0\.1:\d+\//, `${file} ready`);
      }
    }
  }
});
