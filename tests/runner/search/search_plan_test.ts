import assert from "node:assert/strict";
import { join } from "node:path";
import { searchPlan } from "../../../runner/search/search_plan.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import { parsePlanText } from "../../../runner/plan/mod.ts";
import { recordingServer } from "../../_helpers/recording_server.ts";

Deno.test("searchPlan() of a plan without a search section sends nothing: exit 2 naming the file", async () => {
  await using server = recordingServer();
  const dir = await Deno.makeTempDir();
  try {
    const { plan } = parsePlanText(
      `name: no-search
target: ${server.url}
requests: [{ path: / }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
`,
      { file: join(dir, "plans", "api.yaml") },
    );
    assert.ok(plan);
    const outcome = await searchPlan(plan, { outDir: join(dir, "out") });
    assert.equal(outcome.exitCode, EXIT_CODES.usage);
    assert.match(outcome.errors[0], /plans\/api\.yaml has no `search` section/);
    assert.equal(server.requests.length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("searchPlan() with --update-baseline but no history refuses before the first step", async () => {
  await using server = recordingServer();
  const dir = await Deno.makeTempDir();
  try {
    const { plan } = parsePlanText(`name: searched
target: ${server.url}
requests: [{ path: / }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
search: { from: 100/s, max: 400/s, step: 1s }
slo: [p99 < 100ms]
`);
    assert.ok(plan);
    const outcome = await searchPlan(plan, { outDir: join(dir, "out"), updateBaseline: true });
    assert.equal(outcome.exitCode, EXIT_CODES.usage);
    assert.deepEqual(outcome.errors, ["--update-baseline needs a history: drop --no-baseline"]);
    assert.equal(server.requests.length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
