import assert from "node:assert/strict";
import { problemText } from "../../../runner/model/result.ts";
import { parseTargetArgs, runTargetCommand } from "../../../runner/cli/target_command.ts";

function errorsOf(args: string[]): string {
  const parsed = parseTargetArgs(args);
  assert.equal(parsed.ok, false, `expected errors for ${args.join(" ")}`);
  return parsed.ok ? "" : parsed.problems.map(problemText).join("\n");
}

Deno.test("parseTargetArgs reads the stall demo's flags into options in ms", () => {
  const parsed = parseTargetArgs([
    "--mode",
    "stall",
    "--stall",
    "2s",
    "--period=10s",
    "--port",
    "0",
  ]);
  assert.deepEqual(parsed, {
    ok: true,
    value: { mode: "stall", stallMs: 2000, periodMs: 10_000, port: 0 },
  });
});

Deno.test("parseTargetArgs defaults to hello mode", () => {
  assert.deepEqual(parseTargetArgs([]), { ok: true, value: { mode: "hello" } });
});

Deno.test("parseTargetArgs reads every duration unit, fractions and percentages", () => {
  const bimodal = parseTargetArgs([
    "--mode",
    "bimodal",
    "--delay",
    "250us",
    "--slow",
    "1m",
    "--frac",
    "10%",
  ]);
  assert.deepEqual(bimodal, {
    ok: true,
    value: { mode: "bimodal", delayMs: 0.25, slowMs: 60_000, frac: 0.1 },
  });
  const trend = parseTargetArgs(["--mode", "trend", "--growth", "2ms/s", "--delay", "500ms"]);
  assert.deepEqual(trend, {
    ok: true,
    value: { mode: "trend", growthMsPerSec: 2, delayMs: 500 },
  });
  const faults = parseTargetArgs([
    "--mode=faults",
    "--fault-frac",
    "0.05",
    "--faults",
    "500, reset",
    "--seed",
    "7",
  ]);
  assert.deepEqual(faults, {
    ok: true,
    value: { mode: "faults", faultFrac: 0.05, faultKinds: ["500", "reset"], seed: 7 },
  });
  const firstN = parseTargetArgs(["--mode", "first-n", "--n", "3", "--slow", "1s"]);
  assert.deepEqual(firstN, { ok: true, value: { mode: "first-n", firstN: 3, slowMs: 1000 } });
});

Deno.test("parseTargetArgs suggests the flag or mode that was meant", () => {
  const misspelt = errorsOf(["--mode", "stall", "--stal", "2s"]);
  assert.equal(misspelt, "unknown flag --stal: did you mean --stall?");
  assert.match(errorsOf(["--mode", "bimodl"]), /unknown --mode `bimodl`: did you mean bimodal\?/);
  assert.match(errorsOf(["--mode", "faults", "--faults", "rst"]), /unknown fault kind `rst`/);
});

Deno.test("parseTargetArgs names the fix for a duration without a unit", () => {
  assert.match(errorsOf(["--mode", "stall", "--stall", "2"]), /--stall `2`: .*no unit.*`2s`/);
});

Deno.test("parseTargetArgs refuses flags that the chosen mode does not use", () => {
  assert.match(
    errorsOf(["--mode", "hello", "--stall", "2s"]),
    /--stall does not apply to --mode hello/,
  );
  assert.match(
    errorsOf(["--mode", "fixed", "--seed", "1"]),
    /--seed does not apply to --mode fixed/,
  );
});

Deno.test("parseTargetArgs lists every bad value at once", () => {
  const errors = errorsOf([
    "--mode",
    "bimodal",
    "--port",
    "99999",
    "--frac",
    "1.5",
    "--delay",
    "-3ms",
    "stray",
    "--listen-any=yes",
    "--slow",
  ]);
  assert.match(errors, /--port `99999`: not a whole number in 0\.\.65535/);
  assert.match(errors, /--frac `1\.5`: not a fraction/);
  assert.match(errors, /--delay `-3ms`: .*negative/);
  assert.match(errors, /unexpected argument `stray`/);
  assert.match(errors, /--listen-any takes no value/);
  assert.match(errors, /--slow needs a value, e.g. --slow 20ms/);
});

Deno.test("parseTargetArgs checks the options together: stall must fit in its period", () => {
  assert.match(
    errorsOf(["--mode", "stall", "--stall", "10s", "--period", "2s"]),
    /shorter than period/,
  );
});

Deno.test("parseTargetArgs refuses a non-loopback --host unless --listen-any", () => {
  assert.match(errorsOf(["--host", "0.0.0.0"]), /non-loopback.*--listen-any/);
  assert.deepEqual(parseTargetArgs(["--host", "0.0.0.0", "--listen-any"]), {
    ok: true,
    value: { mode: "hello", hostname: "0.0.0.0", listenAny: true },
  });
});

Deno.test("parseTargetArgs reports --help", () => {
  assert.deepEqual(parseTargetArgs(["--mode", "stall", "-h"]), {
    ok: true,
    value: { mode: "hello" },
    help: true,
  });
});

Deno.test("runTargetCommand prints where the target listens and serves until aborted", async () => {
  const lines: string[] = [];
  const stop = new AbortController();
  const done = runTargetCommand(
    { mode: "stall", port: 0, stallMs: 200, periodMs: 1_000 },
    { stdout: (line) => lines.push(line) },
    stop.signal,
  );
  // Up to 10 s: the target starts a timing worker first (slow on a cold, loaded machine).
  for (let i = 0; i < 1000 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(lines.length, 1);
  const match =
    /^tailgate target: stall listening on (http:\/\/127\.0\.0\.1:\d+\/) \(stall 200ms every 1s\)$/
      .exec(lines[0]);
  assert.ok(match, lines[0]);
  const response = await fetch(match[1]);
  assert.equal(await response.text(), "hello\n");
  stop.abort();
  await done;
  await assert.rejects(() => fetch(match[1]), TypeError);
});
