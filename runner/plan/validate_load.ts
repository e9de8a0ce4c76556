/**
 * Validates `load`: connections, arrival model, seed, workers, the HTTP version (validate_http.ts)
 * and the stages of the rate profile.
 *
 * @module
 */
import type { YamlNode } from "./read/mod.ts";
import { join, type PlanReader, sourceText } from "./read/mod.ts";
import { readSection, type Section } from "./read/mod.ts";
import type { Arrival, PlanLoad, PlanStage, StageBinding } from "./types.ts";
import { PER_RUN_SEED_PLACEHOLDER } from "./traffic/mod.ts";
import { formatRatePerSec, parseRamp, parseRatePerSec } from "./units.ts";
import { readHttpVersion } from "./validate_http.ts";

/**
 * Reads the `load` mapping: the load, undefined when it is too broken to use, and what its stages
 * bind an SLO's `at` rate to, also when a stage is broken (undefined when a stage's rate is unknown).
 */
export function readLoad(
  reader: PlanReader,
  node: YamlNode,
  seedsDraws = false,
): { load?: PlanLoad; binding?: StageBinding[] } {
  const s = readSection(reader, node, "load", "load");
  if (s === undefined) return {};
  // Kinds, bounds and defaults are the plan language's.
  const connections = s.value<number>("connections");
  const maxConnections = s.get<number>("max_connections") ?? connections;
  if (maxConnections < connections) {
    reader.error(
      s.at("max_connections")!,
      "load.max_connections",
      `\`max_connections\` (${maxConnections}) is below \`connections\` (${connections})`,
      `raise it to at least ${connections}, or remove it`,
    );
  }
  const arrival = s.value<Arrival>("arrival");
  // No seed written: each run draws its own (measureRun); until then the placeholder.
  const seed = s.get<number>("seed");
  const seeded = seed === undefined
    ? { seed: PER_RUN_SEED_PLACEHOLDER, seedPerRun: true as const }
    : { seed };
  if (s.has("seed") && arrival !== "poisson" && !seedsDraws) {
    reader.warn(
      s.at("seed")!,
      "load.seed",
      "`seed` only matters with `arrival: poisson`, `vars`, `random` or `shuffle` data, or `trace`",
    );
  }
  const workers = s.value<number | "auto">("workers");
  const http = readHttpVersion(reader, s);
  const { stages, binding } = s.has("stages") ? readStages(reader, s.at("stages")!) : {};
  if (stages === undefined) return { binding };
  return {
    load: { connections, maxConnections, arrival, ...seeded, workers, stages, ...http },
    binding,
  };
}

function readStages(
  reader: PlanReader,
  node: YamlNode,
): { stages?: PlanStage[]; binding?: StageBinding[] } {
  const items = reader.list(node, "load.stages");
  if (items === undefined) return {};
  if (items.length === 0) {
    reader.error(
      node,
      "load.stages",
      "`stages` is empty",
      "add e.g. `- { rate: 1k/s, duration: 30s }`",
    );
    return {};
  }
  const stages: PlanStage[] = [];
  const bindings: (StageBinding | undefined)[] = [];
  let broken = false;
  items.forEach((item, index) => {
    const { stage, binding } = readStage(reader, item, index);
    if (stage) stages.push(stage);
    else broken = true;
    bindings.push(stage ?? binding);
  });
  const binding = bindings.every((b) => b !== undefined) ? bindings : undefined;
  if (!broken && stages.every((s) => s.warmup)) {
    reader.error(
      node,
      "load.stages",
      "every stage is a warmup, so nothing would be judged",
      "remove `warmup: true` from at least one stage",
    );
  }
  return broken ? { binding } : { stages, binding };
}

