/**
 * A real Prometheus (Debian's `prometheus` package, 2.42) for the remote-write tests: started on
 * 127.0.0.1 at a free port with a storage folder and config of its own, its remote-write receiver
 * on, the feature flags asked for (`native-histograms`, `exemplar-storage`), and stopped by its
 * PID. Where `prometheus` is not installed its tests are ignored with a note, unless
 * TAILGATE_REQUIRE_TOOLS=1 (CI, after .ci/install-tools) asks them to run and fail.
 *
 * @module
 */
import { join } from "node:path";
import { ignoreWithout } from "./test_tools.ts";
import { freePort } from "./free_port.ts";

/** The `ignore` flag of a test that needs Prometheus. */
export function ignoreWithoutPrometheus(): boolean {
  return ignoreWithout("prometheus");
}

/** A running Prometheus. */
export interface Prometheus {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** POSTs a remote-write body with `headers`: the status and body of the answer. */
  write(body: Uint8Array<ArrayBuffer>, headers: Record<string, string>): Promise<PromAnswer>;
  /** An instant query at `timeMs`: the result vector's samples. */
  query(promql: string, timeMs: number): Promise<QuerySample[]>;
  /** `/api/v1/query_exemplars` between two epoch-ms times: the exemplars, every series' together. */
  queryExemplars(promql: string, startMs: number, endMs: number): Promise<QueryExemplar[]>;
  /** What it logged so far (for a failure's message). */
  log(): string;
  /** Stops it (SIGTERM to its PID, then SIGKILL after 10 s) and removes its folder. */
  stop(): Promise<void>;
}

/** An HTTP answer. */
export interface PromAnswer {
  status: number;
  body: string;
}

/** One sample of an instant vector: its labels, and its float value or native histogram. */
export interface QuerySample {
  metric: Record<string, string>;
  value?: number;
  histogram?: { count: number; sum: number };
}

/** One exemplar as the API returns it. */
export interface QueryExemplar {
  seriesLabels: Record<string, string>;
  labels: Record<string, string>;
  value: number;
  timeMs: number;
}

/** Starts Prometheus with `features` (`--enable-feature=`) and waits until it is ready. */
export async function startPrometheus(features: string[] = []): Promise<Prometheus> {
  for (let attempt = 1;; attempt++) {
    try {
      return await startOnce(features);
    } catch (e) {
      // Another process may have taken the free port between its release and the bind.
      if (attempt >= 3 || !/address already in use/.test(String(e))) throw e;
    }
  }
}

async function startOnce(features: string[]): Promise<Prometheus> {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-prometheus-" });
  const config = join(dir, "prometheus.yml");
  await Deno.writeTextFile(config, "global:\n  scrape_interval: 1m\n");
  const port = freePort();
  const logPath = join(dir, "prometheus.log");
  const logFile = await Deno.open(logPath, { write: true, create: true });
  const args = [
    `--config.file=${config}`,
    `--storage.tsdb.path=${join(dir, "data")}`,
    `--web.listen-address=127.0.0.1:${port}`,
    "--web.enable-remote-write-receiver",
    ...(features.length > 0 ? [`--enable-feature=${features.join(",")}`] : []),
  ];
  const child = new Deno.Command("prometheus", {
    args,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const logged = child.stderr.pipeTo(logFile.writable).catch(() => {});
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const url = `http://127.0.0.1:${port}`;
  const log = () => {
    try {
      return Deno.readTextFileSync(logPath);
    } catch {
      return "";
    }
  };
  const stop = async () => {
    if (!exited) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => !exited && child.kill("SIGKILL"), 10_000);
      await status;
      clearTimeout(timer);
    }
    await logged;
    await Deno.remove(dir, { recursive: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) {
      const text = log();
      await stop();
      throw new Error(`prometheus exited before it was ready:\n${text}`);
    }
    try {
      const res = await fetch(`${url}/-/ready`);
      await res.body?.cancel();
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      const text = log();
      await stop();
      throw new Error(`prometheus was not ready within 30 s:\n${text}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    log,
    stop,
    write: async (body, headers) => {
      const res = await fetch(`${url}/api/v1/write`, { method: "POST", body, headers });
      return { status: res.status, body: await res.text() };
    },
    query: async (promql, timeMs) => {
      const data = await api(url, "query", { query: promql, time: String(timeMs / 1000) });
      return (data.result as RawSample[]).map((s) => ({
        metric: s.metric,
        ...(s.value ? { value: Number(s.value[1]) } : {}),
        ...(s.histogram
          ? { histogram: { count: Number(s.histogram[1].count), sum: Number(s.histogram[1].sum) } }
          : {}),
      }));
    },
    queryExemplars: async (promql, startMs, endMs) => {
      const data = await api(url, "query_exemplars", {
        query: promql,
        start: String(startMs / 1000),
        end: String(endMs / 1000),
      });
      return (data as RawExemplars[]).flatMap((s) =>
        s.exemplars.map((e) => ({
          seriesLabels: s.seriesLabels,
          labels: e.labels,
          value: Number(e.value),
          timeMs: Math.round(e.timestamp * 1000),
        }))
      );
    },
  };
}

interface RawSample {
  metric: Record<string, string>;
  value?: [number, string];
  histogram?: [number, { count: string; sum: string }];
}

interface RawExemplars {
  seriesLabels: Record<string, string>;
  exemplars: Array<{ labels: Record<string, string>; value: string; timestamp: number }>;
}

// deno-lint-ignore no-explicit-any
async function api(url: string, path: string, params: Record<string, string>): Promise<any> {
  const res = await fetch(`${url}/api/v1/${path}?${new URLSearchParams(params)}`);
  const json = await res.json();
  if (json.status !== "success") {
    throw new Error(`${path} ${JSON.stringify(params)}: ${res.status} ${JSON.stringify(json)}`);
  }
  return json.data;
}
