import assert from "node:assert/strict";
import { join } from "node:path";
import { runPlansMain, type TailgateRunner } from "../../../../ci/action/run_plans.ts";
import { judge } from "../../../../runner/api/judge.ts";
import { renderMarkdown } from "../../../../reporters/text/markdown.ts";
import { gateResult, scaledUs } from "../../../_helpers/gate_fixtures.ts";
import { executedCommands } from "../../../_helpers/runner_commands.ts";
import type { PlanHistory } from "../../../../runner/model/history_result.ts";
import { commitOf, historyReport, planHistory } from "./_history_doc.ts";
import { workspace } from "../_github_workspace.ts";
import { startTargetProcess } from "../../../_helpers/target_process.ts";

/** A workspace with the plans `plans/<name>.yaml`, its job a push to main that updates. */
async function pushWorkspace(plans: string[]) {
  const ws = await workspace(
    Object.fromEntries(plans.map((p) => [`plans/${p}.yaml`, `name: ${p}\n`])),
  );
  return Object.assign(ws, {
    env: {
      ...ws.env,
      GITHUB_EVENT_NAME: "push",
      GITHUB_REF: "refs/heads/main",
      GITHUB_SERVER_URL: "https://github.com",
      GITHUB_REPOSITORY: "acme/shop",
      TAILGATE_PLANS: "plans/*.yaml",
      TAILGATE_UPDATE_BASELINE: "true",
    },
  });
}

/**
 * Stands in for the `tailgate` process: `run` writes a passing result of the plan and appends to
 * its history file (as `--update-baseline` does); `history` writes the history.json `histories`
 * gives for the plan. Every call is recorded.
 */
function tailgate(histories: Record<string, PlanHistory>, calls: string[][]): TailgateRunner {
  return async (args, cwd) => {
    calls.push([...args]);
    const outDir = join(cwd, args[args.indexOf("--out") + 1]);
    const plan = args[1].replace(/^plans\/|\.yaml$/g, "");
    await Deno.mkdir(outDir, { recursive: true });
    if (args[0] === "history") {
      const recent = Number(args[args.indexOf("--fail-recent") + 1]);
      const report = historyReport([histories[plan]], recent);
      await Deno.writeTextFile(join(outDir, "history.json"), JSON.stringify(report));
      return { code: report.verdict.status === "fail" ? 1 : 0, stderr: "" };
    }
    const measured = gateResult([{
      name: "main",
      ratePerSec: 100,
      durationMs: 10_000,
      labels: [{ label: "GET /", response: scaledUs(1_000, 1) }],
    }], { slos: ["p99 < 50ms"] });
    measured.plan.file = args[1];
    measured.plan.name = plan;
    const result = (await judge(measured)).result;
    await Deno.writeTextFile(join(outDir, "result.json"), JSON.stringify(result));
    await Deno.writeTextFile(join(outDir, "summary.md"), renderMarkdown(result));
    const baselineDir = join(cwd, args[args.indexOf("--baseline") + 1]);
    await Deno.mkdir(baselineDir, { recursive: true });
    await Deno.writeTextFile(
      join(baselineDir, `${plan}.json`),
      JSON.stringify({ schema: "tailgate/baseline", version: 1, plan, runs: [] }),
    );
    return { code: 0, stderr: "" };
  };
}

const shopSteppedUp = planHistory("shop", {
  runs: 30,
  startUs: 10_000,
  steps: [{ index: 27, levelUs: 11_500 }],
  recentRuns: 10,
});
const cartQuiet = planHistory("cart", { runs: 30, startUs: 8_000, steps: [], recentRuns: 10 });

