/**
 * Truth test for the generator's CPU share: it covers the run's own window. Loading and compiling
 * the engine workers' modules (seconds under `deno test`, which type-checks them) happens before
 * the schedule starts and is not the generator falling behind: a light 1 s run on two workers in a
 * fresh process is no tool-limited run. Counted from before the workers were spawned, its share
 * read 114% here.
 */
import assert from "node:assert/strict";
import { measureRun, parsePlanText, startTarget } from "../../mod.ts";

Deno.test("a light run on engine workers is not tool-limited by the workers' start-up", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const { plan } = parsePlanText(`name: startup-cpu
target: ${target.url}
requests: [{ path: / }]
load: { connections: 4, workers: 2, stages: [{ rate: 100/s, duration: 1s }] }
`);
  const result = await measureRun(plan!);
  const cpuMs = result.health.cpu.userMs + result.health.cpu.systemMs;
  assert.ok(
    cpuMs < 0.6 * result.run.durationMs,
    `${cpuMs} ms of CPU in ${result.run.durationMs} ms`,
  );
  assert.ok(
    !result.health.reasons.some((r) => r.includes("CPU core")),
    result.health.reasons.join("\n"),
  );
});
