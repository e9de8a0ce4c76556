/**
 * How an SLO follows its stages when a command line changes them (runner/plan/overrides/plan_overrides.ts):
 * the SLO binds the stages it judged before; when all of them moved by one ratio, its `at` rate
 * and a `throughput` bound move with them, written into the SLO line with the rest left as
 * written; when an override moved only some apart, the SLO judges fewer stages and a warning says
 * which. Pure.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import { parseSlo } from "../slo/mod.ts";
import { parseRamp, parseRatePerSec, rateText } from "../units.ts";

/** The new texts; an absent one is left as written. */
export interface SloRates {
  /** The new `at` rate (`5k/s`). */
  atRate?: string;
  /** The new bound of a `throughput` SLO (`4.9k/s`). */
  bound?: string;
}

/**
 * The SLO text with its `at` rate or `throughput` bound replaced.
 *
 * @example
 * ```ts
 * import { rewriteSloRates } from "./slo_follow.ts";
 * rewriteSloRates('p99 < 10ms at 20k/s for "GET /at 1k/s"', { atRate: "5k/s" });
 * // 'p99 < 10ms at 5k/s for "GET /at 1k/s"'
 * rewriteSloRates("throughput >= 19.5k/s", { bound: "4.875k/s" }); // "throughput >= 4.875k/s"
 * ```
 */
export function rewriteSloRates(text: string, rates: SloRates): string {
  // The label (`for "…"`) is free text: only what comes before it is rewritten.
  const forAt = text.search(/\s+for\s+"/);
  let head = forAt < 0 ? text : text.slice(0, forAt);
  const tail = forAt < 0 ? "" : text.slice(forAt);
  if (rates.atRate !== undefined) {
    head = head.replace(
      /(\bat\s+)(\S+)(\s*)$/,
      (_, at, _rate, space) => `${at}${rates.atRate}${space}`,
    );
  }
  if (rates.bound !== undefined) {
    head = head.replace(
      /^(\s*throughput\s*(?:<=|>=|<|>)\s*)(\S+)/,
      (_, lead) => `${lead}${rates.bound}`,
    );
  }
  return head + tail;
}

/** A stage's rates as the tree has them, when they read; `warmup` as written. */
export interface StageRates {
  from: number;
  to: number;
  constant: boolean;
  warmup: boolean;
}

/**
 * A stage's rates read from its YAML mapping (`rate`, or `ramp: A -> B`), when they read.
 *
 * @example
 * ```ts
 * import { parseYaml } from "../read/mod.ts";
 * import { stageRates } from "./slo_follow.ts";
 * stageRates(parseYaml("{ ramp: 1k/s -> 2k/s, over: 1m }").root!); // { from: 1000, to: 2000, constant: false, warmup: false }
 * ```
 */
export function stageRates(item: YamlNode): StageRates | undefined {
  const entry = (key: string) =>
    item.kind === "map" ? item.entries.find((e) => e.key === key)?.value : undefined;
  const warm = entry("warmup");
  const warmup = warm?.kind === "scalar" && warm.value === true;
  const rate = entry("rate");
  if (rate?.kind === "scalar" && rate.value !== null) {
    const r = parseRatePerSec(String(rate.value));
    return r.ok ? { from: r.value, to: r.value, constant: true, warmup } : undefined;
  }
  const ramp = entry("ramp");
  if (ramp?.kind !== "scalar" || typeof ramp.value !== "string") return undefined;
  const r = parseRamp(ramp.value);
  return r.ok
    ? { from: r.value.fromPerSec, to: r.value.toPerSec, constant: false, warmup }
    : undefined;
}

/** What becomes of one SLO: its new text, or the stages it no longer judges. */
export type SloFollowing =
  | { kind: "same" }
  | { kind: "moved"; text: string; stages: number[] }
  | { kind: "narrowed"; judged: number[]; kept: number[] };

/**
 * What becomes of the SLO `text` when the stages' rates went from `before` to `after` (0-based
 * stage indexes in the result).
 *
 * @example
 * ```ts
 * import { followStages } from "./slo_follow.ts";
 * const stage = (r: number) => ({ from: r, to: r, constant: true, warmup: false });
 * followStages("p99 < 5ms at 20k/s", [stage(20_000)], [stage(5_000)]); // { kind: "moved", text: "p99 < 5ms at 5k/s", stages: [0] }
 * ```
 */
export function followStages(
  text: string,
  before: ReadonlyArray<StageRates | undefined>,
  after: ReadonlyArray<StageRates | undefined>,
): SloFollowing {
  const parsed = parseSlo(text);
  if (!parsed.ok) return { kind: "same" };
  const at = parsed.value.atRatePerSec;
  const judged = before.flatMap((s, k) =>
    s && !s.warmup && (at === undefined || (s.constant && Math.abs(s.from - at) <= 1e-9 * at))
      ? [k]
      : []
  );
  const ratios = judged.map((k) => {
    const b = before[k]!, a = after[k];
    if (a === undefined) return NaN;
    const r = a.from / b.from;
    return Math.abs(a.to / b.to - r) <= 1e-9 * r ? r : NaN;
  });
  if (judged.length === 0 || ratios.every((r) => r === 1)) return { kind: "same" };
  if (ratios.every((r) => Math.abs(r - ratios[0]) <= 1e-9 * ratios[0])) {
    const newAt = at === undefined ? undefined : after[judged[0]]!.from;
    const bound = parsed.value.metric.kind === "throughput"
      ? parsed.value.bound * ratios[0]
      : undefined;
    if (newAt === undefined && bound === undefined) return { kind: "same" };
    const moved = rewriteSloRates(text, {
      ...(newAt === undefined ? {} : { atRate: rateText(newAt) }),
      ...(bound === undefined ? {} : { bound: rateText(bound) }),
    });
    return moved === text ? { kind: "same" } : { kind: "moved", text: moved, stages: judged };
  }
  if (at === undefined) return { kind: "same" };
  return { kind: "narrowed", judged, kept: judged.filter((_k, j) => ratios[j] === 1) };
}
