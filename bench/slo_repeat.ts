/**
 * The engine's verdict target (docs/engine.md): consecutive runs of a `p99.9 < 10ms at 20k/s` plan
 * against the C server (bench/servers/hello_epoll.c, `cc -O2`), which must all pass on a quiet
 * machine. The server runs on core 0, each tailgate run on core 1; one `tailgate run` process per
 * run, its verdict read from result.json.
 *
 *     taskset -c 0 npx -y deno@2.9.6 run -A bench/slo_repeat.ts [--runs 5] [--port 18280]
 *
 * Only 127.0.0.1 is loaded; the server is stopped by its PID, also on errors.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";
import { kill, live, loadAverage, startCServer } from "./_harness.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "5" }, port: { type: "string", default: "18280" } },
});
const runs = Number(values.runs);
const port = Number(values.port);
const root = new URL("../", import.meta.url).pathname;
const dir = await Deno.makeTempDir({ prefix: "tailgate-slo-repeat-" });
const planPath = join(dir, "plan.yaml");
await Deno.writeTextFile(
  planPath,
  `name: slo-repeat
target: http://127.0.0.1:${port}
requests: [{ path: / }]
load:
  connections: 50
  stages:
    - { rate: 20k/s, duration: 3s, warmup: true }
    - { rate: 20k/s, duration: 20s }
slo:
  - p99.9 < 10ms at 20k/s
`,
);
const server = await startCServer(port, dir);
try {
  console.log(`load average at the start: ${loadAverage()}`);
  const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`;
  for (let i = 1; i <= runs; i++) {
    const out = join(dir, `run-${i}`);
    const { code } = await new Deno.Command("taskset", {
      args: [
        "-c",
        "1",
        Deno.execPath(),
        "run",
        `--v8-flags=${ENGINE_V8_FLAGS}`,
        "-A",
        join(root, "cli.ts"),
        "run",
        planPath,
        "--out",
        out,
        "--report",
        "json",
        "--no-baseline",
      ],
      stdout: "null",
      stderr: "null",
    }).output();
    const r = JSON.parse(await Deno.readTextFile(join(out, "result.json")));
    const v = r.verdicts[0];
    const p = r.stages[1].response.percentilesUs;
    const h = r.health;
    console.log(
      `run ${i}: exit ${code}, ${r.verdict.status}; p99 ${ms(p["99"])}, p99.9 ${ms(p["99.9"])}; ` +
        `95% interval ${v.ci95 ? v.ci95.map(ms).join(" to ") : "-"}; generator allowance ${
          ms(v.generatorAllowance ?? 0)
        }; send lag p99 ${h.sendLag.percentilesUs["99"]} us; floor p99.9: hiccups ${
          ms(h.platformHiccup.percentilesUs["99.9"] ?? 0)
        }, stalls ${
          ms(h.engineStall.percentilesUs["99.9"] ?? 0)
        }; tool-limited ${h.toolLimited}; ` +
        `CPU ${h.cpu.perRequestUs} us/request`,
    );
  }
  console.log(`load average at the end: ${loadAverage()}`);
} finally {
  kill(server.pid, "SIGTERM");
  await server.status;
  live.delete(server.pid);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
