/**
 * The command-line overrides of a plan's load, shared by `run`, `ab` and `check`: `--rate-scale F`,
 * `--duration-scale F`, `--stage SEL:key=value[,key=value]` (repeatable) and `--connections N`
 * (runner/plan/overrides/plan_overrides.ts applies them).
 *
 * @module
 */
import { parseStageOverride, type PlanOverrides, type StageOverride } from "../../plan/mod.ts";
import { err, ok, problems, type Result } from "../../model/mod.ts";

/** The options `parseArgs` reads for the overrides. */
export const OVERRIDE_OPTIONS = {
  "rate-scale": { type: "string" },
  "duration-scale": { type: "string" },
  stage: { type: "string", multiple: true },
  connections: { type: "string" },
} as const;

/** The help lines of the overrides, for each command's help. */
export const OVERRIDE_HELP =
  `  --rate-scale F     multiply every stage's rate by F (0.25, or 25%); SLOs bound to a
                     stage (\`at 20k/s\`) and throughput bounds follow their stages
  --duration-scale F multiply every stage's duration by F
  --stage S:K=V[,K=V] set a stage's rate, duration, ramp or over; S is its number (from 1)
                     or its name: --stage steady:duration=30s (repeatable; after the scales)
  --connections N    connections opened up front (the plan's load.connections)`;

/** The parsed values of {@linkcode OVERRIDE_OPTIONS}. */
export interface OverrideValues {
  "rate-scale"?: string;
  "duration-scale"?: string;
  stage?: string[];
  connections?: string;
}

/**
 * The overrides the values ask for (undefined when none), or the problems with them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readOverrideArgs } from "./override_args.ts";
 * assert.deepEqual(readOverrideArgs({ "rate-scale": "25%" }), { ok: true, value: { rateScale: 0.25 } });
 * ```
 */
export function readOverrideArgs(
  values: OverrideValues,
): Result<PlanOverrides | undefined> {
  const errors: string[] = [];
  const scale = (flag: "rate-scale" | "duration-scale") => {
    const text = values[flag];
    if (text === undefined) return undefined;
    const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(%?)\s*$/.exec(text);
    const value = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
    if (!(value > 0 && Number.isFinite(value))) {
      errors.push(`--${flag} \`${text}\`: give a factor above 0, e.g. 0.25 or 25%`);
      return undefined;
    }
    return value;
  };
  const rateScale = scale("rate-scale");
  const durationScale = scale("duration-scale");
  const stages: StageOverride[] = [];
  for (const text of values.stage ?? []) {
    const parsed = parseStageOverride(text);
    if (parsed.ok) stages.push(parsed.value);
    else errors.push(parsed.problems[0].message);
  }
  const connections = values.connections;
  if (connections !== undefined && !/^\d+$/.test(connections.trim())) {
    errors.push(`--connections \`${connections}\`: give a whole number, e.g. 100`);
  }
  if (errors.length) return err(problems(errors));
  const overrides: PlanOverrides = {
    ...(rateScale === undefined ? {} : { rateScale }),
    ...(durationScale === undefined ? {} : { durationScale }),
    ...(stages.length ? { stages } : {}),
    ...(connections === undefined ? {} : { connections: connections.trim() }),
  };
  return ok(Object.keys(overrides).length ? overrides : undefined);
}
