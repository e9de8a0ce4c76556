/**
 * Which plans a CI job runs (the `plans` globs) and the output folder of each.
 *
 * @module
 */
import { globSync } from "node:fs";
import { posix } from "node:path";
import { historySlug } from "../../runner/history/mod.ts";
import { HISTORY_FOLDER } from "./history/mod.ts";

/**
 * Splits the `plans` input into patterns: one per line, blank lines and `#` comments dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planPatterns } from "./expand_plans.ts";
 * assert.deepEqual(planPatterns("plans/*.yaml\n!plans/wip-*.yaml\n"), ["plans/*.yaml", "!plans/wip-*.yaml"]);
 * ```
 */
export function planPatterns(input: string): string[] {
  return input.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
}

/**
 * The files under `cwd` that match any pattern and no `!pattern`, as sorted `/`-separated paths
 * relative to `cwd` (`**` matches any number of folders, including none).
 */
export function expandPlans(patterns: readonly string[], cwd: string): string[] {
  const include = patterns.filter((p) => !p.startsWith("!"));
  const exclude = patterns.filter((p) => p.startsWith("!")).map((p) => p.slice(1));
  if (include.length === 0) return [];
  const normalize = (p: string) => p.replaceAll("\\", "/");
  const excluded = new Set(exclude.length ? globSync(exclude, { cwd }).map(normalize) : []);
  const files = globSync(include, {
    cwd,
    withFileTypes: true,
  }).filter((entry) => entry.isFile()).map((entry) =>
    normalize(posix.relative(normalize(cwd), normalize(posix.join(entry.parentPath, entry.name))))
  );
  return [...new Set(files)].filter((f) => !excluded.has(f)).sort();
}

/** The out folder's copy of the committed histories, for the artifact: `<out>/baselines/`. */
export const BASELINES_FOLDER = "baselines";

/** Folders of the out folder that the Action writes itself, which no plan's folder may take. */
export const RESERVED_SLUGS: readonly string[] = [BASELINES_FOLDER, HISTORY_FOLDER];

/**
 * A distinct folder name for each plan: its path without the folder all plans share and without
 * the extension, slugged like a baseline name (`plans/api/orders.yaml` among `plans/*` gives
 * `api-orders`); a clash gets `-2`, `-3`, …, and so does a name the Action itself uses in the out
 * folder ({@linkcode RESERVED_SLUGS}: a plan named `baselines` must not write among the copied
 * histories).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planSlugs } from "./expand_plans.ts";
 * assert.deepEqual(planSlugs(["plans/a.yaml", "plans/api/orders.yaml"]), ["a", "api-orders"]);
 * ```
 */
export function planSlugs(plans: readonly string[]): string[] {
  const dirs = plans.map((p) => posix.dirname(p) === "." ? [] : posix.dirname(p).split("/"));
  let shared = 0;
  while (
    dirs.length > 0 && dirs.every((d) => d[shared] !== undefined && d[shared] === dirs[0][shared])
  ) {
    shared++;
  }
  const used = new Set<string>(RESERVED_SLUGS);
  return plans.map((plan) => {
    const rest = plan.split("/").slice(shared).join("/").replace(/\.ya?ml$/i, "");
    const base = historySlug(rest);
    let slug = base;
    for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
    used.add(slug);
    return slug;
  });
}
