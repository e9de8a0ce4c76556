/**
 * Pointing a plan at another base URL (`--target`, the A/B comparison's two targets): every
 * request keeps its path and query under the new base. Pure.
 *
 * @module
 */
import type { ResolvedPlan } from "./types.ts";

/**
 * Points every request at `base` instead of the plan's target, keeping paths and queries.
 *
 * @example
 * ```ts
 * import { retarget } from "./retarget.ts";
 * // retarget(plan, "http://127.0.0.1:9000") — requests keep their paths
 * ```
 */
export function retarget(plan: ResolvedPlan, base: string): ResolvedPlan {
  const newBase = base.replace(/\/$/, "");
  return {
    ...plan,
    target: newBase,
    requests: plan.requests.map((r) => {
      const url = new URL(r.url);
      const rest = plan.target && r.url.startsWith(plan.target)
        ? r.url.slice(plan.target.length)
        : url.pathname + url.search;
      return { ...r, url: new URL(newBase + (rest.startsWith("/") ? rest : `/${rest}`)).href };
    }),
  };
}
