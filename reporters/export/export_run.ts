/**
 * A judged run's metrics sent to every receiver it names: the result made into metrics once
 * (run_metrics.ts), each receiver spoken to in its own format (remote write, OTLP), all at once,
 * and what each did not take said in a warning. The wire formats, and protobufjs with them, are
 * loaded only when a run exports.
 *
 * @module
 */
import type { RunResult } from "../../runner/model/mod.ts";
import type { ExportKind, ExportTarget } from "../../runner/plan/mod.ts";
import { otlpMetricsUrl } from "../../runner/plan/mod.ts";
import { BATCH_SCALE, runMetricParts } from "./run_metrics.ts";
import {
  exportWarning,
  type ExportWire,
  sendExport,
  type SendOptions,
  type SendReport,
} from "./send_exports.ts";

/** The OTLP exponential histograms' scale tailgate exports at (reporters/export/otlp_buckets.ts). */
export const EXPORT_OTLP_SCALE = BATCH_SCALE;

/** What exporting did: a line per receiver that took everything, a warning per one that did not. */
export interface ExportOutcome {
  /** `exported 42 series to prometheus http://…` for each receiver that took them all. */
  sent: string[];
  /** One per receiver that did not take everything (exportWarning). */
  warnings: string[];
  reports: SendReport[];
}

/**
 * Sends `result`'s metrics to `targets` (the plan's `export` and `--export`), and says how it
 * went. Never throws for a receiver, and never reads or changes a verdict.
 */
export async function exportRun(
  result: RunResult,
  targets: readonly ExportTarget[],
  options: SendOptions = {},
): Promise<ExportOutcome> {
  if (targets.length === 0) return { sent: [], warnings: [], reports: [] };
  const userAgent = `tailgate/${result.environment.tailgateVersion}`;
  const wires = await loadWires(new Set(targets.map((t) => t.kind)), userAgent);
  const reports = await Promise.all(
    // Each receiver asks for the parts as it sends them: one stage × label's points held at once.
    targets.map((t) => sendExport(runMetricParts(result), t, wires.get(t.kind)!, options)),
  );
  const sent: string[] = [];
  const warnings: string[] = [];
  for (const report of reports) {
    const warning = exportWarning(report);
    if (warning) warnings.push(warning);
    else {
      sent.push(
        `exported ${report.series} series to ${report.receiver}` +
          (report.fellBack ? " (classic histograms: it takes no native ones)" : ""),
      );
    }
  }
  return { sent, warnings, reports };
}

/** The wire of each kind in use, its encoder loaded on demand. */
async function loadWires(
  kinds: Set<ExportKind>,
  userAgent: string,
): Promise<Map<ExportKind, ExportWire>> {
  const wires = new Map<ExportKind, ExportWire>();
  if (kinds.has("prometheus")) {
    const rw = await import("./remote_write.ts");
    wires.set("prometheus", {
      url: (t) => t.url,
      headers: { ...rw.REMOTE_WRITE_HEADERS, "user-agent": userAgent },
      // Native histograms first; classic buckets to a receiver that takes no native ones.
      encode: (b, fallback) =>
        rw.encodeRemoteWrite(b, { histograms: fallback ? "classic" : "native" }),
      refuses: rw.refusesNativeHistograms,
    });
  }
  if (kinds.has("otlp")) {
    const otlp = await import("./otlp_metrics.ts");
    wires.set("otlp", {
      url: (t) => otlpMetricsUrl(t.url),
      headers: { "content-type": otlp.OTLP_CONTENT_TYPE, "user-agent": userAgent },
      // Scale 5 (32 buckets a doubling, a percentile within 2.19%): a 10-minute run of dense
      // per-second points stays a few MiB (scale 8 would be eight times that).
      encode: (b) => otlp.encodeOtlpMetrics(b, { scale: EXPORT_OTLP_SCALE }),
    });
  }
  return wires;
}
