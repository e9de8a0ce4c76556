/**
 * Truth test for the search history's regression gate, end to end through the CLI: against the
 * capacity target (2 servers of 10 ms: exactly 200 requests a second), a history of 2k/s on this
 * machine makes the rate found a regression beyond doubt (exit 1), every report is written, and
 * the sound search joins the history. (Serial, with the target in its own process: a search on a
 * machine busy with parallel tests is the generator's limit, rightly inconclusive.)
 */
import assert from "node:assert/strict";
import { capture } from "../_helpers/cli_capture.ts";
import { main } from "../../cli.ts";
import { collectEnvironment } from "../../runner/result/environment.ts";
import { startTargetProcess } from "../_helpers/target_process.ts";

Deno.test("tailgate search judges the rate found against the plan's search history, exit 1 on a drop", async () => {
  // 2 servers of 10 ms: exactly 200 requests a second; the history says 2k/s on this machine.
  await using target = await startTargetProcess([
    ...["--mode", "capacity", "--servers", "2", "--delay", "10ms"],
  ]);
  const dir = await Deno.makeTempDir({ prefix: "tailgate-search-" });
  try {
    const planPath = `${dir}/plan.yaml`;
    await Deno.writeTextFile(
      planPath,
      `name: search-history
target: ${target.url}
requests: [{ path: / }]
load: { connections: 8, max_connections: 200, stages: [{ rate: 100/s, duration: 1s }] }
slo: [p90 < 40ms]
search: { from: 100/s, max: 1k/s, step: 1s, warmup: 0s, cooldown: 0s, soak: 0s, precision: 20% }
`,
    );
    const environment = await collectEnvironment();
    const entry = (ratePerSec: number) => ({
      date: "2026-11-20T10:00:00.000Z",
      status: "found",
      ratePerSec,
      failPerSec: ratePerSec * 1.1,
      environment,
    });
    const history = `${dir}/baselines/search-history.search.json`;
    await Deno.mkdir(`${dir}/baselines`);
    await Deno.writeTextFile(
      history,
      JSON.stringify({
        schema: "tailgate/search-history",
        version: 1,
        plan: "search-history",
        entries: [entry(2_000), entry(2_100), entry(1_950)],
      }),
    );
    const io = capture();
    const code = await main(
      [
        "search",
        planPath,
        "--out",
        `${dir}/out`,
        "--baseline",
        `${dir}/baselines`,
        "--update-baseline",
      ],
      io,
    );
    const result = JSON.parse(await Deno.readTextFile(`${dir}/out/search.json`));
    assert.equal(code, 1, io.out.join("\n"));
    assert.equal(result.verdict.status, "fail");
    assert.deepEqual(
      result.verdict.gates.map((g: { kind: string; status: string }) => [g.kind, g.status]),
      [
        ["regression", "fail"],
      ],
    );
    assert.match(
      io.out.join("\n"),
      /fail\s+sustainable rate vs baseline: regression: .* history median 2k\/s over 3 searches/,
    );
    for (const f of ["search.md", "search.html"]) await Deno.stat(`${dir}/out/${f}`);
    // The sound search was added to the history, after the three planted.
    const kept = JSON.parse(await Deno.readTextFile(history));
    assert.equal(kept.entries.length, 4);
    assert.ok(Math.abs(kept.entries[3].ratePerSec - 200) <= 60, JSON.stringify(kept.entries[3]));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
