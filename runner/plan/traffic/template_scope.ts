/**
 * What a plan's templates may name: its vars and data sources, with the checks that need their
 * values (a value a header cannot hold: wire_rules.ts), and the warning for one that nothing uses.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import type { PlanContext } from "../plan_context.ts";
import { join, type PlanReader } from "../read/mod.ts";
import type { PlanDataSource, PlanRequest, PlanVar, TemplateRef } from "../types.ts";
import type { TemplateScope } from "./parse_template.ts";
import { printable } from "../printable.ts";
import { NOT_ON_THE_WIRE, wireTextProblem } from "../wire_rules.ts";
import { firstRowMatching, valueAt } from "../runtime/mod.ts";
import { refOwner, requestRefs } from "../runtime/mod.ts";

/** What a header value cannot hold, named: "a line feed (`\n`)". */
const unfitForHeader = (value: string) => wireTextProblem(value, "header_value")?.char;

/**
 * The scope of a plan's templates. A var and a data source may not share a name.
 */
export function templateScope(
  reader: PlanReader,
  dataNode: YamlNode | undefined,
  varsNode: YamlNode | undefined,
  data: readonly PlanDataSource[],
  vars: readonly PlanVar[],
  ctx: PlanContext,
): TemplateScope {
  const varNames = new Set(vars.map((v) => v.name));
  const declared = (node: YamlNode | undefined) =>
    node?.kind === "map" ? node.entries.map((e) => e.key) : [];
  const broken = new Set([
    ...declared(dataNode).filter((k) => !data.some((d) => d.name === k)),
    ...declared(varsNode).filter((k) => !varNames.has(k)),
  ]);
  const sources = new Map<string, readonly string[]>();
  for (const d of data) {
    if (varNames.has(d.name)) {
      const at = dataNode?.kind === "map"
        ? dataNode.entries.find((e) => e.key === d.name)
        : undefined;
      reader.errorAt(
        at?.keyPos ?? { line: d.line, col: d.col },
        d.name.length,
        join("data", d.name),
        `\`${d.name}\` is both a var and a data source`,
        "rename one of them",
      );
    } else sources.set(d.name, d.columns);
  }
  const byName = new Map(data.map((d) => [d.name, d]));
  const byVar = new Map(vars.map((v) => [v.name, v]));
  return {
    vars: varNames,
    sources,
    broken,
    env: ctx.env,
    requireEnv: ctx.requireEnv,
    unsafeInHeader(ref: TemplateRef): string | undefined {
      if (ref.kind === "var") {
        const spec = byVar.get(ref.name)?.spec;
        if (spec?.kind !== "choice") return undefined;
        const bad = spec.values.map(String).find(unfitForHeader);
        return bad === undefined
          ? undefined
          : `choice "${printable(bad)}" of var \`${ref.name}\` holds ${unfitForHeader(bad)}`;
      }
      const d = byName.get(ref.source)!;
      const column = d.text[d.columns.indexOf(ref.column)];
      const row = firstRowMatching(column, NOT_ON_THE_WIRE.header_value);
      return row < 0 ? undefined : `row ${row + 1} of \`${printable(d.file)}\` holds ` +
        `${unfitForHeader(valueAt(column, row))} in \`${printable(ref.column)}\``;
    },
  };
}

/**
 * Warns of each var and data source that no request's template uses.
 */
export function warnUnused(
  reader: PlanReader,
  dataNode: YamlNode | undefined,
  varsNode: YamlNode | undefined,
  data: readonly PlanDataSource[],
  vars: readonly PlanVar[],
  requests: readonly Omit<PlanRequest, "weight">[],
): void {
  const used = new Set<string>();
  for (const r of requests) for (const ref of requestRefs(r)) used.add(refOwner(ref));
  const warn = (node: YamlNode | undefined, section: string, name: string, what: string) => {
    const entry = node?.kind === "map" ? node.entries.find((e) => e.key === name) : undefined;
    if (entry === undefined || used.has(name)) return;
    reader.warn(
      { pos: entry.keyPos, length: name.length },
      join(section, name),
      `${what} \`${name}\` is not used by any request`,
      `write \`{{${name}${
        what === "data source" ? ".column" : ""
      }}}\` in a path, header or body, or remove it`,
    );
  };
  for (const d of data) warn(dataNode, "data", d.name, "data source");
  for (const v of vars) warn(varsNode, "vars", v.name, "var");
}
