import assert from "node:assert/strict";
import { join } from "node:path";
import { startTarget } from "../../../mod.ts";
import { abCommand } from "../../../runner/cli/ab_command.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";

Deno.test("tailgate ab exits 5 naming each file it could not write, and writes the others", async () => {
  await using base = await startTarget({ mode: "hello", port: 0 });
  await using head = await startTarget({ mode: "hello", port: 0 });
  const dir = await Deno.makeTempDir({ prefix: "tailgate-ab-" });
  try {
    const plan = join(dir, "ab.yaml");
    await Deno.writeTextFile(
      plan,
      `name: tiny-ab
target: ${base.url}
requests: [{ path: / }]
load: { connections: 2, stages: [{ rate: 40/s, duration: 500ms }] }
`,
    );
    const out = join(dir, "out");
    // A folder where a file goes: the write fails as on a full disk, whoever runs the test.
    await Deno.mkdir(join(out, "ab.html"), { recursive: true });
    await Deno.mkdir(join(out, "runs", "round-2-head.json"), { recursive: true });
    const outcome = await abCommand([
      plan,
      ...["--base", base.url, "--head", head.url, "--rounds", "3", "--out", out],
    ], () => {});
    assert.equal(outcome.exitCode, EXIT_CODES.ioFailed, JSON.stringify(outcome.errors));
    assert.equal(outcome.errors.length, 2, outcome.errors.join("\n"));
    assert.match(outcome.errors.join("\n"), /runs\/round-2-head\.json not written to .*out: /);
    assert.match(outcome.errors.join("\n"), /ab\.html not written to .*out\/ab\.html: /);
    const ab = JSON.parse(await Deno.readTextFile(join(out, "ab.json")));
    assert.equal(ab.settings.rounds, 3, "the comparison still ran every round");
    assert.equal(ab.rounds.length, 3);
    assert.ok((await Deno.stat(join(out, "ab-junit.xml"))).isFile);
    assert.match(outcome.output!, /wrote .*ab\.json/);
    assert.doesNotMatch(outcome.output!, /wrote .*ab\.html/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
