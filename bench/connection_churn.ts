/**
 * A server that closes every connection: Python's `http.server` (HTTP/1.0, listen backlog 5) on
 * 127.0.0.1, loaded by `tailgate run URL --rate R --duration D` on each I/O path. Every request
 * reconnects, and once the backlog is full the kernel drops SYNs, which Linux retries after 1 s.
 * For each path it prints the connections opened per request, the connect times, the send lag
 * (which no longer holds them), whether the run was called tool-limited, and the result's
 * warnings, where the churn is named.
 *
 *     deno run -A bench/connection_churn.ts [--rate 1k/s] [--duration 1s] [--io deno,native]
 *
 * Only 127.0.0.1 is loaded; the server and each run are bounded by `timeout` and stopped by PID.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";
import type { EncodedHistogram, RunResult } from "../runner/model/run_result.ts";
import { decode, kill, live, loadAverage } from "./_harness.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "1k/s" },
    duration: { type: "string", default: "1s" },
    io: { type: "string", default: "deno,native" },
  },
});
const root = new URL("../", import.meta.url).pathname;
const dir = await Deno.makeTempDir({ prefix: "tailgate-churn-" });
await Deno.writeTextFile(join(dir, "index.html"), "hello\n");

/** `python3 -m http.server 0` in `dir`, at most 120 s; resolves with its URL once it listens. */
async function pythonServer(): Promise<string> {
  const child = new Deno.Command("timeout", {
    args: ["120", "python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1"],
    cwd: dir,
    stdout: "piped",
    stderr: "null",
    stdin: "null",
  }).spawn();
  live.add(child.pid);
  const reader = child.stdout.getReader();
  let text = "";
  const banner = /port (\d+) /; // the whole number: a read may end inside it
  while (!banner.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`python3 -m http.server did not start: ${text}`);
    text += decode(value);
  }
  reader.releaseLock();
  void child.stdout.cancel();
  return `http://127.0.0.1:${banner.exec(text)![1]}/`;
}

const ms = (h: EncodedHistogram | undefined, p: string) =>
  h?.count ? `${(h.percentilesUs[p] / 1000).toFixed(2)} ms` : "-";

async function run(url: string, io: string): Promise<void> {
  const out = join(dir, io);
  const tailgate = await new Deno.Command("timeout", {
    args: [
      "60",
      Deno.execPath(),
      "run",
      `--v8-flags=${ENGINE_V8_FLAGS}`,
      "-A",
      join(root, "cli.ts"),
      "run",
      url,
      "--rate",
      values.rate!,
      "--duration",
      values.duration!,
      "--out",
      out,
      "--no-baseline",
      "--report",
      "md",
    ],
    env: { TAILGATE_IO: io },
    stdout: "null",
    stderr: "piped",
  }).output();
  if (tailgate.code !== 0 && tailgate.code !== 1) {
    throw new Error(`${io}: exit ${tailgate.code}: ${decode(tailgate.stderr)}`);
  }
  const result = JSON.parse(await Deno.readTextFile(join(out, "result.json"))) as RunResult;
  const h = result.health;
  const c = result.totals.counts;
  console.log(
    `${io} (exit ${tailgate.code}, load average ${loadAverage()}): ${h.connections.opened} ` +
      `connections opened for ${c.sent} requests written (${c.scheduled} scheduled, errors ` +
      `${JSON.stringify(c.errors)}); connect time: ${h.connectTime?.count ?? 0} timed, p50 ` +
      `${ms(h.connectTime, "50")}, p99 ${ms(h.connectTime, "99")}, max ${
        h.connectTime ? (h.connectTime.maxUs / 1000).toFixed(2) : "-"
      } ms; send lag p99 ${ms(h.sendLag, "99")}; queue wait p99 ${ms(h.queueWait, "99")}; ` +
      `response p99 ${ms(result.totals.response, "99")}`,
  );
  console.log(`  tool-limited: ${h.toolLimited}${h.reasons.map((r) => `\n    - ${r}`).join("")}`);
  for (const w of result.warnings ?? []) console.log(`  warning: ${w}`);
}

try {
  const url = await pythonServer();
  for (const io of values.io!.split(",")) await run(url, io);
} finally {
  for (const pid of live) kill(pid, "SIGTERM"); // the server's `timeout`, which ends it
  live.clear();
  await Deno.remove(dir, { recursive: true });
}
