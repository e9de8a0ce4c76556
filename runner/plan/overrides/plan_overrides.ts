/**
 * Command-line overrides of a plan's load (`tailgate run plan.yaml --rate-scale 0.25 --stage
 * steady:duration=30s --connections 100`), so one plan serves a short pull-request run and a long
 * nightly one. The overrides are applied to the plan's located YAML tree before it is validated,
 * so an overridden plan passes every check a written one does, with the same messages (each
 * naming the flag its value came from), and keeps the file's line numbers. The SLOs are bound to
 * the stages as written and follow them in the typed plan (follow_slos.ts). Pure.
 *
 * @module
 */
import type { YamlMap, YamlNode, YamlScalar } from "../read/mod.ts";
import { didYouMean } from "../read/mod.ts";
import { err, ok, problem, type Result } from "../../model/mod.ts";
import { join, PlanReader } from "../read/mod.ts";
import type { SloFollow } from "../slo/mod.ts";
import { readLoad } from "../validate_load.ts";
import { sloFollower, type StageRates, stageRates } from "./follow_slos.ts";
import type { OverrideEdit } from "./override_edit.ts";
import type { PlanIssue } from "../types.ts";
import { durationText, parseDurationMs, parseRamp, parseRatePerSec, rateText } from "../units.ts";

/** The keys `--stage` may set: a constant stage's `rate` and `duration`, a ramp's `ramp` and `over`. */
export const STAGE_OVERRIDE_KEYS: readonly StageOverrideKey[] = [
  "rate",
  "duration",
  "ramp",
  "over",
];

/** A key `--stage` may set. */
export type StageOverrideKey = "rate" | "duration" | "ramp" | "over";

/** One `--stage SEL:key=value[,key=value]`. */
export interface StageOverride {
  /** The stage: its 1-based number or its `name`. */
  stage: string;
  /** The values to set, in the plan language (`5k/s`, `30s`, `1k/s -> 5k/s`). */
  values: Partial<Record<StageOverrideKey, string>>;
  /** The flag as given, named in messages and recorded with the result. */
  flag: string;
}

/** The overrides a command line gives. */
export interface PlanOverrides {
  /** Every stage's rates multiplied by this (> 0). */
  rateScale?: number;
  /** Every stage's duration (`duration`, `over`) multiplied by this (> 0). */
  durationScale?: number;
  /** Values set on single stages, after the scales. */
  stages?: StageOverride[];
  /** `load.connections`, as written on the command line. */
  connections?: string;
  /**
   * `load.seed`, as written on the command line (`--seed 7`): a replay, not another load, so it is
   * no flag of {@linkcode overrideFlags} and keeps the plan's history.
   */
  seed?: string;
}

/**
 * What {@linkcode applyOverrides} gives: the tree to validate, its edits (an SLO's are added as
 * it follows its stages) and its problems.
 */
export interface AppliedOverrides {
  root: YamlNode;
  edits: OverrideEdit[];
  issues: PlanIssue[];
  /** The flags, in the canonical order, recorded with the result (`--rate-scale 0.25`). */
  flags: string[];
  /** Makes each SLO follow the stages it judged as written; absent when those do not read. */
  follow?: SloFollow;
}

/**
 * Parses one `--stage` value: `steady:duration=30s` or `2:rate=5k/s,duration=20s`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseStageOverride } from "./plan_overrides.ts";
 * assert.deepEqual(parseStageOverride("steady:duration=30s"), {
 *   ok: true,
 *   value: { stage: "steady", values: { duration: "30s" }, flag: "--stage steady:duration=30s" },
 * });
 * ```
 */
export function parseStageOverride(
  text: string,
): Result<StageOverride> {
  const colon = text.lastIndexOf(":", text.indexOf("="));
  const example = "e.g. `--stage steady:duration=30s` or `--stage 2:rate=5k/s,duration=20s`";
  if (colon <= 0) {
    return err(problem(`--stage \`${text}\`: name the stage first, ${example}`));
  }
  const values: StageOverride["values"] = {};
  for (const pair of text.slice(colon + 1).split(",")) {
    const eq = pair.indexOf("=");
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (eq <= 0 || value === "") {
      return err(problem(`--stage \`${text}\`: write key=value pairs, ${example}`));
    }
    if (!(STAGE_OVERRIDE_KEYS as readonly string[]).includes(key)) {
      const guess = didYouMean(key, STAGE_OVERRIDE_KEYS);
      const keys = STAGE_OVERRIDE_KEYS.map((k) => `\`${k}\``).join(", ");
      const mean = guess ? `; did you mean \`${guess}\`?` : "";
      return err(
        problem(`--stage \`${text}\`: \`${key}\` cannot be set${mean} (a stage's ${keys})`),
      );
    }
    values[key as keyof StageOverride["values"]] = value;
  }
  return ok({ stage: text.slice(0, colon).trim(), values, flag: `--stage ${text}` });
}

