/**
 * Reads a plan file from disk and parses it with the real environment: the I/O edge of the plan
 * code. A file that cannot be read becomes an issue like any other, never an exception.
 *
 * @module
 */
import { dirname } from "node:path";
import { parsePlan, type PlanParse, wholeFileIssue } from "./parse_plan.ts";

/** Options for {@linkcode loadPlan}. */
export interface LoadPlanOptions {
  /** When false (`tailgate check`), unset `${env.X}` variables are warnings; before a run they are errors. */
  requireEnv: boolean;
  /** Environment lookup; defaults to `Deno.env.get`. */
  env?: (name: string) => string | undefined;
}

/**
 * Reads and parses the plan at `file`.
 *
 * @example
 * ```ts
 * import { loadPlan } from "./load_plan.ts";
 * const { plan, issues } = await loadPlan("plans/demo.yaml", { requireEnv: false });
 * ```
 */
export async function loadPlan(file: string, options: LoadPlanOptions): Promise<PlanParse> {
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(file);
    if (info.isDirectory) {
      return unreadable(file, "is a directory", "name a plan file, e.g. plans/demo.yaml");
    }
    bytes = await Deno.readFile(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return unreadable(file, "does not exist", "check the path");
    }
    if (e instanceof Deno.errors.PermissionDenied) {
      return unreadable(file, "cannot be read (permission denied)");
    }
    return unreadable(file, `cannot be read: ${(e as Error).message}`);
  }
  return parsePlan(file, bytes, {
    env: options.env ?? ((name) => Deno.env.get(name)),
    fileSize: (path) => {
      try {
        const info = Deno.statSync(path);
        return info.isFile ? info.size : undefined;
      } catch {
        return undefined;
      }
    },
    planDir: dirname(file),
    requireEnv: options.requireEnv,
  });
}

function unreadable(file: string, what: string, hint?: string): PlanParse {
  return wholeFileIssue(file, `the plan file ${what}`, hint);
}
