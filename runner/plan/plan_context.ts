/**
 * The world plan validation may consult: environment variables and files beside the plan.
 *
 * @module
 */

/**
 * What validation may ask of the world: environment variables and files beside the plan.
 *
 * @example
 * ```ts no-assert
 * import type { PlanContext } from "./plan_context.ts";
 * const ctx: PlanContext = {
 *   env: (name) => Deno.env.get(name),
 *   fileSize: () => undefined, // no body files beside this plan
 *   planDir: ".",
 *   requireEnv: true,
 * };
 * ```
 */
export interface PlanContext {
  /** The value of an environment variable, or undefined when it is unset. */
  env(name: string): string | undefined;
  /** Size in bytes of a file, or undefined when it is missing or not a file. */
  fileSize(path: string): number | undefined;
  /**
   * The bytes of a file, or undefined when it is missing, not a regular file or larger than
   * `maxBytes` (optional: without it, data files and template body files cannot be read).
   */
  readFile?(path: string, maxBytes: number): Uint8Array | undefined;
  /** Directory of the plan file, for relative body files. */
  planDir: string;
  /**
   * A path with every symbolic link resolved, or undefined when it does not exist (optional: without
   * it, paths are compared as written). Body files must lie in the plan's folder.
   */
  realPath?(path: string): string | undefined;
  /**
   * Whether a path is a folder (optional: without it, a service's `cwd` is not checked before
   * the run).
   */
  isFolder?(path: string): boolean;
  /** When false (`tailgate check`), an unset environment variable is a warning, not an error. */
  requireEnv: boolean;
}
