/**
 * Reads a plan file from disk and parses it with the real environment: the I/O edge of the plan
 * code. A file that cannot be read becomes an issue like any other, never an exception.
 *
 * @module
 */
import { dirname } from "node:path";
import { readRegularFile } from "../model/mod.ts";
import type { PlanOverrides } from "./overrides/mod.ts";
import { loadGrpcSupport } from "./grpc/mod.ts";
import { MAX_PLAN_BYTES, parsePlan, type PlanParse, wholeFileIssue } from "./parse_plan.ts";

/** Options for {@linkcode loadPlan}. */
export interface LoadPlanOptions {
  /** When false (`tailgate check`), unset `${env.X}` variables are warnings; before a run they are errors. */
  requireEnv: boolean;
  /** Environment lookup; defaults to `Deno.env.get`. */
  env?: (name: string) => string | undefined;
  /** Command-line overrides of the plan's load (runner/plan/overrides/plan_overrides.ts). */
  overrides?: PlanOverrides;
}

/**
 * Reads and parses the plan at `file`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadPlan } from "./load_plan.ts";
 * const { plan, issues } = await loadPlan("plans/demo.yaml", { requireEnv: false });
 * assert.equal(issues.filter((i) => i.severity === "error").length, 0);
 * assert.ok(plan);
 * ```
 */
export async function loadPlan(file: string, options: LoadPlanOptions): Promise<PlanParse> {
  // A device (/dev/zero), a pipe or a socket could be read without end, or block forever.
  const read = await readRegularFile(file, MAX_PLAN_BYTES);
  if (!read.ok) {
    const [why] = read.problems;
    if (why.kind === "too_large") {
      return wholeFileIssue(
        file,
        `the file is ${why.sizeBytes} bytes; a plan may be at most ${MAX_PLAN_BYTES}`,
        "is this the right file?",
      );
    }
    const hint = why.kind === "missing"
      ? "check the path"
      : why.kind === "unreadable"
      ? undefined
      : "name a plan file, e.g. plans/demo.yaml";
    return wholeFileIssue(file, `the plan file ${why.reason}`, hint);
  }
  const bytes = read.value;
  // protobufjs is loaded only for a plan that may have gRPC calls (runner/plan/grpc/).
  if (mentionsGrpc(bytes)) await loadGrpcSupport();
  return parsePlan(file, bytes, realContext(dirname(file), options), options.overrides);
}

/**
 * Parses plan text held in memory (a plan built by a program, or a doc example) with the real
 * environment; `file` names it in issues, and body files (`@path`) are found beside it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePlanText } from "./load_plan.ts";
 * const { plan, issues } = parsePlanText(`
 * name: inline
 * target: http://127.0.0.1:8080
 * requests: [{ name: GET /, path: / }]
 * load: { stages: [{ name: steady, rate: 10/s, duration: 1s }] }
 * `);
 * assert.equal(plan?.name, "inline");
 * assert.equal(issues.length, 0);
 * ```
 */
export function parsePlanText(
  text: string,
  options: Partial<LoadPlanOptions> & { file?: string } = {},
): PlanParse {
  const file = options.file ?? "plan.yaml";
  return parsePlan(
    file,
    new TextEncoder().encode(text),
    realContext(dirname(file), { requireEnv: options.requireEnv ?? true, env: options.env }),
    options.overrides,
  );
}

function realContext(planDir: string, options: LoadPlanOptions) {
  return {
    env: options.env ?? ((name: string) => Deno.env.get(name)),
    fileSize: (path: string) => {
      try {
        const info = Deno.statSync(path);
        return info.isFile ? info.size : undefined;
      } catch {
        return undefined;
      }
    },
    readFile: (path: string, maxBytes: number) => {
      try {
        const info = Deno.statSync(path);
        return info.isFile && info.size <= maxBytes ? Deno.readFileSync(path) : undefined;
      } catch {
        return undefined;
      }
    },
    planDir,
    isFolder: (path: string) => {
      try {
        return Deno.statSync(path).isDirectory;
      } catch {
        return false;
      }
    },
    realPath: (path: string) => {
      try {
        return Deno.realPathSync(path);
      } catch {
        return undefined;
      }
    },
    requireEnv: options.requireEnv,
  };
}

/** Whether a plan's text names `grpc` anywhere (a key, a target's scheme): then its gRPC support is loaded. */
function mentionsGrpc(bytes: Uint8Array): boolean {
  return /grpc/i.test(new TextDecoder().decode(bytes));
}
