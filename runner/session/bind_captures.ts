/**
 * Binding captured values into a request: each `{{name}}` capture becomes a secret part, written
 * as its place needs it (percent-encoded in a path, escaped in a JSON string, raw in a header).
 * A request whose only template was a captured header becomes a fixed request again, so the
 * engine sends it as one string. Pure.
 *
 * @module
 */
import type { PlanHeader, RequestBasics, TemplatePart } from "../plan/mod.ts";
import { wireTextProblem } from "../plan/mod.ts";
import { sentText } from "../plan/mod.ts";
import { encodeText } from "../engine/mod.ts";
import type { CapturedValue } from "../engine/mod.ts";
import { err, ok, problem, type Result } from "../model/mod.ts";

/**
 * `request` with every capture bound to its value in `values`, or why a value cannot be sent
 * where the plan puts it (a header cannot hold a line feed). Captures named in `later` (a journey's
 * own, taken by its steps as it runs) are left for the engine to render.
 */
export function bindCaptures<R extends RequestBasics>(
  request: R,
  values: ReadonlyMap<string, CapturedValue>,
  later: ReadonlySet<string> = new Set(),
): Result<R> {
  const t = request.template;
  if (t === undefined) return ok(request);
  const bind = (parts: TemplatePart[]): TemplatePart[] =>
    parts.map((p) => {
      if (p.kind !== "capture" || later.has(p.name)) return p;
      const v = values.get(p.name);
      if (v === undefined) throw new Error(`capture \`${p.name}\` bound before it was taken`);
      return {
        kind: "secret",
        value: encodeText(v.text, p.encoding, v.json),
        template: `{{${p.name}}}`,
      };
    });
  const headers: PlanHeader[] = [];
  for (const h of request.headers) {
    if (
      h.parts === undefined || !h.parts.some((p) => p.kind === "capture" && !later.has(p.name))
    ) {
      headers.push(h);
      continue;
    }
    const parts = bind(h.parts);
    const value = sentText(parts);
    const wire = wireTextProblem(value, "header_value");
    if (wire) {
      const names = h.parts.flatMap((p) => p.kind === "capture" ? [`\`${p.name}\``] : []);
      return err(problem(`${names.join(", ")} cannot go in header \`${h.name}\`: ${wire.message}`));
    }
    const { parts: _, ...plain } = h;
    headers.push(
      parts.some((p) => p.kind === "ref" || p.kind === "capture")
        ? { ...h, parts }
        : { ...plain, value },
    );
  }
  const target = bind(t.target);
  const body = t.body && bind(t.body);
  const fixed = (parts: TemplatePart[] | undefined) =>
    (parts ?? []).every((p) => p.kind === "text");
  if (fixed(target) && fixed(body) && headers.every((h) => h.parts === undefined)) {
    const { template: _, ...rest } = request;
    return ok({ ...rest, headers } as R);
  }
  return ok({
    ...request,
    headers,
    template: {
      target,
      headers: t.headers.map((h) => ({ name: h.name, parts: bind(h.parts) })),
      ...(body ? { body } : {}),
    },
  });
}
