import assert from "node:assert/strict";
import { join } from "node:path";
import { historyCommand } from "../../../runner/cli/history_command.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import {
  HISTORY_FILE_SCHEMA,
  HISTORY_FILE_VERSION,
  historyPath,
} from "../../../runner/history/mod.ts";
import type { HistoryEntry, HistoryFile } from "../../../runner/history/history_types.ts";
import { historyText } from "../../../runner/history/history_text.ts";
import type { HistoryReport } from "../../../runner/model/history_result.ts";
import { mulberry32 } from "../../_helpers/seeded_random.ts";
import { commitOf, entryAt, stageAt } from "../../_helpers/history_fixtures.ts";
import { catchesSigterm, cpuMs, spawnCli, until } from "../../_helpers/cli_process.ts";

const PLAN = `name: shop
target: http://127.0.0.1:8080
requests: [{ path: / }]
load: { stages: [{ name: steady, rate: 100/s, duration: 10s }] }
slo: [p99 < 5ms]
`;

/** 60 runs at 2 ms ± 2%, the last `stepRuns` of them `stepBy` higher. */
function entries(stepRuns: number, stepBy: number, seed = 7): HistoryEntry[] {
  const random = mulberry32(seed);
  return Array.from({ length: 60 }, (_, i) => {
    const level = 2000 * (1 + (random() - 0.5) * 0.04) * (i >= 60 - stepRuns ? 1 + stepBy : 1);
    return entryAt(i, [stageAt(level, { name: "steady" })]);
  });
}

async function setUp(history: HistoryEntry[]) {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-history-" });
  const plan = join(dir, "shop.yaml");
  await Deno.writeTextFile(plan, PLAN);
  const baselines = join(dir, "baselines");
  await Deno.mkdir(baselines);
  const file: HistoryFile = {
    schema: HISTORY_FILE_SCHEMA,
    version: HISTORY_FILE_VERSION,
    plan: "shop",
    runs: [],
    history,
  };
  await Deno.writeTextFile(historyPath(baselines, "shop"), historyText(file));
  return { dir, plan, baselines, out: join(dir, "out") };
}

Deno.test("history names the commit where p99 rose, and fails it with --fail-recent", async () => {
  const t = await setUp(entries(20, 0.2));
  try {
    const outcome = await historyCommand([
      t.plan,
      ...["--baseline", t.baselines, "--out", t.out, "--fail-recent", "25"],
    ]);
    assert.equal(outcome.exitCode, EXIT_CODES.gateFailed, outcome.errors.join("\n"));
    const output = outcome.output!;
    const near = commitOf(40).slice(0, 7);
    const before = commitOf(39).slice(0, 7);
    assert.match(output, /^history of "shop" \(.*shop\.json\): 60 runs, from /);
    assert.ok(
      output.includes(`p99 of stage steady rose `) &&
        output.includes(`near commit ${near}, between ${before} and ${near}`),
      output,
    );
    assert.ok(!output.includes(commitOf(40)), "commits are shown by 7 characters");
    // No shuffle reaches a clear step: its p is the floor of the shuffles, said as a bound.
    assert.match(
      output,
      /p99 of stage steady rose [^\n]*; p ≤ 0\.00067 \(the permutation floor: none of 2999 shuffles reached it\)/,
    );
    assert.doesNotMatch(output, /p 0\.00067/);
    assert.match(output, /✗ FAIL: \d+ changes? for the worse within the newest 25 runs/);
    const report: HistoryReport = JSON.parse(await Deno.readTextFile(join(t.out, "history.json")));
    assert.equal(report.schema, "tailgate-history");
    assert.equal(report.verdict.status, "fail");
    const [plan] = report.plans;
    const p99 = plan.series.findIndex((s) => s.metric === "p99" && s.label === undefined);
    assert.deepEqual(plan.series[p99].bound, { value: 5000, slo: "p99 < 5ms" });
    const change = plan.changes.find((c) => c.series === p99)!;
    assert.equal(change.kind, "step");
    assert.ok(Math.abs(change.index - 40) <= 1, `found at run ${change.index}`);
    assert.equal(change.commit, commitOf(change.index));
    assert.ok(change.worse && change.recent);
    assert.ok(change.relativeChange > 0.15 && change.relativeChange < 0.25);
    assert.equal(change.pValue, 2 / 3000);
    assert.equal(change.pAtFloor, true, "history.json keeps the number and says it is the floor");
    assert.equal(change.shuffles, 2999);
    for (const name of ["history.md", "history.html"]) {
      assert.ok((await Deno.stat(join(t.out, name))).size > 0, name);
    }
  } finally {
    await Deno.remove(t.dir, { recursive: true });
  }
});

