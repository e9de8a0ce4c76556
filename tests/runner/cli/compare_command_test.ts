import assert from "node:assert/strict";
import { join } from "node:path";
import { compareCommand, compareRows } from "../../../runner/cli/compare_command.ts";
import { gateResult, scaledUs } from "../../_helpers/gate_fixtures.ts";
import { HOSTILE_PLAN_TEXT, markdownProblems } from "../../_helpers/markdown_assertions.ts";

function result(scale: number) {
  return gateResult([{
    name: "main",
    ratePerSec: 1000,
    durationMs: 20_000,
    labels: [{ label: "GET /", response: scaledUs(20_000, scale) }],
  }]);
}

async function files(a: unknown, b: unknown) {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(join(dir, "a.json"), JSON.stringify(a));
  await Deno.writeTextFile(join(dir, "b.json"), JSON.stringify(b));
  return {
    a: join(dir, "a.json"),
    b: join(dir, "b.json"),
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("compare puts percentiles side by side with their change", () => {
  const rows = compareRows(result(1), result(1.3));
  const p99 = rows.find((r) => r.metric === "p99")!;
  assert.ok(Math.abs(p99.change! - 0.3) < 0.01, `p99 change ${p99.change}`);
  assert.deepEqual([...new Set(rows.map((r) => r.metric))], [
    "p50",
    "p90",
    "p99",
    "p99.9",
    "max",
    "error_rate",
    "throughput",
  ]);
});

Deno.test("compare exits 1 and says regressed when the second result is 30% slower", async () => {
  await using f = await files(result(1), result(1.3));
  const outcome = await compareCommand([f.a, f.b]);
  assert.equal(outcome.exitCode, 1);
  assert.match(outcome.output!, /FAIL p50 vs baseline: main: regressed/);
  assert.match(outcome.output!, /KS distance 0\.\d+/);
});

Deno.test("compare writes a faster run as better and a throughput drop as worse", async () => {
  await using f = await files(result(1), result(0.9));
  const outcome = await compareCommand([f.a, f.b]);
  assert.equal(outcome.exitCode, 0);
  assert.match(outcome.output!, /^main\s+p99\s+.*\s10(\.0)?% better$/m);
  assert.doesNotMatch(outcome.output!, /-\d+(\.\d+)?% worse/);
  assert.match(outcome.output!, /PASS p99 vs baseline: main: no regression: .*10(\.0)?% better/);
  const fewer = gateResult([{
    name: "main",
    ratePerSec: 1000,
    durationMs: 20_000,
    labels: [{ label: "GET /", response: scaledUs(18_000, 1) }],
  }]);
  await using g = await files(result(1), fewer);
  assert.match(
    (await compareCommand([g.a, g.b])).output!,
    /^main\s+throughput\s+.*\s10(\.0)?% worse$/m,
  );
});

Deno.test("compare exits 0 for the same run, and writes Markdown and JSON", async () => {
  await using f = await files(result(1), result(1));
  const md = await compareCommand([f.a, f.b, "--format", "md"]);
  assert.equal(md.exitCode, 0);
  assert.match(md.output!, /^\| stage \| metric \| baseline \| current \| change \|$/m);
  const json = await compareCommand([f.a, f.b, "--format", "json"]);
  const doc = JSON.parse(json.output!);
  assert.ok(
    doc.rows.length > 0 && doc.verdicts.every((v: { status: string }) => v.status === "pass"),
  );
});

Deno.test("compare --format md renders hostile stage and label names inert: no image, link, tag or mention, no broken row", async () => {
  const hostile = (scale: number) =>
    gateResult([{
      name: HOSTILE_PLAN_TEXT,
      ratePerSec: 1000,
      durationMs: 20_000,
      labels: [
        { label: `GET /a ${HOSTILE_PLAN_TEXT}`, response: scaledUs(10_000, scale) },
        { label: `GET /b ${HOSTILE_PLAN_TEXT}`, response: scaledUs(10_000, scale) },
      ],
    }]);
  await using f = await files(hostile(1), hostile(1.3));
  const md = await compareCommand([f.a, f.b, "--format", "md"]);
  assert.equal(md.exitCode, 1, "the verdicts quote the stage name too");
  assert.deepEqual(markdownProblems(md.output!), []);
});

Deno.test("compare refuses unreadable input and bad usage with exit 2", async () => {
  await using f = await files({ schema: "other" }, result(1));
  const bad = await compareCommand([f.a, f.b]);
  assert.equal(bad.exitCode, 2);
  assert.match(bad.errors[0], /not a tailgate result/);
  assert.equal((await compareCommand([f.a])).exitCode, 2);
  assert.equal((await compareCommand([f.a, f.b, "--format", "pdf"])).exitCode, 2);
});

Deno.test("compare names a damaged histogram with exit 2 instead of crashing", async () => {
  const damaged = result(1);
  const hdr = damaged.stages[0].response.hdr;
  damaged.stages[0].response.hdr = hdr.slice(0, 20) + (hdr[20] === "A" ? "B" : "A") +
    hdr.slice(21);
  await using f = await files(result(1), damaged);
  const outcome = await compareCommand([f.a, f.b]);
  assert.equal(outcome.exitCode, 2);
  assert.match(
    outcome.errors[0],
    /^[^ ]*b\.json: stages\[0\]\.response\.hdr \(stage "main", response time\) is damaged: /,
  );
});

Deno.test("compare's text output prints stage and label names inert: no escape, no forged line", async () => {
  const evil = "main\u001b[2J\n✓ PASS: forged\u0007";
  const named = (scale: number) =>
    gateResult([{
      name: evil,
      ratePerSec: 1000,
      durationMs: 20_000,
      labels: [
        { label: `GET /a ${evil}`, response: scaledUs(10_000, scale) },
        { label: "GET /b", response: scaledUs(10_000, scale) },
      ],
    }]);
  await using f = await files(named(1), named(1.3));
  const text = await compareCommand([f.a, f.b]);
  assert.equal(text.exitCode, 1);
  const control = [...text.output!].filter((c) => c !== "\n" && (c < " " || c === "\u007f"));
  assert.deepEqual(control, [], "no control character");
  assert.ok(!text.output!.split("\n").some((l) => l.startsWith("✓ PASS")), text.output);
  assert.match(text.output!, /main\\u001b\[2J\\n✓ PASS: forged\\u0007/);
});
