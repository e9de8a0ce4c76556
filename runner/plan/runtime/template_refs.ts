/**
 * What a request's template draws from: its references, and the var or data source each names.
 * Read by the schedule on the engine's thread (runner/plan/runtime/mod.ts).
 *
 * @module
 */
import type { PlanRequest, TemplateRef } from "../types.ts";

/**
 * Every reference a request's template draws, in order (repeats included).
 */
export function requestRefs(request: Omit<PlanRequest, "weight">): TemplateRef[] {
  const t = request.template;
  if (t === undefined) return [];
  const out: TemplateRef[] = [];
  for (const parts of [t.target, ...t.headers.map((h) => h.parts), t.body ?? []]) {
    for (const p of parts) if (p.kind === "ref") out.push(p.ref);
  }
  return out;
}

/** The var or data source a reference draws from. */
export function refOwner(ref: TemplateRef): string {
  return ref.kind === "var" ? ref.name : ref.source;
}
