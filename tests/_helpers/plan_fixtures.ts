/**
 * Helpers for plan tests: parse YAML text with a fake environment and file system.
 *
 * @module
 */
import { parsePlan, type PlanParse } from "../../runner/plan/parse_plan.ts";
import type { PlanContext } from "../../runner/plan/requests/validate_requests.ts";

/** A minimal valid plan; tests append or replace parts of it. */
export const MINIMAL_PLAN = `name: t
target: http://127.0.0.1:8080
requests:
  - path: /
load:
  stages:
    - { rate: 1k/s, duration: 10s }
`;

/**
 * Parses `text` as the plan `t.yaml` with the given environment and existing files.
 *
 * @example
 * ```ts
 * const { plan } = parseText(MINIMAL_PLAN);
 * ```
 */
export function parseText(
  text: string,
  opts: { env?: Record<string, string>; files?: Record<string, number>; requireEnv?: boolean } = {},
): PlanParse {
  const ctx: PlanContext = {
    env: (name) => opts.env?.[name],
    fileSize: (path) => opts.files?.[path],
    planDir: "/plans",
    requireEnv: opts.requireEnv ?? true,
  };
  return parsePlan("t.yaml", new TextEncoder().encode(text), ctx);
}

/** The error issues of a parse, as `line:col message` strings, for compact assertions. */
export function errorsOf(parse: PlanParse): string[] {
  return parse.issues.filter((i) => i.severity === "error").map((i) =>
    `${i.line}:${i.col} ${i.message}`
  );
}