/**
 * The plan tree with the overrides applied (a copy; `root` is unchanged).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseYaml } from "../read/mod.ts";
 * import { applyOverrides } from "./plan_overrides.ts";
 * const root = parseYaml("load: { stages: [{ rate: 20k/s, duration: 60s }] }\nslo: [p99 < 5ms at 20k/s]\n").root!;
 * const applied = applyOverrides(root, { rateScale: 0.25 }, "plan.yaml");
 * assert.deepEqual(applied.edits.map((e) => e.text), ["5k/s"]); // the SLO follows while the plan is read
 * ```
 */
export function applyOverrides(
  root: YamlNode,
  overrides: PlanOverrides,
  file: string,
): AppliedOverrides {
  const tree = structuredClone(root);
  const edits: OverrideEdit[] = [];
  const issues: PlanIssue[] = [];
  const flags = overrideFlags(overrides);
  if (tree.kind !== "map") return { root: tree, edits, issues, flags };
  // The SLOs bind to the stages as written, read here on their own (their issues are the plan's),
  // and follow the rates the overrides give those stages.
  const writtenLoad = entry(root, "load");
  const read = writtenLoad && readLoad(new PlanReader(file), writtenLoad);
  const written = read && (read.load?.stages ?? read.binding);
  const factor = overrides.rateScale ?? 1;
  const after = (written ?? []).map((s) =>
    stageRates(s)?.map((r) => r * factor) as StageRates | undefined
  );
  const issue = (node: YamlNode, path: string, message: string, hint?: string) =>
    issues.push({
      severity: "error",
      file,
      path,
      line: node.pos.line,
      col: node.pos.col,
      length: 1,
      message,
      ...(hint ? { hint } : {}),
    });
  const load = entry(tree, "load");
  const stagesNode = load?.kind === "map" ? entry(load, "stages") : undefined;
  const stages = stagesNode?.kind === "seq" ? stagesNode.items : [];
  const set = (scalar: YamlScalar, path: string, text: string, flag: string) => {
    scalar.value = text;
    edits.push({ path, text, flag, replaced: scalar });
  };

  stages.forEach((item, i) => {
    if (item.kind !== "map") return;
    const path = join("load.stages", i);
    const scale = (key: string, factor: number | undefined, flag: string, fmt: Scaler) => {
      const node = entry(item, key);
      if (factor === undefined || node?.kind !== "scalar" || node.value === null) return;
      const text = fmt(String(node.value), factor);
      if (text !== undefined) set(node, join(path, key), text, flag);
    };
    const rateFlag = `--rate-scale ${overrides.rateScale}`;
    const durationFlag = `--duration-scale ${overrides.durationScale}`;
    scale("rate", overrides.rateScale, rateFlag, scaleRate);
    scale("ramp", overrides.rateScale, rateFlag, scaleRamp);
    scale("duration", overrides.durationScale, durationFlag, scaleDuration);
    scale("over", overrides.durationScale, durationFlag, scaleDuration);
  });

  for (const o of overrides.stages ?? []) {
    const index = stageIndex(stages, o.stage);
    if (index === undefined) {
      const names = stages.map((s, i) => {
        const name = s.kind === "map" ? entry(s, "name") : undefined;
        return name?.kind === "scalar" && name.value !== null
          ? `${i + 1} (${name.value})`
          : `${i + 1}`;
      });
      issue(
        stagesNode ?? tree,
        "load.stages",
        `\`${o.flag}\`: the plan has no stage \`${o.stage}\``,
        stages.length ? `name one of its stages: ${names.join(", ")}` : "the plan has no stages",
      );
      continue;
    }
    const item = stages[index] as YamlMap;
    for (const [key, text] of Object.entries(o.values)) {
      const path = join(join("load.stages", index), key);
      const node = entry(item, key);
      if (node?.kind === "scalar") {
        set(node, path, text, o.flag);
        if (key === "rate" || key === "ramp") after[index] = ratesOf(key, text);
      } else {
        const other = key === "rate" || key === "duration"
          ? "a ramp (`ramp`, `over`)"
          : "a `rate` stage (`rate`, `duration`)";
        issue(
          item,
          path,
          `\`${o.flag}\`: stage ${index + 1} has no \`${key}\` to set`,
          `it is ${other}; set those keys instead`,
        );
      }
    }
  }

  // A whole number set on `load`, replacing the plan's or added before its first key.
  const anchor = load?.kind === "map" ? load.entries[0]?.keyPos : undefined;
  const setLoad = (key: "connections" | "seed", text: string, flag: string) => {
    if (load?.kind !== "map") return;
    const value = /^\d+$/.test(text) ? Number(text) : text;
    const node = entry(load, key);
    const path = `load.${key}`;
    if (node?.kind === "scalar") {
      node.value = value;
      edits.push({ path, text, flag, replaced: node });
    } else if (node === undefined) {
      const scalar: YamlScalar = {
        kind: "scalar",
        pos: load.pos,
        offset: load.offset,
        value,
        contentOffset: load.offset,
        quoted: false,
        length: 1,
      };
      load.entries.unshift({ key, keyPos: load.pos, value: scalar });
      edits.push({ path, text, flag, parent: load, ...(anchor ? { anchor } : {}) });
    }
  };
  if (overrides.connections !== undefined) {
    setLoad("connections", overrides.connections, `--connections ${overrides.connections}`);
  }
  if (overrides.seed !== undefined) setLoad("seed", overrides.seed, `--seed ${overrides.seed}`);

  const follow = written ? { follow: sloFollower(written, after, edits) } : {};
  return { root: tree, edits, issues, flags, ...follow };
}