Deno.test("history reports a change beyond the newest runs and passes, and a calm one finds none", async () => {
  const t = await setUp(entries(40, 0.2));
  try {
    const old = await historyCommand([
      t.plan,
      ...["--baseline", t.baselines, "--out", t.out, "--fail-recent", "10"],
    ]);
    assert.equal(old.exitCode, EXIT_CODES.ok, old.errors.join("\n"));
    assert.match(old.output!, /▲ worse: p99 of stage steady rose/);
    assert.match(old.output!, /✓ PASS: no change for the worse within the newest 10 runs/);
  } finally {
    await Deno.remove(t.dir, { recursive: true });
  }
  const calm = await setUp(entries(0, 0));
  try {
    const outcome = await historyCommand([
      calm.plan,
      "--baseline",
      calm.baselines,
      "--out",
      calm.out,
    ]);
    assert.equal(outcome.exitCode, EXIT_CODES.ok, outcome.errors.join("\n"));
    assert.match(outcome.output!, /\n {2}no change found\n/);
    // Each series' own minimum, with why: these runs spread about 1% (±2% uniform noise).
    assert.match(
      outcome.output!,
      /\n {2}min change \d(\.\d)?% for p50 of stage steady: 3 robust SDs of its runs \(SD 0?\.?\d+(\.\d+)?%\)\n/,
    );
    assert.match(outcome.output!, /\n {2}min change \d(\.\d)?% for p99 of stage steady: /);
    assert.match(outcome.output!, /0 changes found \(0 for the worse\); report only/);
  } finally {
    await Deno.remove(calm.dir, { recursive: true });
  }
});

Deno.test("history with no stored history, or bad flags, exits 2 naming the fix", async () => {
  const t = await setUp([]);
  try {
    const none = await historyCommand([t.plan, "--baseline", t.baselines, "--out", t.out]);
    assert.equal(none.exitCode, EXIT_CODES.usage);
    assert.match(
      none.errors[0],
      /^no history of "shop" in .* yet: `tailgate run .*--update-baseline`/,
    );
    const flags = await historyCommand([
      t.plan,
      ...["--fail-recent=-1", "--p-value", "1", "--min-change=-5", "--window", "2"],
      ...["--last", "3", "--since", "a b"],
    ]);
    assert.equal(flags.exitCode, EXIT_CODES.usage);
    assert.deepEqual(flags.errors, [
      "--fail-recent `-1` is not a whole number of runs, at least 0",
      "--window `2` is not a whole number of runs, from 4 to 2,000",
      "--last `3` is not a whole number of runs, at least 6",
      "--since `a b` is not a commit, e.g. --since 9fceb02",
      "--p-value `1` is not a probability from 0.0001 to below 0.5, e.g. 0.001",
      "--min-change `-5` is not a percentage from 0% to below 1000%; give e.g. 5% or 5 (a bare " +
      "number is read as percent)",
    ]);
    const histories = await historyCommand([t.baselines]);
    assert.equal(histories.exitCode, EXIT_CODES.usage);
    assert.equal(
      histories.errors[0],
      `${t.baselines} holds histories, not plans: name the plans and the histories' folder, e.g. ` +
        `\`tailgate history plans/ --baseline ${t.baselines}\``,
    );
    const nothing = await historyCommand([]);
    assert.match(nothing.errors[0], /name a plan or a folder of plans/);
  } finally {
    await Deno.remove(t.dir, { recursive: true });
  }
});

