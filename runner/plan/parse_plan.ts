/**
 * From a plan file's bytes to a {@linkcode ResolvedPlan}: size and encoding checks, YAML syntax,
 * then validation. Pure: the world is reached only through the {@linkcode PlanContext}.
 *
 * @module
 */
import { parseYaml } from "./read/mod.ts";
import type { PlanIssue, ResolvedPlan } from "./types.ts";
import { applyOverrides, attributeIssues, type PlanOverrides } from "./overrides/mod.ts";
import { overriddenText } from "./overrides/mod.ts";
import { validatePlan } from "./validate_plan.ts";
import type { PlanContext } from "./requests/mod.ts";

/** Plans larger than this are refused: a plan is a page of YAML, not a data file. */
export const MAX_PLAN_BYTES = 1024 * 1024;

/** The outcome of reading a plan: the plan when it has no error, every issue, and the text. */
export interface PlanParse {
  /** The validated plan; absent when any issue is an error. */
  plan?: ResolvedPlan;
  /** Every problem found, errors and warnings. */
  issues: PlanIssue[];
  /** The decoded text (empty when the bytes were refused), for printing snippets. */
  text: string;
  /** The plan as the command-line overrides made it, when they changed a value. */
  overriddenText?: string;
}

/**
 * Parses and validates a plan file's bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePlan } from "./parse_plan.ts";
 * const bytes = new TextEncoder().encode("name: x\n");
 * const ctx = { env: () => undefined, fileSize: () => undefined, planDir: ".", requireEnv: true };
 * const { issues } = parsePlan("x.yaml", bytes, ctx);
 * const paths = issues.map((i) => i.path);
 * assert.ok(paths.includes("requests") && paths.includes("load"), paths.join()); // the missing `requests` and `load`
 * ```
 */
export function parsePlan(
  file: string,
  bytes: Uint8Array,
  ctx: PlanContext,
  overrides?: PlanOverrides,
): PlanParse {
  const whole = (message: string, hint?: string) => wholeFileIssue(file, message, hint);
  if (bytes.length > MAX_PLAN_BYTES) {
    return whole(
      `the file is ${bytes.length} bytes; a plan may be at most ${MAX_PLAN_BYTES}`,
      "is this the right file?",
    );
  }
  if (bytes.includes(0)) return whole("the file is binary, not YAML", "is this the right file?");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return whole("the file is not UTF-8 text", "save the plan as UTF-8");
  }
  // Line by line: one pattern over the whole text backtracked exponentially on a long `###` line.
  if (text.split(/\r\n|\r|\n/).every((line) => /^\s*(#.*)?$/.test(line))) {
    return { ...whole("the plan is empty", "start from plans/demo.yaml"), text };
  }
  const yaml = parseYaml(text);
  const syntax: PlanIssue[] = yaml.issues.map((i) => ({
    severity: "error",
    file,
    path: "",
    line: i.pos.line,
    col: i.pos.col,
    length: 1,
    message: i.code === "DUPLICATE_KEY" ? "this key appears twice in the same mapping" : i.message,
    hint: i.code === "DUPLICATE_KEY" ? "remove one of them" : i.hint ?? syntaxHint(i.code),
  }));
  if (yaml.root === undefined) {
    return { issues: syntax.length ? syntax : whole("the plan is empty").issues, text };
  }
  if (yaml.root.kind !== "map") {
    return {
      issues: [...syntax, {
        severity: "error",
        file,
        path: "",
        line: yaml.root.pos.line,
        col: yaml.root.pos.col,
        length: 1,
        message: "a plan is a mapping of keys (`name:`, `requests:`, `load:` ...)",
        hint: "start from plans/demo.yaml",
      }],
      text,
    };
  }
  const applied = overrides ? applyOverrides(yaml.root, overrides, file) : undefined;
  const validated = validatePlan(file, applied?.root ?? yaml.root, ctx, applied?.follow);
  const issues = applied
    ? [...applied.issues, ...attributeIssues(validated.issues, applied.edits)]
    : validated.issues;
  const failed = syntax.length > 0 || issues.some((i) => i.severity === "error");
  const plan = validated.plan && applied?.flags.length
    ? { ...validated.plan, overrides: applied.flags }
    : validated.plan;
  const all = [...syntax, ...issues].sort((a, b) => a.line - b.line || a.col - b.col);
  return {
    ...(!failed && plan ? { plan } : {}),
    issues: all,
    text,
    ...(applied?.edits.length ? { overriddenText: overriddenText(text, applied.edits) } : {}),
  };
}

/**
 * A parse that failed on the file as a whole (unreadable, too large, binary): one issue at 1:1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wholeFileIssue } from "./parse_plan.ts";
 * const parse = wholeFileIssue("p.yaml", "the plan is empty", "start from plans/demo.yaml");
 * assert.equal(parse.plan, undefined);
 * assert.deepEqual(parse.issues.map((i) => [i.line, i.col, i.message, i.hint]), [
 *   [1, 1, "the plan is empty", "start from plans/demo.yaml"],
 * ]);
 * ```
 */
export function wholeFileIssue(file: string, message: string, hint?: string): PlanParse {
  const issue = { severity: "error" as const, file, path: "", line: 1, col: 1, length: 1, message };
  return { issues: [hint ? { ...issue, hint } : issue], text: "" };
}

function syntaxHint(code: string): string | undefined {
  if (code === "TAB_AS_INDENT") return "indent with spaces, not tabs";
  if (code === "BAD_INDENT") return "check the indentation of this line against its parent";
  if (code === "MISSING_CHAR") return "a bracket or quote is not closed";
  return undefined;
}