/** A stage, or (broken) what an `at` rate binds to when that much is known. */
function readStage(
  reader: PlanReader,
  item: YamlNode,
  index: number,
): { stage?: PlanStage; binding?: StageBinding } {
  const path = join("load.stages", index);
  const before = reader.issues.length;
  const s = readSection(reader, item, path, "stage");
  if (s === undefined) return {};
  // A misspelt key was reported already; "missing `rate`" on top of it would only repeat it.
  const misspelt = reader.issues.length > before;
  const warmup = s.get<boolean>("warmup");
  const stage = stageOf(reader, s, index, misspelt, warmup);
  if (stage || misspelt || warmup === undefined || (s.has("rate") && s.has("ramp"))) {
    return { stage };
  }
  const rate = s.at("rate");
  if (rate === undefined) return s.has("ramp") ? { binding: { kind: "ramp", warmup } } : {};
  const parsed = rate.kind === "scalar" && (typeof rate.value === "string" ||
      typeof rate.value === "number")
    ? parseRatePerSec(rate.value)
    : undefined;
  return parsed?.ok ? { binding: { kind: "constant", ratePerSec: parsed.value, warmup } } : {};
}

function stageOf(
  reader: PlanReader,
  s: Section,
  index: number,
  misspelt: boolean,
  warmup: boolean | undefined,
): PlanStage | undefined {
  const { path } = s;
  const item = s.node;
  const get = (k: string) => s.at(k);
  const name = s.get<string>("name");
  const line = item.pos.line;
  if (get("rate") && get("ramp")) {
    reader.error(
      get("ramp")!,
      join(path, "ramp"),
      "a stage has `rate` or `ramp`, not both",
      "split it into two stages",
    );
    return undefined;
  }
  if (get("rate")) {
    const ratePerSec = s.get<number>("rate");
    if (get("over")) {
      reader.error(
        get("over")!,
        join(path, "over"),
        "`over` goes with `ramp`; a `rate` stage takes `duration`",
        "rename it to `duration`",
      );
    }
    const durationNode = get("duration");
    if (!durationNode) {
      if (!get("over") && !misspelt) {
        reader.error(
          item,
          path,
          "this stage has a `rate` but no `duration`",
          "add e.g. `duration: 60s`",
        );
      }
      return undefined;
    }
    const durationMs = s.get<number>("duration");
    if (ratePerSec === undefined || durationMs === undefined || warmup === undefined) {
      return undefined;
    }
    checkScale(reader, [get("rate")!, join(path, "rate"), ratePerSec], [
      durationNode,
      join(path, "duration"),
      durationMs,
    ]);
    const stageName = name ?? `${sourceText(get("rate")!)} for ${sourceText(durationNode)}`;
    const stage: PlanStage = {
      kind: "constant",
      index,
      name: stageName,
      ratePerSec,
      durationMs,
      warmup,
      line,
    };
    const wording = `\`${sourceText(get("rate")!)}\` for \`${sourceText(durationNode)}\``;
    return plansOne(reader, get("rate")!, join(path, "rate"), stage, wording) ? stage : undefined;
  }
  if (get("ramp")) {
    const rampPath = join(path, "ramp");
    const text = reader.string(get("ramp")!, rampPath);
    if (text === undefined) return undefined;
    const ramp = parseRamp(text);
    for (const p of ramp.ok ? [] : ramp.problems) {
      reader.error(get("ramp")!, rampPath, p.message, p.hint);
    }
    if (!ramp.ok && ramp.problems.some((p) => p.side === undefined)) return undefined;
    const overNode = get("over");
    if (!overNode) {
      if (misspelt) return undefined;
      const hint = get("duration")
        ? "a ramp's length is `over`: rename `duration` to `over`"
        : "add e.g. `over: 2m`";
      reader.error(item, path, "this ramp has no `over`", hint);
      return undefined;
    }
    if (get("duration")) {
      reader.error(
        get("duration")!,
        join(path, "duration"),
        "a ramp takes `over`, not `duration`",
        "remove `duration`",
      );
    }
    const durationMs = s.get<number>("over");
    if (durationMs !== undefined && !(durationMs > 0)) {
      reader.error(overNode, join(path, "over"), "`over` must be above zero");
      return undefined;
    }
    if (!ramp.ok || durationMs === undefined || warmup === undefined) return undefined;
    const { fromPerSec, toPerSec } = ramp.value;
    const peak = Math.max(fromPerSec, toPerSec);
    checkScale(reader, [get("ramp")!, join(path, "ramp"), peak], [
      overNode,
      join(path, "over"),
      durationMs,
    ]);
    const stageName = name ?? `${text} over ${sourceText(overNode)}`;
    const stage: PlanStage = {
      kind: "ramp",
      index,
      name: stageName,
      fromPerSec,
      toPerSec,
      durationMs,
      warmup,
      line,
    };
    const wording = `\`${text}\` over \`${sourceText(overNode)}\``;
    return plansOne(reader, get("ramp")!, rampPath, stage, wording) ? stage : undefined;
  }
  if (misspelt) return undefined;
  reader.error(
    item,
    path,
    "this stage has neither `rate` nor `ramp`",
    "add `rate: 1k/s` with `duration`, or `ramp: 1k/s -> 10k/s` with `over`",
  );
  return undefined;
}

