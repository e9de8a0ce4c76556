/**
 * What a whole-value template in a gRPC message (`qty: "{{n}}"`) can draw, for
 * validate_message.ts to check against the field: a var's kinds of value, and a data column's
 * every row (the plan's data is bounded by MAX_PLAN_DATA_CELLS). No protobufjs here: the plan
 * builds these before gRPC support checks a message.
 *
 * @module
 */
import type { PlanDataSource, PlanVar, PlanVarSpec } from "../types.ts";
import { valueAt } from "../traffic/mod.ts";

/** One value a template can draw, and how a message names it (`a uuid`, `row 3 of users.id`). */
export interface DrawnValue {
  value: string | number | boolean | null;
  what: string;
}

/**
 * What each whole-value template (`{{n}}`, `{{users.id}}`) can draw, by its name: a var's kinds of
 * value, a data column's every row; `hint` says how to fix a value that does not fit.
 */
export type Draws = ReadonlyMap<string, Drawn>;

/** What one template can draw; `column`: a data column's rows (else a var's kinds of value). */
export interface Drawn {
  values: Iterable<DrawnValue>;
  hint: string;
  column?: true;
}

/**
 * What a var draws, as values to check: a counter's and an int's bounds, a uuid, each choice.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { varDraws } from "./message_draws.ts";
 * assert.deepEqual(varDraws({ kind: "int", min: 1, max: 20 }).values.map((d) => d.value), [1, 20]);
 * ```
 */
export function varDraws(spec: PlanVarSpec): Drawn & { values: DrawnValue[] } {
  const values: DrawnValue[] = spec.kind === "counter"
    ? [{ value: 1, what: "`1`" }]
    : spec.kind === "int"
    ? [spec.min, spec.max].map((n) => ({ value: n, what: `\`${n}\`` }))
    : spec.kind === "uuid"
    ? [{ value: "00000000-0000-4000-8000-000000000000", what: "a uuid" }]
    : spec.values.map((v) => ({ value: v, what: `the choice \`${v}\`` }));
  return { values, hint: "draw values of the field's type, or put the template in a text field" };
}

/**
 * Every var's and every data column's draws, by the name a template gives them (`n`,
 * `users.id`): a CSV cell as its text, a JSONL field as its JSON value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { messageDraws } from "./message_draws.ts";
 * const draws = messageDraws([{ name: "n", spec: { kind: "counter" }, text: "counter", line: 1 }], []);
 * assert.deepEqual([...draws.get("n")!.values].map((d) => d.value), [1]);
 * ```
 */
export function messageDraws(vars: readonly PlanVar[], data: readonly PlanDataSource[]): Draws {
  const out = new Map<string, Drawn>();
  for (const v of vars) out.set(v.name, varDraws(v.spec));
  for (const source of data) {
    source.columns.forEach((column, c) => {
      const name = `${source.name}.${column}`;
      out.set(name, {
        // Walked afresh by each template that names it.
        values: { [Symbol.iterator]: () => rows(source, c, name) },
        hint: `fix the data file \`${source.file}\`, or put the template in a text field`,
        column: true,
      });
    });
  }
  return out;
}

function* rows(source: PlanDataSource, c: number, name: string): Generator<DrawnValue> {
  for (let r = 0; r < source.rows; r++) {
    const json = source.json?.[c];
    let value: DrawnValue["value"] = valueAt(source.text[c], r);
    if (json !== undefined) {
      const parsed = JSON.parse(valueAt(json, r));
      if (parsed !== null && typeof parsed === "object") continue;
      value = parsed;
    }
    yield { value, what: `\`${value}\` (row ${r + 1} of ${name})` };
  }
}