/**
 * The flags of `overrides` as a command line would give them, in one order; not `--seed`, which
 * changes which values are drawn, not the load (a run with it keeps the plan's history).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { overrideFlags } from "./plan_overrides.ts";
 * assert.deepEqual(overrideFlags({ rateScale: 0.5, connections: "100" }), [
 *   "--rate-scale 0.5",
 *   "--connections 100",
 * ]);
 * ```
 */
export function overrideFlags(overrides: PlanOverrides): string[] {
  return [
    ...(overrides.rateScale === undefined ? [] : [`--rate-scale ${overrides.rateScale}`]),
    ...(overrides.durationScale === undefined
      ? []
      : [`--duration-scale ${overrides.durationScale}`]),
    ...(overrides.stages ?? []).map((s) => s.flag),
    ...(overrides.connections === undefined ? [] : [`--connections ${overrides.connections}`]),
  ];
}

/**
 * Names the flag behind each issue about an overridden value, so a message about `5k/s` on a
 * line that reads `20k/s` explains itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { attributeIssues } from "./plan_overrides.ts";
 * const issue = { severity: "error" as const, file: "p.yaml", path: "load.stages[0].rate", line: 3, col: 5, length: 4, message: "too fast" };
 * const [attributed] = attributeIssues([issue], [{ path: "load.stages[0].rate", text: "5M/s", flag: "--rate-scale 100" }]);
 * assert.equal(attributed.message, "too fast (the value 5M/s comes from `--rate-scale 100`)");
 * ```
 */
export function attributeIssues(issues: PlanIssue[], edits: OverrideEdit[]): PlanIssue[] {
  return issues.map((issue) => {
    // An issue about the value, or about the stage or section that holds it.
    const edit = issue.path === ""
      ? undefined
      : edits.find((e) =>
        [issue.path, e.path].some((p, i, both) =>
          p === both[1 - i] || p.startsWith(`${both[1 - i]}.`)
        ) || RELATED[e.path]?.includes(issue.path)
      );
    return edit
      ? {
        ...issue,
        message: `${issue.message} (the value ${edit.text} comes from \`${edit.flag}\`)`,
      }
      : issue;
  });
}

/** Values whose rules read an overridden one: `max_connections` is checked against `connections`. */
const RELATED: Record<string, string[]> = { "load.connections": ["load.max_connections"] };

type Scaler = (text: string, factor: number) => string | undefined;

const scaleRate: Scaler = (text, factor) => {
  const r = ratesOf("rate", text);
  return r && rateText(r[0] * factor);
};

const scaleRamp: Scaler = (text, factor) => {
  const r = ratesOf("ramp", text);
  return r && `${rateText(r[0] * factor)} -> ${rateText(r[1] * factor)}`;
};

const scaleDuration: Scaler = (text, factor) => {
  const d = parseDurationMs(text);
  return d.ok ? durationText(d.value * factor) : undefined;
};

/** The rates a `rate` or `ramp` value gives, when it reads. */
function ratesOf(key: "rate" | "ramp", text: string): StageRates | undefined {
  if (key === "rate") {
    const r = parseRatePerSec(text);
    return r.ok ? [r.value, r.value] : undefined;
  }
  const r = parseRamp(text);
  return r.ok ? [r.value.fromPerSec, r.value.toPerSec] : undefined;
}

function entry(map: YamlNode, key: string): YamlNode | undefined {
  return map.kind === "map" ? map.entries.find((e) => e.key === key)?.value : undefined;
}

function stageIndex(stages: YamlNode[], selector: string): number | undefined {
  if (/^\d+$/.test(selector)) {
    const n = Number(selector);
    return n >= 1 && n <= stages.length ? n - 1 : undefined;
  }
  const i = stages.findIndex((s) => {
    const name = entry(s, "name");
    return name?.kind === "scalar" && String(name.value) === selector;
  });
  return i < 0 ? undefined : i;
}
