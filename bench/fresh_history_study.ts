/**
 * Evidence for "a fresh history stays green" (issue 29, docs/gates.md): ten runs of one plan
 * against an unchanged nginx, each through the GitHub Action's own step (`ci/action/run_plans.ts`
 * with the Action's default inputs: a stored history updated by every run, the default `fail-on`
 * read from action.yml), a busy neighbour on the server's core during every other run. Does any
 * run turn the job red, and what do its regression checks say?
 *
 *     npx -y deno@2.9.6 run -A bench/fresh_history_study.ts [--runs 10] [--rate 2k/s] [--secs 10]
 *
 * nginx (one worker) runs on core 0, tailgate on core 1; only 127.0.0.1 is loaded; nginx and the
 * neighbour are stopped by their PIDs. Needs nginx (apt-get install -y nginx-light).
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadAverage } from "./_neighbour.ts";
import { waitForPort } from "./_wait_port.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "10" },
    rate: { type: "string", default: "2k/s" },
    secs: { type: "string", default: "10" },
    port: { type: "string", default: "18931" },
  },
});
const root = new URL("../", import.meta.url).pathname;
const deno = Deno.execPath();
const ws = await Deno.makeTempDir({ prefix: "tailgate-fresh-history-" });
// nginx's worker runs as another user: it must be able to read the files it serves.
await Deno.chmod(ws, 0o755);
const port = Number(values.port);

// The Action's default `fail-on`, as a user who sets nothing gets it.
const actionYml = await Deno.readTextFile(join(root, "action.yml"));
const failOn = /\n {2}fail-on:\n(?: {4}.*\n)*? {4}default: (\S+)/.exec(actionYml)?.[1];
if (failOn === undefined) throw new Error("action.yml has no default for fail-on");

await Deno.mkdir(join(ws, "www"));
await Deno.mkdir(join(ws, "logs"));
await Deno.mkdir(join(ws, "plans"));
await Deno.writeTextFile(join(ws, "www", "index.html"), "hello\n");
await Deno.writeTextFile(
  join(ws, "nginx.conf"),
  `worker_processes 1;
daemon off;
error_log ${ws}/logs/error.log warn;
pid ${ws}/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 300s;
  server { listen 127.0.0.1:${port}; root ${ws}/www; location / { } }
}
`,
);
await Deno.writeTextFile(
  join(ws, "plans", "nginx.yaml"),
  `name: fresh-history
target: http://127.0.0.1:${port}
requests: [{ path: /index.html }]
load:
  connections: 32
  stages:
    - { name: warmup, rate: ${values.rate}, duration: 2s, warmup: true }
    - { name: steady, rate: ${values.rate}, duration: ${values.secs}s }
slo:
  - p50 < 5ms
  - p99 < 20ms
  - p99.9 < 50ms
  - error_rate < 0.1%
`,
);

const nginx = new Deno.Command("taskset", {
  args: ["-c", "0", "nginx", "-c", join(ws, "nginx.conf"), "-p", ws],
  stdout: "null",
  stderr: "null",
}).spawn();
const rows: Array<Record<string, unknown>> = [];
const report: Record<string, unknown> = { failOn, loadBefore: await loadAverage() };
try {
  await waitForPort(port);
  for (let i = 0; i < Number(values.runs); i++) {
    const noisy = i % 2 === 1;
    const hog = noisy
      ? new Deno.Command("taskset", {
        args: ["-c", "0", "timeout", "120", "sh", "-c", "while :; do :; done"],
        stdout: "null",
        stderr: "null",
      }).spawn()
      : undefined;
    const output = join(ws, `output-${i}`);
    const summary = join(ws, `summary-${i}.md`);
    try {
      const run = await new Deno.Command("taskset", {
        args: ["-c", "1", deno, "run", "-A", join(root, "ci/action/run_plans.ts")],
        cwd: ws,
        env: {
          GITHUB_WORKSPACE: ws,
          GITHUB_OUTPUT: output,
          GITHUB_STEP_SUMMARY: summary,
          TAILGATE_PLANS: "plans/*.yaml",
          TAILGATE_BASELINE: "committed",
          TAILGATE_BASELINE_DIR: ".tailgate/baselines",
          TAILGATE_UPDATE_BASELINE: "true",
          TAILGATE_REPORT: "json,md",
          TAILGATE_FAIL_ON: failOn,
          TAILGATE_CONFIRM: "0",
          TAILGATE_OUT: "tailgate-out",
        },
        stdout: "null",
        stderr: "piped",
      }).output();
      const outputs = Object.fromEntries(
        (await Deno.readTextFile(output).catch(() => "")).split("\n").flatMap((line) => {
          const at = line.indexOf("=");
          return at > 0 ? [[line.slice(0, at), line.slice(at + 1)]] : [];
        }),
      );
      const result = JSON.parse(
        await Deno.readTextFile(join(ws, "tailgate-out", "nginx", "result.json")),
      );
      const gates = result.verdicts.map((v: { name: string; status: string; message: string }) =>
        `${v.status} ${v.name}: ${v.message.slice(0, 160)}`
      );
      const row = {
        run: i + 1,
        neighbour: noisy,
        verdict: result.verdict.status,
        jobExitCode: Number(outputs["job-exit-code"] ?? run.code),
        red: Number(outputs["job-exit-code"] ?? run.code) !== 0,
        gates,
      };
      rows.push(row);
      console.error(JSON.stringify(row));
    } finally {
      if (hog) {
        hog.kill("SIGTERM");
        await hog.status;
      }
    }
  }
} finally {
  nginx.kill("SIGTERM");
  await nginx.status;
}
report.runs = rows;
report.red = rows.filter((r) => r.red).length;
report.loadAfter = await loadAverage();
console.log(JSON.stringify(report, null, 1));
await Deno.remove(ws, { recursive: true });
