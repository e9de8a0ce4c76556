import assert from "node:assert/strict";
import { join } from "node:path";
import { abPlan } from "../../../runner/ab/ab_plan.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import { parsePlanText } from "../../../runner/plan/mod.ts";
import { recordingServer } from "../../_helpers/recording_server.ts";

Deno.test("abPlan() with an out folder that cannot be made runs no round: exit 2 naming it", async () => {
  await using base = recordingServer();
  await using head = recordingServer();
  const dir = await Deno.makeTempDir();
  try {
    const blocker = join(dir, "blocker");
    await Deno.writeTextFile(blocker, "");
    const { plan } = parsePlanText(`name: ab
target: ${base.url}
requests: [{ path: / }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
`);
    assert.ok(plan);
    const outcome = await abPlan(plan, {
      base: { url: base.url },
      head: { url: head.url },
      outDir: join(blocker, "ab"),
    });
    assert.equal(outcome.exitCode, EXIT_CODES.usage);
    assert.match(outcome.errors[0], /blocker/);
    assert.equal(base.requests.length + head.requests.length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
