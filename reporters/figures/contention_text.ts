/**
 * The machine's CPU contention in one line, for every report: what the service waited for a CPU
 * over the measured stages (or the machine's CPU pressure standing for it), its worst second, and
 * the hypervisor's steal; only the figures the run has.
 *
 * @module
 */
import { formatDurationMs } from "../../runner/plan/mod.ts";
import type { RunResult } from "../../runner/model/mod.ts";

/** PIDs named before the rest are counted. */
const PIDS_SHOWN = 4;

/**
 * The contention in one sentence, to follow a "machine:" label: "the service (nginx, pids 123,
 * 124) waited 412ms for a CPU over 10s (worst second 9s: 49ms); CPU pressure 3.1%; steal 0ms".
 * Undefined when the run measured none (other systems, results before it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentionSentence } from "./contention_text.ts";
 * const result = {
 *   stages: [{ index: 0, warmup: false }],
 *   intervals: [{ stageIndex: 0, durationMs: 1000 }, { stageIndex: 0, durationMs: 1000 }],
 *   health: { contention: { source: "pressure", pressureMs: 62, stealMs: 0, share: 0.1, worst: { startMs: 1000, waitMs: 50 } } },
 * } as unknown as Parameters<typeof contentionSentence>[0];
 * assert.equal(
 *   contentionSentence(result),
 *   "the service's own threads could not be seen; CPU pressure 3.1% (62ms over 2s, worst second 1s: 50ms); steal 0ms",
 * );
 * ```
 */
export function contentionSentence(
  result: Pick<RunResult, "stages" | "intervals" | "health">,
): string | undefined {
  const c = result.health.contention;
  if (c === undefined) return undefined;
  const measured = new Set(result.stages.filter((s) => !s.warmup).map((s) => s.index));
  const spanMs = result.intervals
    .filter((i) => measured.has(i.stageIndex))
    .reduce((sum, i) => sum + i.durationMs, 0);
  const over = `over ${formatDurationMs(spanMs)}`;
  const worst = c.worst &&
    `worst second ${Number((c.worst.startMs / 1000).toFixed(1))}s: ${
      formatDurationMs(c.worst.waitMs)
    }`;
  const pressure = c.pressureMs === undefined || spanMs <= 0
    ? undefined
    : `CPU pressure ${(c.pressureMs / spanMs * 100).toFixed(1)}%`;
  const steal = c.stealMs === undefined ? undefined : `steal ${formatDurationMs(c.stealMs)}`;
  const parts: (string | undefined)[] = [];
  if (c.source === "service") {
    parts.push(
      `${serviceName(c.service)} waited ${formatDurationMs(c.serviceWaitMs ?? 0)} for a CPU ` +
        over + (worst ? ` (${worst})` : ""),
      pressure,
    );
  } else if (c.source === "pressure") {
    parts.push(
      "the service's own threads could not be seen",
      pressure &&
        `${pressure} (${formatDurationMs(c.pressureMs!)} ${over}${worst ? `, ${worst}` : ""})`,
    );
  } else {
    parts.push("no measure of the service's wait", pressure && `this machine's ${pressure}`);
  }
  parts.push(steal);
  return parts.filter((p) => p !== undefined).join("; ");
}

function serviceName(service: NonNullable<RunResult["health"]["contention"]>["service"]): string {
  if (service === undefined) return "the service";
  const pids = service.pids.slice(0, PIDS_SHOWN).join(", ") +
    (service.pids.length > PIDS_SHOWN ? ` and ${service.pids.length - PIDS_SHOWN} more` : "");
  const label = service.pids.length === 1 ? "pid" : "pids";
  return `the service (${service.name}, ${label} ${pids})`;
}