Deno.test("after an update, the job runs tailgate history per plan and lists the new change with its commit links", async () => {
  await using ws = await pushWorkspace(["shop", "cart"]);
  const calls: string[][] = [];
  const code = await runPlansMain(ws.env, () => {}, {
    cwd: ws.path,
    run: tailgate({ shop: shopSteppedUp, cart: cartQuiet }, calls),
  });
  assert.equal(code, 0, "report only: a worse change does not fail the job by default");
  assert.deepEqual(calls.filter((c) => c[0] === "history"), [
    [
      "history",
      "plans/cart.yaml",
      "--baseline",
      ".tailgate/baselines",
      "--out",
      "tailgate-out/history/cart",
      "--fail-recent",
      "10",
    ],
    [
      "history",
      "plans/shop.yaml",
      "--baseline",
      ".tailgate/baselines",
      "--out",
      "tailgate-out/history/shop",
      "--fail-recent",
      "10",
    ],
  ]);
  const summary = await ws.summary();
  const history = summary.slice(summary.indexOf("## tailgate history"));
  assert.ok(summary.indexOf("## tailgate: pass") < summary.indexOf("## tailgate history"));
  assert.match(
    history,
    /### cart \(plans\/cart\.yaml\)\n\nNo new change point in the newest 10 runs\./,
  );
  const [c27, c26] = [commitOf(27), commitOf(26)];
  assert.ok(
    history.includes(
      `(commit [${c27.slice(0, 7)}](https://github.com/acme/shop/commit/${c27}), compare [${
        c26.slice(0, 7)
      }...${c27.slice(0, 7)}](https://github.com/acme/shop/compare/${c26}...${c27}))`,
    ),
    history,
  );
  assert.match(history, /- \*\*worse\*\*: p99 of stage main rose 15% /);
  // The comment-sized summary.md carries the section too.
  assert.ok(
    (await Deno.readTextFile(join(ws.path, "tailgate-out/summary.md"))).includes(history.trimEnd()),
  );
  const outputs = await ws.outputs();
  assert.equal(outputs["history-dir"], "tailgate-out/history");
  assert.equal(outputs["job-exit-code"], "0");
});

Deno.test("history-fail: true fails a passing job on a worse new change, and not on a quiet history", async () => {
  for (
    const [histories, expected] of [[{ shop: shopSteppedUp }, 1], [{ shop: cartQuiet }, 0]] as const
  ) {
    await using ws = await pushWorkspace(["shop"]);
    const printed: string[] = [];
    const code = await runPlansMain(
      { ...ws.env, TAILGATE_HISTORY_FAIL: "true" },
      (l) => printed.push(l),
      { cwd: ws.path, run: tailgate({ ...histories }, []) },
    );
    assert.equal(code, expected);
    assert.equal((await ws.outputs())["job-exit-code"], String(expected));
    assert.equal((await ws.outputs()).verdict, "pass", "the plans' verdict is the gates' own");
    if (expected === 1) assert.match(printed.at(-1)!, /history-fail: true/);
  }
});

Deno.test("history-fail: true does not fail a job on a new change whose interval includes no change", async () => {
  const unclear = structuredClone(shopSteppedUp);
  unclear.changes = unclear.changes.map((c) => ({
    ...c,
    direction: "unclear" as const,
    worse: false,
    interval95: [-0.04, 0.34] as [number, number],
    text: "p99 of stage main changed by +15% (95% interval -4% to +34%, which includes no change)",
  }));
  await using ws = await pushWorkspace(["shop"]);
  const code = await runPlansMain(
    { ...ws.env, TAILGATE_HISTORY_FAIL: "true" },
    () => {},
    { cwd: ws.path, run: tailgate({ shop: unclear }, []) },
  );
  assert.equal(code, 0);
  const summary = await ws.summary();
  assert.match(summary, /^- \*\*unclear\*\*: p99 of stage main changed by \+15% /m);
  assert.doesNotMatch(summary.slice(summary.indexOf("## tailgate history")), /\*\*worse\*\*/);
});

Deno.test("a read-only job (a pull request) runs no history unless history: true", async () => {
  await using ws = await pushWorkspace(["shop"]);
  const calls: string[][] = [];
  const env = { ...ws.env, GITHUB_EVENT_NAME: "pull_request", TAILGATE_UPDATE_BASELINE: "false" };
  await runPlansMain(env, () => {}, {
    cwd: ws.path,
    run: tailgate({ shop: shopSteppedUp }, calls),
  });
  assert.deepEqual(calls.map((c) => c[0]), ["run"]);
  assert.doesNotMatch(await ws.summary(), /tailgate history/);
  assert.equal((await ws.outputs())["history-dir"], "");
});

