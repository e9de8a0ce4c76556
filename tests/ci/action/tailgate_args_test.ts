import assert from "node:assert/strict";
import { mergeArgs, reportFormats, runArgs } from "../../../ci/action/tailgate_args.ts";

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
