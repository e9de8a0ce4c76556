/**
 * Validates `search`: the capacity search's rates, step lengths, precision and gate.
 *
 * @module
 */
import type { YamlNode } from "./read/mod.ts";
import type { PlanReader } from "./read/mod.ts";
import { readSection } from "./read/mod.ts";
import { requestsToPassSlo } from "./slo/mod.ts";
import type { PlanSearch, Slo } from "./types.ts";
import { formatDurationMs, formatLengthMs, formatRatePerSec } from "./units.ts";

/**
 * Reads `search:`. Returns undefined when a required value is missing or wrong (each problem is
 * an issue of its own).
 */
export function readSearch(reader: PlanReader, node: YamlNode): PlanSearch | undefined {
  const s = readSection(reader, node, "search", "search");
  if (s === undefined) return undefined;
  const get = (k: string) => s.at(k);
  const fromPerSec = s.get<number>("from");
  const maxPerSec = s.get<number>("max");
  const stepMs = s.get<number>("step");
  const warmupMs = s.get<number>("warmup");
  const cooldownMs = s.get<number>("cooldown");
  const soakMs = s.get<number>("soak");
  let precision = s.get<number>("precision");
  if (precision !== undefined && !(precision > 0 && precision < 1)) {
    precision = undefined;
    reader.error(
      get("precision")!,
      "search.precision",
      "`precision` must be above 0% and below 100%",
      "e.g. `5%`",
    );
  }
  if (fromPerSec !== undefined && maxPerSec !== undefined && !(fromPerSec < maxPerSec)) {
    reader.error(
      get("max")!,
      "search.max",
      "`max` must be above `from`",
      "the search doubles from `from` up to `max`",
    );
    return undefined;
  }
  if (stepMs !== undefined && stepMs <= 0) {
    reader.error(get("step")!, "search.step", "`step` must be longer than zero", "e.g. `10s`");
    return undefined;
  }
  if (
    fromPerSec === undefined || maxPerSec === undefined || stepMs === undefined ||
    warmupMs === undefined || cooldownMs === undefined || soakMs === undefined ||
    precision === undefined
  ) return undefined;
  return {
    fromPerSec,
    maxPerSec,
    stepMs,
    warmupMs,
    cooldownMs,
    precision,
    soakMs,
    line: node.pos.line,
  };
}

/** Whole seconds a trend or a stall count needs (one point per 1 s interval). */
const TIME_DOMAIN_MIN_MS = 10_000;

/**
 * Warns when the search's steps are too short for its SLOs: a step at `from` that cannot send the
 * requests a percentile or error-rate SLO needs to pass (it is repeated longer, then ends the
 * search inconclusive), or a `trend`/`stalls` SLO with steps under 10 s (always inconclusive).
 */
export function warnSearchSteps(
  reader: PlanReader,
  node: YamlNode,
  search: PlanSearch,
  slos: readonly Slo[],
): void {
  const planned = search.fromPerSec * search.stepMs / 1000;
  for (const slo of slos) {
    if (slo.label !== undefined) continue;
    const m = slo.metric;
    const needed = m.kind === "percentile" || (m.kind === "error_rate" && slo.bound > 0)
      ? requestsToPassSlo(m, slo.bound)
      : undefined;
    if (needed !== undefined && planned < needed) {
      const stepMs = Math.ceil(needed / search.fromPerSec) * 1000;
      reader.warn(
        node,
        "search.step",
        `a step at \`from: ${formatRatePerSec(search.fromPerSec)}\` sends about ` +
          `${Math.floor(planned)} requests, and \`${slo.text}\` cannot pass with fewer than ` +
          `${needed}: the first steps will be repeated longer or end the search inconclusive`,
        `raise \`step\` to ${formatLengthMs(stepMs, { compact: true })} or \`from\` to ${
          formatRatePerSec(Math.ceil(needed / (search.stepMs / 1000)))
        }`,
      );
    }
    if ((m.kind === "trend" || m.kind === "stalls") && search.stepMs < TIME_DOMAIN_MIN_MS) {
      reader.warn(
        node,
        "search.step",
        `\`${slo.text}\` needs ${TIME_DOMAIN_MIN_MS / 1000}s of a stage, and each step measures ` +
          `${formatDurationMs(search.stepMs)}: it stays inconclusive at every rate`,
        `raise \`step\` to ${TIME_DOMAIN_MIN_MS / 1000}s or more (12s leaves room for a ` +
          "partial first second)",
      );
    }
  }
}
