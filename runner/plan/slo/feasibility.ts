/**
 * Whether each stage can work as written, warned before a run (`tailgate check` and `run`):
 *
 * - **Connections (Little's law).** Requests in flight = rate × latency. When the plan's expected
 *   latency (the bound of a `mean` or a p50-or-lower SLO on the stage) at the stage's highest rate
 *   needs more connections than `max_connections`, a server that is exactly as fast as the plan
 *   allows makes requests wait for a free connection inside tailgate: that wait counts in their
 *   response time, so the run can no longer tell a server at the bound from one beyond it. Over
 *   HTTP/2 a connection carries `max_streams` requests at once (without it, the most the server's
 *   SETTINGS may allow is assumed, so a server allowing fewer is not warned of).
 * - **One engine's reach.** One engine worker sends at most about
 *   {@linkcode ENGINE_PEAK_PER_WORKER_PER_SEC} (measured, docs/engine.md); a stage above what its
 *   workers can send ends `tool-limited`, not as a figure about the server.
 *
 * A percentile the stage's request count cannot support is warned by validate_slos.ts.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import { join, type PlanReader } from "../read/mod.ts";
import type { PlanLoad, PlanStage, Slo } from "../types.ts";
import { formatDurationMs, formatRatePerSec } from "../units.ts";
import { stagesForSlo } from "./validate_slos.ts";
import { SERVER_STREAMS_CAP } from "../../model/mod.ts";

/**
 * What one engine worker sent at most, per second, with 50 connections against a C server on a
 * 2-vCPU AMD EPYC VM (docs/engine.md, "The native I/O path": 99.5k-104k req/s, 10 µs of CPU per
 * request at full core). Faster machines send more; this is the figure a plan is warned at.
 */
export const ENGINE_PEAK_PER_WORKER_PER_SEC = 100_000;

/**
 * Warns, at each stage, what cannot work as written (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePlanText } from "../load_plan.ts";
 * const { issues } = parsePlanText(`
 * name: x
 * target: http://127.0.0.1:8080
 * requests: [{ path: / }]
 * load: { max_connections: 50, stages: [{ rate: 20k/s, duration: 60s }] }
 * slo: [p50 < 5ms]
 * `);
 * assert.match(issues[0].message, /^at 20k\/s, answers of 5ms \(the p50 bound\) keep 100 requests /);
 * ```
 */
export function warnInfeasible(
  reader: PlanReader,
  loadNode: YamlNode,
  load: PlanLoad,
  slos: readonly Slo[],
): void {
  const stageNodes = stageItems(loadNode);
  load.stages.forEach((stage, i) => {
    const at = stageNodes[i] ?? loadNode;
    const path = join("load.stages", i);
    // A stage already warned about (an enormous rate, say) is not warned twice.
    if (reader.issues.some((issue) => issue.path === path || issue.path.startsWith(`${path}.`))) {
      return;
    }
    const peakPerSec = stage.kind === "constant"
      ? stage.ratePerSec
      : Math.max(stage.fromPerSec, stage.toPerSec);
    warnConnections(reader, at, path, stage, peakPerSec, load, slos);
    warnEngineReach(reader, at, path, peakPerSec, load);
  });
}

function warnConnections(
  reader: PlanReader,
  at: YamlNode,
  path: string,
  stage: PlanStage,
  peakPerSec: number,
  load: PlanLoad,
  slos: readonly Slo[],
): void {
  if (stage.warmup) return;
  const expected = expectedLatency(stage, load, slos);
  if (expected === undefined) return;
  const inFlight = Math.ceil(peakPerSec * expected.ms / 1000);
  // Over HTTP/2 each connection carries up to max_streams requests at once.
  const h2 = load.http === "2";
  const streams = h2 ? load.maxStreams ?? SERVER_STREAMS_CAP : 1;
  if (inFlight <= load.maxConnections * streams) return;
  const capacity = h2
    ? `\`max_connections\` × ${load.maxStreams === undefined ? "streams" : "`max_streams`"} ` +
      `(${load.maxConnections} × ${streams})`
    : `\`max_connections\` (${load.maxConnections})`;
  reader.warn(
    at,
    path,
    `at ${formatRatePerSec(peakPerSec)}, answers of ${formatDurationMs(expected.ms)} (the ` +
      `${expected.name} bound) keep ${inFlight} requests in flight (rate × latency), more than ` +
      `${capacity}: the rest would wait for ${h2 ? "a free stream" : "a connection"} ` +
      "in tailgate, and that wait counts in their response time",
    `raise \`load.max_connections\` to at least ${Math.ceil(inFlight / streams)} (twice that ` +
      "leaves room for a slower server)",
  );
}

/** The tightest central-latency bound judged on `stage`: a `mean`, or a percentile up to p50. */
function expectedLatency(
  stage: PlanStage,
  load: PlanLoad,
  slos: readonly Slo[],
): { ms: number; name: string } | undefined {
  let best: { ms: number; name: string } | undefined;
  for (const slo of slos) {
    const m = slo.metric;
    const central = m.kind === "mean" || (m.kind === "percentile" && m.percentile <= 50);
    // A label's SLO speaks of its share of the requests only.
    const judged = slo.label === undefined && stagesForSlo(slo, load.stages).includes(stage);
    if (!central || slo.operator[0] !== "<" || !judged) continue;
    const ms = slo.bound / 1000;
    const name = m.kind === "mean" ? "mean" : `p${m.percentile}`;
    if (best === undefined || ms < best.ms) best = { ms, name };
  }
  return best;
}

function warnEngineReach(
  reader: PlanReader,
  at: YamlNode,
  path: string,
  peakPerSec: number,
  load: PlanLoad,
): void {
  const workers = load.workers === "auto" ? 1 : load.workers;
  const reach = workers * ENGINE_PEAK_PER_WORKER_PER_SEC;
  if (peakPerSec <= reach) return;
  reader.warn(
    at,
    path,
    `${formatRatePerSec(peakPerSec)} is more than ${
      load.workers === "auto" ? "one engine worker" : `${workers} engine worker(s)`
    } sent when measured (about ${formatRatePerSec(ENGINE_PEAK_PER_WORKER_PER_SEC)} each, ` +
      "docs/engine.md): the run would end tool-limited, measuring tailgate rather than the server",
    `set \`load.workers\` to ${
      Math.ceil(peakPerSec / ENGINE_PEAK_PER_WORKER_PER_SEC)
    } on a machine with that many spare cores${
      load.workers === "auto" ? " (`auto` uses one per core on 4 or more cores)" : ""
    }, or split the run with \`tailgate run --shard I/N\` over several machines`,
  );
}

function stageItems(loadNode: YamlNode): YamlNode[] {
  if (loadNode.kind !== "map") return [];
  const stages = loadNode.entries.find((e) => e.key === "stages")?.value;
  return stages?.kind === "seq" ? stages.items : [];
}