Deno.test("a history that does not finish is a warning, and the job keeps the gates' verdict", async () => {
  await using ws = await pushWorkspace(["shop"]);
  const runner = tailgate({ shop: shopSteppedUp }, []);
  const printed: string[] = [];
  const code = await runPlansMain(
    { ...ws.env, TAILGATE_HISTORY_FAIL: "true" },
    (l) => printed.push(l),
    {
      cwd: ws.path,
      run: (args, cwd) =>
        args[0] === "history" ? Promise.resolve({ code: 5, stderr: "" }) : runner(args, cwd),
    },
  );
  assert.equal(code, 0);
  const warnings = executedCommands(printed).filter((c) => c.command === "warning");
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0].data,
    /^plans\/shop\.yaml: tailgate history ended with exit 5: .*history\.json does not exist; see the job log$/,
  );
  assert.match(await ws.summary(), /### plans\/shop\.yaml\n\ntailgate history ended with exit 5/);
});

Deno.test("a cache restore that matched nothing: each history the run starts is a warning and a summary line", async () => {
  await using ws = await pushWorkspace(["shop", "cart"]);
  // cart's history was restored; shop's was not (the job's runs create it).
  await Deno.mkdir(join(ws.path, ".tailgate/baselines"), { recursive: true });
  await Deno.writeTextFile(join(ws.path, ".tailgate/baselines/cart.json"), "{}\n");
  const printed: string[] = [];
  await runPlansMain(
    {
      ...ws.env,
      TAILGATE_BASELINE: "cache",
      TAILGATE_CACHE_RESTORED_KEY: "",
      TAILGATE_HISTORY: "false",
    },
    (l) => printed.push(l),
    { cwd: ws.path, run: tailgate({}, []) },
  );
  const message = "no stored history for shop was restored (the cache expired or was evicted, " +
    "or none was saved yet): the history starts again here";
  assert.deepEqual(
    executedCommands(printed).filter((c) => c.command === "warning").map((
      c,
    ) => [c.properties.title, c.data]),
    [["tailgate history", message]],
  );
  assert.match(
    await ws.summary(),
    /## tailgate history\n\n⚠️ No stored history for shop was restored \(the cache expired or was evicted, or none was saved yet\): the history starts again here\.\n/,
  );
});

Deno.test("a cache restore that matched an entry: a plan new to it starts its history without a warning", async () => {
  await using ws = await pushWorkspace(["shop"]);
  const printed: string[] = [];
  await runPlansMain(
    {
      ...ws.env,
      TAILGATE_CACHE_RESTORED_KEY: "tailgate-baselines-Linux-X64-8-1",
      TAILGATE_HISTORY: "false",
    },
    (l) => printed.push(l),
    { cwd: ws.path, run: tailgate({}, []) },
  );
  assert.deepEqual(executedCommands(printed).filter((c) => c.command === "warning"), []);
  assert.match(
    await ws.summary(),
    /The history of shop starts here: the restored cache entry held none for it/,
  );
});

Deno.test("with another baseline mode, or no restore key passed (GitLab), nothing is said of a new history", async () => {
  for (const env of [{ TAILGATE_BASELINE: "branch", TAILGATE_CACHE_RESTORED_KEY: "" }, {}]) {
    await using ws = await pushWorkspace(["shop"]);
    const printed: string[] = [];
    await runPlansMain({ ...ws.env, ...env, TAILGATE_HISTORY: "false" }, (l) => printed.push(l), {
      cwd: ws.path,
      run: tailgate({}, []),
    });
    assert.deepEqual(executedCommands(printed).filter((c) => c.command === "warning"), []);
    assert.doesNotMatch(await ws.summary(), /tailgate history/);
  }
});