/**
 * The requests a stage plans: rate × duration, a ramp's mean rate × its length (the schedule sends
 * this many, rounded up).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plannedRequests } from "./validate_load.ts";
 * assert.equal(
 *   plannedRequests({
 *     kind: "ramp", index: 0, name: "up", fromPerSec: 1_000, toPerSec: 3_000, durationMs: 10_000,
 *     warmup: false, line: 1,
 *   }),
 *   20000,
 * );
 * ```
 */
export function plannedRequests(stage: PlanStage): number {
  const seconds = stage.durationMs / 1000;
  return stage.kind === "constant"
    ? stage.ratePerSec * seconds
    : (stage.fromPerSec + stage.toPerSec) / 2 * seconds;
}

/**
 * Refuses a stage that plans less than one request: it would send a single one at its start, and
 * a run of it measures nothing (a rate like `0.0000001/s` is a typo). True when the stage is fine.
 */
function plansOne(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  stage: PlanStage,
  wording: string,
): boolean {
  if (plannedRequests(stage) >= 1) return true;
  reader.error(
    node,
    path,
    `at ${wording} this stage plans less than one request (rate × duration)`,
    "raise the rate or lengthen the stage so that it plans at least one request, e.g. " +
      "`rate: 1/s` with `duration: 10s`",
  );
  return false;
}

/** Above this rate a plan is refused: no generator anywhere sends it (per plan, all shards). */
export const MAX_RATE_PER_SEC = 100_000_000;
/** Above this rate `check` warns: more than one machine's worth of tailgate. */
export const WARN_RATE_PER_SEC = 1_000_000;
/** A stage longer than this is refused. */
export const MAX_STAGE_MS = 30 * 24 * 3600_000;
/** A stage longer than this gets a warning. */
export const WARN_STAGE_MS = 24 * 3600_000;

/** Errors for absurd rates and durations, warnings for merely enormous ones. */
function checkScale(
  reader: PlanReader,
  [rateNode, ratePath, ratePerSec]: [YamlNode, string, number],
  [durationNode, durationPath, durationMs]: [YamlNode, string, number],
): void {
  if (ratePerSec > MAX_RATE_PER_SEC) {
    reader.error(
      rateNode,
      ratePath,
      `${formatRatePerSec(ratePerSec)} is beyond any generator (at most ` +
        `${formatRatePerSec(MAX_RATE_PER_SEC)} per plan)`,
      "a typo? rates read like `20k/s`; real loads this large are split across machines with " +
        "`--shard`",
    );
  } else if (ratePerSec > WARN_RATE_PER_SEC) {
    reader.warn(
      rateNode,
      ratePath,
      `${formatRatePerSec(ratePerSec)} is more than one machine sends (tailgate: about 100k/s ` +
        "per core)",
      "split the run across machines with `--shard i/n` and `tailgate merge`, or expect a " +
        "tool-limited run",
    );
  }
  const hours = durationMs / 3600_000;
  if (durationMs > MAX_STAGE_MS) {
    reader.error(
      durationNode,
      durationPath,
      `a stage of ${Math.round(hours)} h is longer than the ${MAX_STAGE_MS / 3600_000} h a ` +
        "stage may last",
      "a typo in the unit? (`10m` is ten minutes, `10h` ten hours)",
    );
  } else if (durationMs > WARN_STAGE_MS) {
    reader.warn(
      durationNode,
      durationPath,
      `a stage of ${Math.round(hours)} h: the run keeps every interval's histogram in memory`,
      "make sure that is meant; soak runs of a few hours are usually enough",
    );
  }
}
