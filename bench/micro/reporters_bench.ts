/**
 * Cost of rendering each report for a one-hour run (3600 one-second intervals, 3 labels, 180k
 * requests, recorded with a heavy-tailed latency), against the demo-sized run (32 intervals).
 * Run with `deno bench --allow-all bench/micro/reporters_bench.ts`; results in docs/benchmarks.md.
 *
 * @module
 */
import { parsePlan } from "../../runner/plan/parse_plan.ts";
import type { Completion } from "../../runner/recorder/recorder.ts";
import { buildResult } from "../../runner/result/build_result.ts";
import type { RunResult } from "../../runner/model/run_result.ts";
import { scheduleAndRecorder } from "../../tests/_helpers/result_fixtures.ts";
import { evaluateSlos } from "../../runner/gates/slo/evaluate_slos.ts";
import { renderReport } from "../../reporters/write_reports.ts";
import { REPORT_FORMATS } from "../../reporters/report_formats.ts";

function recordedResult(durationS: number, ratePerSec: number): RunResult {
  const { plan } = parsePlan(
    "bench.yaml",
    new TextEncoder().encode(`name: bench
target: http://127.0.0.1:8080
requests:
  - { name: GET /a, path: /a, weight: 5 }
  - { name: GET /b, path: /b, weight: 3 }
  - { name: POST /c, method: POST, path: /c }
load:
  stages:
    - { rate: ${ratePerSec}/s, duration: 2s, warmup: true }
    - { ramp: ${ratePerSec / 2}/s -> ${ratePerSec}/s, over: ${Math.round(durationS / 4)}s }
    - { rate: ${ratePerSec}/s, duration: ${durationS - Math.round(durationS / 4) - 2}s }
slo: [p99 < 50ms, p99.9 < 200ms]
`),
    { env: () => undefined, fileSize: () => undefined, planDir: ".", requireEnv: false },
  );
  if (!plan) throw new Error("bench plan is invalid");
  const { schedule, rec } = scheduleAndRecorder(plan);
  for (const c = schedule.cursor(); !c.done; c.advance()) {
    rec.scheduled(c.fireMs, c.stageIndex, c.labelIndex);
    const u = (Math.sin(c.index * 12.9898) * 43758.5453) % 1;
    const serviceMs = 0.2 + Math.abs(u) ** 6 * 300;
    const completion: Completion = {
      stageIndex: c.stageIndex,
      labelIndex: c.labelIndex,
      fireMs: c.fireMs,
      writtenMs: c.fireMs + 0.05,
      completedMs: c.fireMs + 0.05 + serviceMs,
      status: 200,
      bytesSent: 60,
      bytesReceived: 200,
    };
    rec.sendLag(0.05, c.stageIndex);
    rec.complete(completion);
  }
  const result = buildResult(plan, {
    recorded: rec.finish(schedule.durationMs),
    complete: true,
    startedAt: new Date("2026-01-01T00:00:00Z"),
    durationMs: schedule.durationMs,
    scheduleDurationMs: schedule.durationMs,
    scheduled: schedule.totalCount,
    cpu: { userMs: 1000, systemMs: 200 },
    connections: { opened: 4, peak: 4 },
    timerSlackSet: true,
  }, {
    tailgateVersion: "bench",
    denoVersion: Deno.version.deno,
    v8Version: Deno.version.v8,
    os: Deno.build.os,
    arch: Deno.build.arch,
    cpuModel: "bench",
    cores: navigator.hardwareConcurrency,
  });
  result.verdicts = evaluateSlos(result);
  return result;
}

const demoSized = recordedResult(32, 800);
const hour = recordedResult(3600, 50);

for (const format of REPORT_FORMATS) {
  Deno.bench(`${format}: 32 s run`, { group: format, baseline: true }, () => {
    renderReport(demoSized, format);
  });
  Deno.bench(`${format}: 1 h run`, { group: format }, () => {
    renderReport(hour, format);
  });
}