Deno.test("history prints a stored stage name inert: control characters escaped", async () => {
  const random = mulberry32(3);
  const history = Array.from({ length: 60 }, (_, i) => {
    const level = 2000 * (1 + (random() - 0.5) * 0.04) * (i >= 40 ? 1.2 : 1);
    return entryAt(i, [stageAt(level, { name: "steady\u001b[2J\nx" })]);
  });
  const t = await setUp(history);
  try {
    const outcome = await historyCommand([t.plan, "--baseline", t.baselines, "--out", t.out]);
    assert.equal(outcome.exitCode, EXIT_CODES.ok, outcome.errors.join("\n"));
    const controls = [...outcome.output!].filter((c) => c < " " && c !== "\n");
    assert.deepEqual(controls, [], outcome.output);
    assert.match(outcome.output!, /p99 of stage steady\\u001b\[2J\\nx rose/);
  } finally {
    await Deno.remove(t.dir, { recursive: true });
  }
});

Deno.test("history --last N and --since COMMIT look at those runs only, and say so", async () => {
  // p99 up 20% at run 40 of 60: --last 15 and --since run 45 leave it out; --since run 30 keeps it.
  const t = await setUp(entries(20, 0.2));
  try {
    const args = [t.plan, "--baseline", t.baselines, "--out", t.out];
    const last = await historyCommand([...args, "--last", "15"]);
    assert.equal(last.exitCode, EXIT_CODES.ok, last.errors.join("\n"));
    assert.match(last.output!, /: 15 runs, from /);
    assert.match(last.output!, /\n {2}no change found\n/);
    assert.match(last.output!, /\n {2}note: the newest 15 of 60 stored runs \(--last 15\)\n/);
    const report: HistoryReport = JSON.parse(await Deno.readTextFile(join(t.out, "history.json")));
    assert.equal(report.settings.lastRuns, 15);
    assert.equal(report.plans[0].runs.length, 15);
    assert.equal(report.plans[0].runs[0].commit, commitOf(45));

    const since = await historyCommand([...args, "--since", commitOf(30).slice(0, 8)]);
    assert.equal(since.exitCode, EXIT_CODES.ok, since.errors.join("\n"));
    assert.match(since.output!, /: 30 runs, from /);
    const near = commitOf(40).slice(0, 7);
    assert.ok(since.output!.includes(`p99 of stage steady rose `), since.output);
    assert.ok(since.output!.includes(`near commit ${near}`), since.output);
    assert.match(
      since.output!,
      new RegExp(`note: 30 of 60 stored runs: from commit ${commitOf(30).slice(0, 7)} on`),
    );

    const missing = await historyCommand([...args, "--since", "deadbeef"]);
    assert.equal(missing.exitCode, EXIT_CODES.usage);
    assert.match(
      missing.errors[0],
      new RegExp(
        `^--since \`deadbeef\`: no stored run of "shop" measured a commit starting so; its 60 ` +
          `runs measured 60 commits, from ${commitOf(0).slice(0, 7)} to ` +
          `${commitOf(59).slice(0, 7)}; give one of them \\(the newest: ${
            commitOf(59).slice(0, 7)
          }, `,
      ),
    );
  } finally {
    await Deno.remove(t.dir, { recursive: true });
  }
});

Deno.test("history --min-change 1 is 1%, for every series, and says so", async () => {
  const t = await setUp(entries(0, 0));
  try {
    const outcome = await historyCommand([
      t.plan,
      ...["--baseline", t.baselines, "--out", t.out, "--min-change", "1"],
    ]);
    assert.equal(outcome.exitCode, EXIT_CODES.ok, outcome.errors.join("\n"));
    assert.match(outcome.output!, /\n {2}min change 1% for every series \(--min-change\)\n/);
    const report: HistoryReport = JSON.parse(await Deno.readTextFile(join(t.out, "history.json")));
    assert.equal(report.settings.minMagnitude, 0.01);
  } finally {
    await Deno.remove(t.dir, { recursive: true });
  }
});

Deno.test("history marks a change whose interval includes no change unclear, and fails nothing on it", async () => {
  // From run 60 every run is 3% slower than all but three before it, which spiked 1.6×: the
  // means on either side are alike, the shuffles still see the runs' order move.
  const wobble = [0, 0.003, -0.002, 0.001, -0.003, 0.002, -0.001, 0.0025, -0.0015, 0.0005];
  const history = Array.from({ length: 90 }, (_, i) => {
    const level = [10, 30, 50].includes(i) ? 1.6 : i >= 60 ? 1.03 : 1;
    return entryAt(i, [stageAt(2000 * level * (1 + wobble[i % 10]), { name: "steady" })]);
  });
  const t = await setUp(history);
  try {
    const outcome = await historyCommand([
      t.plan,
      ...["--baseline", t.baselines, "--out", t.out, "--min-change", "1", "--fail-recent", "40"],
    ]);
    assert.equal(outcome.exitCode, EXIT_CODES.ok, outcome.errors.join("\n"));
    assert.match(
      outcome.output!,
      /\n {2}◇ unclear \(recent\): p50 of stage steady changed by [+-]\d+(\.\d)?% \(95% interval -[\d.]+% to \+[\d.]+%, which includes no change\)/,
    );
    assert.doesNotMatch(outcome.output!, /▲ worse/);
    assert.match(
      outcome.output!,
      /✓ PASS: no change for the worse within the newest 40 runs \(\d+ changes? whose 95% interval includes no change: not counted\)/,
    );
  } finally {
    await Deno.remove(t.dir, { recursive: true });
  }
});

Deno.test("Ctrl-C or SIGTERM during a long history's analysis stops it: exit 3, no page written", async () => {
  // 20,000 runs at 40 levels, 10% higher for 500 runs in every 1000: a change every 500 runs.
  const random = mulberry32(11);
  const levels = Array.from(
    { length: 40 },
    (_, k) => stageAt(2000 * (1 + (k % 20 - 10) * 0.002) * (k >= 20 ? 1.1 : 1), { name: "steady" }),
  );
  const t = await setUp(Array.from({ length: 20_000 }, (_, i) => {
    const high = i % 1000 >= 500 ? 20 : 0;
    return entryAt(i, [levels[high + Math.floor(random() * 20)]]);
  }));
  try {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const out = join(t.dir, `out-${signal}`);
      const cli = spawnCli(["history", t.plan, "--baseline", t.baselines, "--out", out]);
      // Started and the history read in under 0.5 s of CPU; 1.5 s is well into the analysis,
      // which takes 8 s of CPU in all.
      await until(() => catchesSigterm(cli.child.pid), 20_000, "listening for signals");
      await until(() => cpuMs(cli.child.pid) >= 1500, 30_000, "analysing");
      const exited = await cli.stop(signal, 30_000);
      assert.equal(exited.code, EXIT_CODES.invalidRun, exited.stderr);
      assert.match(exited.stderr, /tailgate history: stopped .*no file was written/);
      for (const page of ["history.json", "history.md", "history.html"]) {
        await assert.rejects(Deno.stat(join(out, page)), Deno.errors.NotFound, page);
      }
    }
  } finally {
    await Deno.remove(t.dir, { recursive: true });
  }
});