Deno.test("a plan with no stored run yet gets no tailgate history and no warning, only a line", async () => {
  await using ws = await pushWorkspace(["shop"]);
  const calls: string[][] = [];
  const runner = tailgate({ shop: shopSteppedUp }, calls);
  const printed: string[] = [];
  await runPlansMain(ws.env, (l) => printed.push(l), {
    cwd: ws.path,
    // The run was not stored (unsound): tailgate left no history file.
    run: async (args, cwd) => {
      const exit = await runner(args, cwd);
      if (args[0] === "run") await Deno.remove(join(cwd, ".tailgate/baselines/shop.json"));
      return exit;
    },
  });
  assert.deepEqual(calls.map((c) => c[0]), ["run"]);
  assert.deepEqual(executedCommands(printed).filter((c) => c.command === "warning"), []);
  assert.match(
    await ws.summary(),
    /## tailgate history\n\n### plans\/shop\.yaml\n\nNo stored run yet: a run is stored once it is sound/,
  );
});

const E2E_PLAN = `name: e2e shop
target: http://127.0.0.1:9
requests:
  - { name: GET /, path: / }
load:
  connections: 2
  stages:
    - { rate: 50/s, duration: 1s }
`;

// End to end with the real CLI: three pushes to main, each a real `tailgate run --update-baseline`
// against the built-in target and then the real `tailgate history` over what was stored. A run on
// a busy machine may be tool-limited and not stored: the test follows what the history file holds.
Deno.test("end to end: three updating jobs, then the real tailgate history in the summary and the artifact", async () => {
  await using target = await startTargetProcess(["--mode", "fixed", "--delay", "1ms"]);
  await using ws = await pushWorkspace([]);
  await Deno.mkdir(join(ws.path, "plans"));
  await Deno.writeTextFile(join(ws.path, "plans/shop.yaml"), E2E_PLAN);
  // The gates are not what this test is about: on a busy machine a regression check against the
  // first job's run may fail for real. The job stays green; the test asserts the plan ran.
  const env = {
    ...ws.env,
    TAILGATE_TARGET: target.url,
    TAILGATE_REPORT: "json",
    TAILGATE_FAIL_ON: "never",
  };
  const printed: string[] = [];
  for (const job of [1, 2, 3]) {
    printed.length = 0;
    await Deno.writeTextFile(env.GITHUB_STEP_SUMMARY, "");
    const code = await runPlansMain(
      // The first job's cache restore matched nothing; the later ones restored the workspace's.
      { ...env, TAILGATE_CACHE_RESTORED_KEY: job === 1 ? "" : `key-${job - 1}` },
      (l) => printed.push(l),
      { cwd: ws.path },
    );
    assert.equal(code, 0, printed.join("\n"));
    assert.notEqual((await ws.outputs()).verdict, "invalid", printed.join("\n"));
  }
  const stored = await Deno.readTextFile(join(ws.path, ".tailgate/baselines/e2e-shop.json"))
    .then(() => true, () => false);
  const summary = await ws.summary();
  if (!stored) {
    assert.match(summary, /No stored run yet/);
    return;
  }
  const report = JSON.parse(
    await Deno.readTextFile(join(ws.path, "tailgate-out/history/shop/history.json")),
  );
  assert.equal(report.schema, "tailgate-history");
  assert.equal(report.settings.failRecent, 10);
  assert.equal(report.plans[0].plan, "e2e shop");
  for (const file of ["history.html", "history.md"]) {
    assert.ok((await Deno.stat(join(ws.path, "tailgate-out/history/shop", file))).isFile, file);
  }
  const runs = report.plans[0].runs.length;
  assert.ok(runs >= 1 && runs <= 3, String(runs));
  // When only the last job's run was stored, its restored cache held no history for the plan, and
  // the summary says the history starts there: true only of a history of one run.
  const startsHere =
    /The history of e2e shop starts here: the restored cache entry held none for it/
      .test(summary);
  if (startsHere) assert.equal(runs, 1, summary);
  assert.match(
    summary,
    /## tailgate history\n\n(The history of e2e shop starts here: [^\n]+\n\n)?### e2e shop \(plans\/shop\.yaml\)\n\n/,
  );
  assert.match(summary, new RegExp(`${runs} runs? in the history`));
  assert.equal((await ws.outputs())["history-dir"], "tailgate-out/history");
  assert.ok(printed.includes("::group::tailgate history plans/shop.yaml"), printed.join("\n"));
});
