import assert from "node:assert/strict";
import {
  abArgs,
  artifactsUrl,
  mergeArgs,
  reportFormats,
  runArgs,
} from "../../../ci/action/tailgate_args.ts";

Deno.test("reportFormats() always includes json and md first, without repeats", () => {
  assert.deepEqual(reportFormats("json,html,junit,md,hlog"), [
    "json",
    "md",
    "html",
    "junit",
    "hlog",
  ]);
  assert.deepEqual(reportFormats(" junit "), ["json", "md", "junit"]);
  assert.deepEqual(reportFormats(""), ["json", "md"]);
});

Deno.test("runArgs() passes the baseline, its update, the target and the shard timing", () => {
  const common = { outDir: "out/a", reports: ["json", "md"] };
  assert.deepEqual(
    runArgs({
      ...common,
      plan: "plans/a.yaml",
      baselineDir: ".b",
      updateBaseline: true,
      target: "http://127.0.0.1:1",
    }),
    [
      "plans/a.yaml",
      "--out",
      "out/a",
      "--report",
      "json,md",
      "--baseline",
      ".b",
      "--update-baseline",
      "--target",
      "http://127.0.0.1:1",
    ],
  );
  assert.deepEqual(
    runArgs({ ...common, plan: "p.yaml", updateBaseline: true }),
    ["p.yaml", "--out", "out/a", "--report", "json,md", "--no-baseline"],
  );
});

Deno.test("runArgs() never gives a shard a baseline: the merge judges the whole run", () => {
  assert.deepEqual(
    runArgs({
      outDir: "o",
      reports: ["json"],
      plan: "p.yaml",
      baselineDir: ".b",
      updateBaseline: true,
      shard: "1/4",
      startAt: "2026-11-22T10:00:00Z",
    }),
    [
      "p.yaml",
      "--out",
      "o",
      "--report",
      "json",
      "--no-baseline",
      "--shard",
      "1/4",
      "--start-at",
      "2026-11-22T10:00:00Z",
    ],
  );
});

Deno.test("mergeArgs() lists the shard results, then the output, reports and baseline", () => {
  assert.deepEqual(
    mergeArgs(["s0/a/result.json", "s1/a/result.json"], {
      outDir: "o/a",
      reports: ["json", "md", "junit"],
      baselineDir: ".b",
      updateBaseline: false,
    }),
    [
      "s0/a/result.json",
      "s1/a/result.json",
      "--out",
      "o/a",
      "--report",
      "json,md,junit",
      "--baseline",
      ".b",
    ],
  );
});

Deno.test("the summary links the CI run's artifacts: GitHub's run page or GitLab's browser", () => {
  const github = artifactsUrl({
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_REPOSITORY: "acme/shop",
    GITHUB_RUN_ID: "4242",
  });
  assert.equal(github, "https://github.com/acme/shop/actions/runs/4242");
  assert.equal(
    artifactsUrl({ CI_JOB_URL: "https://gitlab.example/acme/shop/-/jobs/9" }),
    "https://gitlab.example/acme/shop/-/jobs/9/artifacts/browse",
  );
  assert.equal(artifactsUrl({}), undefined);
  const args = runArgs({
    plan: "p.yaml",
    outDir: "out/p",
    reports: ["json"],
    updateBaseline: false,
    reportUrl: github,
  });
  assert.deepEqual(args.slice(args.indexOf("--report-url"), args.indexOf("--report-url") + 2), [
    "--report-url",
    "https://github.com/acme/shop/actions/runs/4242",
  ]);
  assert.ok(
    !runArgs({ plan: "p.yaml", outDir: "o", reports: [], updateBaseline: false })
      .includes("--report-url"),
  );
});

Deno.test("runArgs() passes the start command and its readiness URL (--start, --ready)", () => {
  const common = { outDir: "o", reports: ["json"], updateBaseline: false, plan: "p.yaml" };
  assert.deepEqual(
    runArgs({ ...common, start: "npm start", ready: "http://127.0.0.1:8080/health" }).slice(-4),
    ["--start", "npm start", "--ready", "http://127.0.0.1:8080/health"],
  );
  assert.ok(!runArgs({ ...common, ready: "http://127.0.0.1:8080/h" }).includes("--ready"));
});

