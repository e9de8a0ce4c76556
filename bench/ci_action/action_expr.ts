/**
 * The part of GitHub Actions' expression language that action.yml uses, for running its shell
 * steps here (action_job.ts): `${{ … }}` in a value, and a step's `if:`. Contexts are paths
 * (`inputs.fail-on`, `steps.run.outputs.verdict`, `github.event_name`) looked up by the caller;
 * operators `!`, `&&`, `||`, `==`, `!=` (strings compared case-insensitively, as GitHub does),
 * parentheses, string, number and boolean literals, and the status functions `success()`,
 * `failure()`, `always()`, `cancelled()`. Anything else is refused by name, so a new construct in
 * action.yml stops the study instead of being misread.
 *
 * @module
 */

/** A context path's value; undefined when the context has no such path (then it reads as ""). */
export type Lookup = (path: string) => string | undefined;

type Value = string | number | boolean;

/** What an expression is evaluated with. */
export interface ExprContext {
  lookup: Lookup;
  /** An earlier step failed (for `success()` and `failure()`). */
  failed: boolean;
}

const TOKEN =
  /\s*(\(|\)|&&|\|\||==|!=|!|'(?:[^']|'')*'|-?\d+(?:\.\d+)?|[A-Za-z_][\w.-]*\(\)|[A-Za-z_][\w.-]*)/y;

function tokens(text: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const m = TOKEN.exec(text);
    if (!m) {
      throw new Error(`action.yml expression \`${text}\`: cannot read it at ${TOKEN.lastIndex}`);
    }
    out.push(m[1]);
  }
  return out;
}

const truthy = (v: Value) => v !== "" && v !== 0 && v !== false;
const same = (a: Value, b: Value) =>
  typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b;

/**
 * Evaluates one expression (without `${{ }}`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate } from "./action_expr.ts";
 * const lookup = (p: string) => ({ "steps.settings.outputs.mode": "cache" } as Record<string, string>)[p];
 * assert.equal(evaluate("steps.settings.outputs.mode == 'CACHE'", { lookup, failed: false }), true);
 * assert.equal(evaluate("!cancelled() && inputs.x != ''", { lookup, failed: false }), false);
 * ```
 */
export function evaluate(text: string, ctx: ExprContext): Value {
  const t = tokens(text);
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(
      `action.yml expression \`${text}\`: ${what}; teach bench/ci_action/action_expr.ts it`,
    );
  };
  const primary = (): Value => {
    const tok = t[i++] ?? fail("ends early");
    if (tok === "(") {
      const v = or();
      if (t[i++] !== ")") fail("a `(` is not closed");
      return v;
    }
    if (tok === "!") return !truthy(primary());
    if (tok.startsWith("'")) return tok.slice(1, -1).replaceAll("''", "'");
    if (/^-?\d/.test(tok)) return Number(tok);
    if (tok === "true" || tok === "false") return tok === "true";
    if (tok.endsWith("()")) {
      const fn = tok.slice(0, -2);
      if (fn === "success") return !ctx.failed;
      if (fn === "failure") return ctx.failed;
      if (fn === "always") return true;
      if (fn === "cancelled") return false;
      return fail(`the function ${fn}() is not known here`);
    }
    if (/^[A-Za-z_]/.test(tok)) return ctx.lookup(tok) ?? "";
    return fail(`unexpected \`${tok}\``);
  };
  const comparison = (): Value => {
    const left = primary();
    if (t[i] === "==" || t[i] === "!=") {
      const op = t[i++];
      const right = primary();
      return op === "==" ? same(left, right) : !same(left, right);
    }
    return left;
  };
  const and = (): Value => {
    let v = comparison();
    while (t[i] === "&&") {
      i++;
      const r = comparison();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  const or = (): Value => {
    let v = and();
    while (t[i] === "||") {
      i++;
      const r = and();
      v = truthy(v) ? v : r;
    }
    return v;
  };
  const value = or();
  if (i !== t.length) fail(`unexpected \`${t[i]}\``);
  return value;
}

/**
 * A step's `if:` as GitHub decides it: without a status function it also needs `success()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stepRuns } from "./action_expr.ts";
 * const lookup = () => undefined;
 * assert.equal(stepRuns(undefined, { lookup, failed: true }), false);
 * assert.equal(stepRuns("${{ !cancelled() }}", { lookup, failed: true }), true);
 * ```
 */
export function stepRuns(condition: string | undefined, ctx: ExprContext): boolean {
  if (condition === undefined) return !ctx.failed;
  const text = condition.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, "$1");
  const status = /\b(success|failure|always|cancelled)\(\)/.test(text);
  return (status || !ctx.failed) && truthy(evaluate(text, ctx));
}

/**
 * A value with every `${{ … }}` replaced by its expression's value as text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { interpolate } from "./action_expr.ts";
 * const lookup = (p: string) => (p === "inputs.out" ? "tailgate-out" : undefined);
 * assert.equal(interpolate("${{ inputs.out }}/x", { lookup, failed: false }), "tailgate-out/x");
 * ```
 */
export function interpolate(text: string, ctx: ExprContext): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => String(evaluate(expr, ctx)));
}
