import { ENGINE_V8_FLAGS } from "../../runner/engine/v8_flags.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { INPUT_DEFAULTS } from "../../ci/action/action_inputs.ts";
import { parseShard } from "../../runner/cli/args/shard_args.ts";
import { REPORT_FILES } from "../../reporters/report_formats.ts";
import { asObject, yamlDocuments, type YamlObject } from "../_helpers/yaml_value.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const docs = yamlDocuments(await Deno.readTextFile(join(ROOT, "ci/examples/k8s-indexed-job.yaml")))
  .map((d, i) => asObject(d, `document ${i}`));
const jobs = docs.filter((d) => d.kind === "Job");
const name = (d: YamlObject) => asObject(d.metadata, "metadata").name;
const shardsJob = jobs.find((j) => name(j) === "tailgate-shards")!;
const mergeJob = jobs.find((j) => name(j) === "tailgate-merge")!;
const podOf = (job: YamlObject) =>
  asObject(asObject(asObject(job.spec, "spec").template, "template").spec, "pod");
const containersOf = (job: YamlObject) => podOf(job).containers as YamlObject[];

Deno.test("the shards are an Indexed batch/v1 Job with completions = parallelism = the N of --shard", () => {
  assert.equal(shardsJob.apiVersion, "batch/v1");
  const spec = asObject(shardsJob.spec, "spec");
  assert.equal(spec.completionMode, "Indexed");
  const n = spec.completions as number;
  assert.ok(Number.isInteger(n) && n > 1);
  assert.equal(spec.parallelism, n);
  assert.equal(spec.backoffLimit, 0);
  assert.equal(podOf(shardsJob).restartPolicy, "Never");
  const args = containersOf(shardsJob)[0].args as string[];
  const shard = args[args.indexOf("--shard") + 1];
  assert.equal(shard, `$(JOB_COMPLETION_INDEX)/${n}`);
  // Every index the Job controller hands out is a shard tailgate accepts, and no more.
  for (let i = 0; i < n; i++) {
    assert.deepEqual(parseShard(shard.replace("$(JOB_COMPLETION_INDEX)", String(i))), {
      ok: true,
      value: { index: i, count: n },
    });
  }
  assert.equal(parseShard(shard.replace("$(JOB_COMPLETION_INDEX)", String(n))).ok, false);
});

Deno.test("each shard reads its index and the common start time from its pod, as $(VAR) arguments", () => {
  const c = containersOf(shardsJob)[0];
  const env = new Map((c.env as YamlObject[]).map((e) => [e.name as string, e]));
  const field = (v: string) =>
    asObject(asObject(asObject(env.get(v), v).valueFrom, "valueFrom").fieldRef, "fieldRef")
      .fieldPath;
  assert.equal(
    field("JOB_COMPLETION_INDEX"),
    "metadata.annotations['batch.kubernetes.io/job-completion-index']",
  );
  assert.equal(field("START_AT"), "metadata.annotations['tailgate/start-at']");
  const annotations = asObject(
    asObject(asObject(asObject(shardsJob.spec, "spec").template, "t").metadata, "m").annotations,
    "annotations",
  );
  assert.equal(annotations["tailgate/start-at"], "__START_AT__");
  const args = c.args as string[];
  assert.equal(args[args.indexOf("--start-at") + 1], "$(START_AT)");
  assert.deepEqual(args.slice(0, 5), [
    "run",
    `--v8-flags=${ENGINE_V8_FLAGS}`,
    "--allow-all",
    "/tailgate/cli.ts",
    "run",
  ]);
  assert.equal(c.image, `denoland/deno:${INPUT_DEFAULTS["deno-version"]}`);
});

Deno.test("the merge Job reads every shard's result from the volume the shards write to", () => {
  const shard = containersOf(shardsJob)[0];
  const args = shard.args as string[];
  const out = args[args.indexOf("--out") + 1];
  assert.equal(out, "/results/shard-$(JOB_COMPLETION_INDEX)");
  const merge = containersOf(mergeJob)[0];
  const script = (merge.args as string[]).join(" ");
  assert.match(script, /\/tailgate\/cli\.ts merge \/results\/shard-\*\/result\.json /);
  assert.equal(
    `${out.replace("$(JOB_COMPLETION_INDEX)", "*")}/${REPORT_FILES.json}`,
    "/results/shard-*/result.json",
  );
  assert.match(script, /exit \$code$/);
  const claim = (job: YamlObject) =>
    (podOf(job).volumes as YamlObject[]).find((v) => v.name === "results")!.persistentVolumeClaim;
  assert.deepEqual(claim(shardsJob), claim(mergeJob));
  const pvc = docs.find((d) => d.kind === "PersistentVolumeClaim")!;
  assert.equal(asObject(claim(shardsJob), "claim").claimName, name(pvc));
  assert.deepEqual(asObject(pvc.spec, "spec").accessModes, ["ReadWriteMany"]);
  for (const c of [shard, merge]) {
    const mounts = c.volumeMounts as YamlObject[];
    assert.ok(mounts.some((m) => m.name === "results" && m.mountPath === "/results"));
  }
});

Deno.test("every object carries the tailgate/step label the documented kubectl apply -l selects", async () => {
  const steps = docs.map((d) =>
    asObject(asObject(d.metadata, "metadata").labels, "labels")["tailgate/step"]
  );
  assert.deepEqual(steps, ["shards", "shards", "merge"]);
  const text = await Deno.readTextFile(join(ROOT, "ci/examples/k8s-indexed-job.yaml"));
  assert.match(text, /kubectl apply -f - -l tailgate\/step=shards/);
  assert.match(
    text,
    /kubectl apply -f ci\/examples\/k8s-indexed-job\.yaml -l tailgate\/step=merge/,
  );
});
