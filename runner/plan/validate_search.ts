/**
 * Validates `search`: the capacity search's rates, step lengths, precision and gate.
 *
 * @module
 */
import type { YamlNode } from "./_yaml.ts";
import { defaultDurationMs, keysOf, keySpec, PLAN_LANGUAGE } from "./plan_language.ts";
import { join, type PlanReader } from "./plan_reader.ts";
import type { PlanSearch } from "./types.ts";
import { parseDurationMs, parsePercentFraction, parseRatePerSec } from "./units.ts";

/**
 * Reads `search:`. Returns undefined when a required value is missing or wrong (each problem is
 * an issue of its own).
 *
 * @example
 * ```yaml
 * search:
 *   from: 1k/s
 *   max: 100k/s
 *   step: 10s
 * ```
 */
export function readSearch(reader: PlanReader, node: YamlNode): PlanSearch | undefined {
  const f = reader.fields(
    node,
    "search",
    keysOf("search"),
    PLAN_LANGUAGE.search.synonyms,
    PLAN_LANGUAGE.search.misplaced,
  );
  if (f === undefined) return undefined;
  const get = (k: string) => f.get(k)?.value;
  for (const k of PLAN_LANGUAGE.search.required ?? []) {
    if (!f.has(k)) {
      reader.error(node, "search", `\`search\` needs \`${k}\``, `add e.g. \`${k}: 1k/s\``);
    }
  }
  const rate = (k: string) =>
    get(k) ? reader.unit(get(k)!, join("search", k), parseRatePerSec) : undefined;
  const duration = (k: string) =>
    get(k)
      ? reader.unit(get(k)!, join("search", k), parseDurationMs)
      : defaultDurationMs("search", k);
  const fromPerSec = rate("from");
  const maxPerSec = rate("max");
  const stepMs = duration("step");
  const warmupMs = duration("warmup");
  const cooldownMs = duration("cooldown");
  const soakMs = duration("soak");
  const precisionDefault = parsePercentFraction(String(keySpec("search", "precision").default));
  let precision: number | undefined = precisionDefault.ok ? precisionDefault.value : undefined;
  if (get("precision")) {
    const text = get("precision")!.kind === "scalar"
      ? String((get("precision") as { value: unknown }).value)
      : "";
    const parsed = parsePercentFraction(text);
    precision = parsed.ok ? parsed.value : undefined;
    if (!parsed.ok) {
      reader.error(get("precision")!, "search.precision", parsed.message, "e.g. `5%`");
    } else if (!(parsed.value > 0 && parsed.value < 1)) {
      precision = undefined;
      reader.error(
        get("precision")!,
        "search.precision",
        "`precision` must be above 0% and below 100%",
        "e.g. `5%`",
      );
    }
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
