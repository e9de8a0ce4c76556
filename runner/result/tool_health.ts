/**
 * Judges whether the generator, not the server, limited a run: late sends (which is also how a
 * send rate short of the schedule shows, since nothing scheduled is ever skipped) or a saturated
 * CPU. A wait for a busy connection is not the generator's lateness: it is the server's pace (and
 * `max_connections`), and it is part of the response time. Pure: it reads figures only.
 *
 * @module
 */
import type { Slo } from "../plan/types.ts";
import { formatDurationMs } from "../plan/units.ts";
import type { EncodedHistogram } from "./run_result.ts";

/** The figures the judgement reads. */
export interface HealthFigures {
  sendLag: EncodedHistogram;
  /** Optional for callers with no dispatcher figures (older results). */
  dispatchLag?: EncodedHistogram;
  cpu: { userMs: number; systemMs: number };
  /** Wall time the engine ran (ms). */
  durationMs: number;
  slos: readonly Slo[];
}

/** The largest send lag p99 a sound run may show: max(1 ms, 10% of the tightest latency SLO). */
export function sendLagLimitUs(slos: readonly Slo[]): number {
  const latencyBounds = slos
    .filter((s) =>
      s.metric.kind === "percentile" || s.metric.kind === "max" || s.metric.kind === "mean"
    )
    .map((s) => s.bound);
  return Math.max(1000, latencyBounds.length ? Math.min(...latencyBounds) * 0.1 : 0);
}

/**
 * Returns whether the run is tool-limited, and why in words a user understands.
 *
 * @example
 * ```ts
 * import { judgeToolHealth } from "./tool_health.ts";
 * // judgeToolHealth(figures) → { toolLimited: true, reasons: ["tailgate sent requests late: ..."] }
 * ```
 */
export function judgeToolHealth(f: HealthFigures): { toolLimited: boolean; reasons: string[] } {
  const reasons: string[] = [];
  const limitUs = sendLagLimitUs(f.slos);
  const p99Us = f.sendLag.percentilesUs["99"] ?? 0;
  if (f.sendLag.count > 0 && p99Us > limitUs) {
    reasons.push(
      `tailgate sent requests late: its send lag p99 was ${formatDurationMs(p99Us / 1000)}, ` +
        `above the ${
          formatDurationMs(limitUs / 1000)
        } a sound run allows; the generator, not the ` +
        "server, limited this run (use fewer requests per worker, more workers or a bigger machine)",
    );
  }
  const d = f.dispatchLag;
  const dispatchP99Us = d?.percentilesUs["99"] ?? 0;
  if (d !== undefined && d.count > 0 && dispatchP99Us > limitUs) {
    reasons.push(
      `tailgate took requests from its schedule late: dispatch lag p99 ` +
        `${formatDurationMs(dispatchP99Us / 1000)}, above the ${
          formatDurationMs(limitUs / 1000)
        } ` +
        "a sound run allows; the generator was saturated, so requests that waited in its queue " +
        "were not only the server's doing",
    );
  }
  const cpuShare = (f.cpu.userMs + f.cpu.systemMs) / Math.max(1, f.durationMs);
  if (cpuShare > 0.95) {
    reasons.push(
      `tailgate's process used ${Math.round(cpuShare * 100)}% of a CPU core, so it could not ` +
        "keep up by itself",
    );
  }
  return { toolLimited: reasons.length > 0, reasons };
}
