import assert from "node:assert/strict";
import { join } from "node:path";
import { withPreparedRun } from "../../../runner/api/prepare_run.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import { parsePlanText } from "../../../runner/plan/mod.ts";
import type { ResolvedPlan } from "../../../runner/plan/mod.ts";
import { freePort } from "../../_helpers/free_port.ts";
import { answers, serveCommand } from "../../_helpers/service_commands.ts";

function plan(port: number): ResolvedPlan {
  const parsed = parsePlanText(`name: prepared
target: http://127.0.0.1:${port}
requests: [{ path: / }]
load: { connections: 2, stages: [{ rate: 10/s, duration: 1s }] }
`);
  assert.ok(parsed.plan);
  return parsed.plan;
}

Deno.test("a run whose target nobody answers is never handed to its work: exit 4", async () => {
  const dir = await Deno.makeTempDir();
  try {
    let worked = false;
    const outcome = await withPreparedRun(plan(freePort()), { outDir: join(dir, "out") }, () => {
      worked = true;
      return Promise.resolve({ exitCode: EXIT_CODES.ok, errors: [], notes: [] });
    });
    assert.equal(worked, false);
    assert.equal(outcome.exitCode, EXIT_CODES.unreachable);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a CA certificate that cannot be read stops the run before the service starts: exit 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const port = freePort();
    const outcome = await withPreparedRun(plan(port), {
      outDir: join(dir, "out"),
      caCertFiles: [join(dir, "missing.pem")],
      start: { command: serveCommand(port), readyPort: port },
    }, () => Promise.resolve({ exitCode: EXIT_CODES.ok, errors: [], notes: [] }));
    assert.equal(outcome.exitCode, EXIT_CODES.usage);
    assert.match(outcome.errors[0], /--ca-cert .*missing\.pem/);
    assert.equal(await answers(port), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the started service runs during the work and is stopped after it, also when it throws", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const port = freePort();
    let seen: { pgid?: number; answered: boolean } | undefined;
    await assert.rejects(
      () =>
        withPreparedRun(plan(port), {
          outDir: join(dir, "out"),
          start: { command: serveCommand(port), readyPort: port },
        }, async ({ service }) => {
          seen = { ...(service ? { pgid: service.pgid } : {}), answered: await answers(port) };
          throw new Error("the work failed");
        }),
      /the work failed/,
    );
    assert.ok(seen?.pgid !== undefined);
    assert.equal(seen.answered, true);
    assert.equal(await answers(port), false);
    await Deno.stat(join(dir, "out", "service.log"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
