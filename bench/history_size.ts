/**
 * How big the long history gets, and what it costs: builds a baseline of 500 runs of a 3-stage,
 * 3-label plan whose histograms are recorded the way a run records them (the schedule's requests
 * through the recorder, latencies drawn from a seeded log-normal with a slow tail; no network),
 * then times appending a run to it (read under the lock, parsed, trimmed, written) and parsing it,
 * and prints the file's size.
 *
 *   deno run -A bench/history_size.ts [RUNS] [DISTINCT_RESULTS]
 *
 * @module
 */
import { parsePlanText } from "../runner/plan/mod.ts";
import { scheduleAndRecorder } from "../tests/_helpers/result_fixtures.ts";
import { buildResult } from "../runner/result/build_result.ts";
import { collectEnvironment } from "../runner/result/environment.ts";
import type { RunResult } from "../runner/model/run_result.ts";
import {
  appendToHistory,
  DEFAULT_BASELINE_RUNS,
  DEFAULT_HISTORY_RUNS,
  HISTORY_FILE_SCHEMA,
  HISTORY_FILE_VERSION,
  historyEntryFromRun,
  type HistoryFile,
  historyPath,
  parseHistory,
  planFingerprint,
  storedRunFrom,
} from "../runner/history/mod.ts";
import { median } from "./_harness.ts";

const PLAN = `name: history-size
target: http://127.0.0.1:8080
requests:
  - { name: GET /items, path: /items, weight: 6 }
  - { name: GET /items/42, path: /items/42, weight: 3 }
  - { name: POST /orders, method: POST, path: /orders, body: '{"item": 42}', weight: 1 }
load:
  stages:
    - { name: warm, rate: 500/s, duration: 10s, warmup: true }
    - { name: steady, rate: 1k/s, duration: 60s }
    - { name: peak, rate: 2k/s, duration: 30s }
slo:
  - p99 < 50ms
`;

const runs = Number(Deno.args[0] ?? DEFAULT_HISTORY_RUNS);
const distinct = Number(Deno.args[1] ?? 20);

/** mulberry32: a small seeded generator, so every invocation builds the same history. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One run's result: service times log-normal (median 0.6-1.2 ms by label), 1% slow (5-80 ms). */
function recordRun(seed: number, startedAt: Date): RunResult {
  const { plan, issues } = parsePlanText(PLAN);
  if (!plan) throw new Error(JSON.stringify(issues));
  const { schedule, rec } = scheduleAndRecorder(plan);
  const next = random(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const medianMs = [0.6, 0.8, 1.2];
  const cursor = schedule.cursor();
  for (; !cursor.done; cursor.advance()) {
    const { fireMs, stageIndex, labelIndex } = cursor;
    rec.scheduled(fireMs, stageIndex, labelIndex);
    const lagMs = 0.02 + 0.05 * next();
    const serviceMs = next() < 0.01
      ? 5 + 75 * next()
      : medianMs[labelIndex] * Math.exp(0.45 * normal()) * (1 + 0.1 * stageIndex);
    const status = next() < 0.002 ? 500 : 200;
    const writtenMs = fireMs + lagMs;
    const sizes = { bytesSent: 120, bytesReceived: 900 };
    rec.sendLag(lagMs, stageIndex);
    rec.complete(
      {
        stageIndex,
        labelIndex,
        fireMs,
        writtenMs,
        completedMs: writtenMs + serviceMs,
        status,
        ...sizes,
      },
    );
  }
  return buildResult(plan, {
    recorded: rec.finish(schedule.durationMs),
    complete: true,
    startedAt,
    durationMs: schedule.durationMs,
    scheduleDurationMs: schedule.durationMs,
    scheduled: schedule.totalCount,
    cpu: { userMs: 0, systemMs: 0 },
    connections: { opened: 50, peak: 50 },
    timerSlackSet: true,
  }, { ...environment, gitSha: seed.toString(16).padStart(40, "0") });
}

const environment = await collectEnvironment();
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 3_600_000);
let t0 = performance.now();
const results = Array.from({ length: distinct }, (_, i) => recordRun(i + 1, day(i)));
const recordMs = performance.now() - t0;
const requests = results[0].totals.counts.scheduled;

// The history as `runs` appends would leave it, written at once (appending 500 times re-reads
// and rewrites a growing file: minutes, and the same file at the end).
const dated = (n: number) => {
  const r = structuredClone(results[n % distinct]);
  r.run.startedAt = day(n).toISOString();
  r.environment.gitSha = n.toString(16).padStart(40, "0");
  return r;
};
const filled = Array.from({ length: runs - 1 }, (_, n) => dated(n));
const baseline: HistoryFile = {
  schema: HISTORY_FILE_SCHEMA,
  version: HISTORY_FILE_VERSION,
  plan: "history-size",
  runs: filled.slice(-DEFAULT_BASELINE_RUNS).map(storedRunFrom),
  history: filled.map((r) => historyEntryFromRun(storedRunFrom(r), planFingerprint(r))),
};
const dir = await Deno.makeTempDir({ prefix: "tailgate-history-size-" });
try {
  const path = historyPath(dir, "history-size");
  await Deno.writeTextFile(path, JSON.stringify(baseline, null, 1) + "\n");
  const appendMs: number[] = [];
  for (let n = runs - 1; n < runs + 4; n++) {
    t0 = performance.now();
    const appended = await appendToHistory(dir, dated(n), undefined, undefined, undefined, runs);
    appendMs.push(performance.now() - t0);
    if (!appended.ok || appended.value.history.length !== runs) throw new Error("append failed");
  }
  const text = await Deno.readTextFile(path);
  const parseMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    t0 = performance.now();
    const parsed = parseHistory(text, "history-size");
    parseMs.push(performance.now() - t0);
    if (!parsed.ok) throw new Error("parse failed");
  }
  const doc = JSON.parse(text) as HistoryFile;
  const kb = (s: string) => new TextEncoder().encode(s).length / 1024;
  const historyKb = kb(doc.history.map((e) => JSON.stringify(e)).join("\n"));
  const runsKb = kb(doc.runs.map((r) => JSON.stringify(r)).join("\n"));
  const stageHdrBytes = doc.history.flatMap((e) => e.stages.map((s) => s.response.hdr.length));
  const hdrKb = stageHdrBytes.reduce((a, b) => a + b, 0) / 1024;
  console.log(
    [
      `plan: 3 stages (1 warmup), 3 labels, ${requests} requests a run; ${distinct} distinct ` +
      `recorded runs (${(recordMs / distinct).toFixed(0)} ms each), cycled over ${runs}`,
      `file: ${kb(text).toFixed(0)} KB (history ${historyKb.toFixed(0)} KB: ` +
      `${(historyKb / runs).toFixed(2)} KB a run; runs ${runsKb.toFixed(0)} KB for ` +
      `${doc.runs.length} full runs)`,
      `stage response histogram: median ${median(stageHdrBytes)} base64 characters; the ` +
      `histograms are ${(100 * hdrKb / historyKb).toFixed(0)}% of the history; indented JSON ` +
      `would be ${kb(JSON.stringify(doc, null, 1)).toFixed(0)} KB`,
      `append to the ${runs}-run file: median ${median(appendMs).toFixed(0)} ms ` +
      `(${appendMs.map((m) => m.toFixed(0)).join(", ")})`,
      `parse: median ${median(parseMs).toFixed(0)} ms (${
        parseMs.map((m) => m.toFixed(0)).join(", ")
      })`,
    ].join("\n"),
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