Deno.test("abArgs() passes each side's start command and readiness URL", () => {
  assert.deepEqual(
    abArgs("plans/a.yaml", "out/a", {
      base: "http://127.0.0.1:9001",
      head: "http://127.0.0.1:9002",
      baseStart: "./serve 9001",
      headStart: "./serve 9002",
      headReady: "http://127.0.0.1:9002/health",
      rounds: 5,
    }),
    [
      "plans/a.yaml",
      ...["--base", "http://127.0.0.1:9001", "--head", "http://127.0.0.1:9002"],
      ...["--base-start", "./serve 9001", "--head-start", "./serve 9002"],
      ...["--head-ready", "http://127.0.0.1:9002/health"],
      ...["--rounds", "5", "--out", "out/a"],
    ],
  );
});

Deno.test("runArgs() and abArgs() pass --fail-fast or --no-fail-fast, or leave it to the plan", () => {
  const run = { outDir: "o", reports: ["json"], updateBaseline: false, plan: "p.yaml" };
  assert.ok(runArgs({ ...run, failFast: true }).includes("--fail-fast"));
  assert.ok(runArgs({ ...run, shard: "0/2", failFast: true }).includes("--fail-fast"));
  assert.ok(runArgs({ ...run, failFast: false }).includes("--no-fail-fast"));
  assert.ok(!runArgs(run).some((a) => a.includes("fail-fast")));
  const ab = { base: "http://127.0.0.1:1", head: "http://127.0.0.1:2", rounds: 5 };
  assert.deepEqual(abArgs("p.yaml", "o", { ...ab, failFast: true }), [
    "p.yaml",
    ...["--base", ab.base, "--head", ab.head, "--fail-fast", "--rounds", "5", "--out", "o"],
  ]);
  assert.ok(!abArgs("p.yaml", "o", ab).some((a) => a.includes("fail-fast")));
});

Deno.test("the job's fail-on reaches tailgate unless it is tailgate's own default or the job's never", () => {
  const common = { outDir: "o", reports: ["json"], plan: "p.yaml", updateBaseline: false };
  assert.deepEqual(runArgs({ ...common, failOn: "inconclusive" }).slice(-2), [
    "--fail-on",
    "inconclusive",
  ]);
  for (const failOn of ["inconclusive-sampling", "never"] as const) {
    assert.ok(!runArgs({ ...common, failOn }).includes("--fail-on"), failOn);
  }
  const ab = { base: "http://127.0.0.1:1", head: "http://127.0.0.1:2", rounds: 5 };
  assert.deepEqual(abArgs("p.yaml", "o", { ...ab, failOn: "inconclusive-slo" }).slice(-2), [
    "--fail-on",
    "inconclusive-slo",
  ]);
  assert.ok(!abArgs("p.yaml", "o", ab).includes("--fail-on"));
});

Deno.test("the job's junit-inconclusive reaches run, merge and ab unless it is the default auto", () => {
  const common = { outDir: "o", reports: ["json"], updateBaseline: false };
  const tail = (args: string[]) => args.slice(args.indexOf("--junit-inconclusive"));
  assert.deepEqual(
    tail(runArgs({ ...common, plan: "p.yaml", junitInconclusive: "failure" })),
    ["--junit-inconclusive", "failure"],
  );
  assert.deepEqual(tail(mergeArgs(["a.json"], { ...common, junitInconclusive: "skipped" })), [
    "--junit-inconclusive",
    "skipped",
  ]);
  const ab = { base: "http://127.0.0.1:1", head: "http://127.0.0.1:2", rounds: 5 };
  assert.deepEqual(tail(abArgs("p.yaml", "o", { ...ab, junitInconclusive: "failure" })), [
    "--junit-inconclusive",
    "failure",
  ]);
  assert.ok(
    !runArgs({ ...common, plan: "p.yaml", junitInconclusive: "auto" }).includes(
      "--junit-inconclusive",
    ),
  );
  assert.ok(!abArgs("p.yaml", "o", ab).includes("--junit-inconclusive"));
});

Deno.test("runArgs() passes a shard's seed as --seed", () => {
  const args = runArgs({
    outDir: "o",
    reports: ["json"],
    updateBaseline: false,
    plan: "p.yaml",
    shard: "0/2",
    seed: 42,
  });
  assert.deepEqual(args.slice(args.indexOf("--shard")), ["--shard", "0/2", "--seed", "42"]);
});
