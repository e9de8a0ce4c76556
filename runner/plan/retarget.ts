/**
 * Pointing a plan at another base URL (`--target`, the A/B comparison's two targets): every
 * request keeps its path and query under the new base. Pure.
 *
 * @module
 */
import type { PlanStep, RequestBasics, ResolvedPlan } from "./types.ts";
import { mixLabels } from "./requests/mod.ts";

/**
 * Points every request and journey step at `base` instead of the plan's target, keeping paths
 * and queries; so are the setup and teardown steps sent to the requests' origin. A gRPC plan
 * takes a `grpc://` or `grpcs://` base (kept as its printable target; its calls go to the http(s)
 * form, and `grpcs://` or `https://` makes its calls TLS).
 */
export function retarget(plan: ResolvedPlan, base: string): ResolvedPlan {
  const written = base.replace(/\/$/, "");
  const newBase = written.replace(/^grpc(s?):\/\//i, "http$1://");
  const basePath = (u: string) => new URL(u).pathname.replace(/\/$/, "");
  const move = <R extends RequestBasics>(r: R): R => {
    const url = new URL(r.url);
    const underTarget = plan.target !== undefined && r.url.startsWith(plan.target);
    const rest = underTarget ? r.url.slice(plan.target!.length) : url.pathname + url.search;
    const joined = newBase + (rest.startsWith("/") ? rest : `/${rest}`);
    if (r.template === undefined) return { ...r, url: new URL(joined).href };
    // A templated URL is kept as written; its request-target moves from the old base path to
    // the new one (`http://h/api` + `/users/{{id}}` to `http://h2/v2` + `/users/{{id}}`).
    const [from, to] = underTarget ? [basePath(plan.target!), basePath(newBase)] : ["", ""];
    const [first, ...others] = r.template.target;
    const target = first?.kind === "text" && first.text.startsWith(from)
      ? [{ kind: "text" as const, text: to + first.text.slice(from.length) }, ...others]
      : r.template.target;
    return { ...r, url: joined, template: { ...r.template, target } };
  };
  // A step at the requests' origin moves with them; one elsewhere (a login service) stays.
  const origin = new URL(mixLabels(plan).requests[0].url).origin;
  const moveStep = (s: PlanStep) => new URL(s.url).origin === origin ? move(s) : s;
  return {
    ...plan,
    target: plan.grpc ? written.replace(/^http(s?):\/\//i, "grpc$1://") : newBase,
    ...(plan.grpc ? { grpc: { ...plan.grpc, tls: /^https:/i.test(newBase) } } : {}),
    requests: plan.requests.map(move),
    ...(plan.journeys
      ? { journeys: plan.journeys.map((j) => ({ ...j, steps: j.steps.map(move) })) }
      : {}),
    ...(plan.setup ? { setup: plan.setup.map(moveStep) } : {}),
    ...(plan.teardown ? { teardown: plan.teardown.map(moveStep) } : {}),
  };
}
