/**
 * Validates `export`: the receivers of the run's metrics, each a Prometheus remote-write URL or
 * an OTLP/HTTP base URL with the headers it needs. A URL or header may read `${env.NAME}` (a
 * secret: sent, never printed); a value drawn per request cannot go there.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import { type PlanReader, readSection } from "../read/mod.ts";
import { readHeaders } from "../requests/mod.ts";
import type { ExportTarget } from "../types.ts";
import { scalarTemplate, sentText, type TemplateScope } from "../traffic/mod.ts";
import { exportUrlProblem, printableUrl } from "./export_target.ts";

/** The exporters' kinds, in the order a plan names them. */
const KINDS = ["prometheus", "otlp"] as const;

/**
 * Reads `export:`, a list of exporters; every problem is an issue of its own, and an exporter in
 * error is left out.
 */
export function readExports(
  reader: PlanReader,
  node: YamlNode,
  scope: TemplateScope,
): ExportTarget[] {
  const items = node.kind === "seq" ? node.items : node.kind === "map" ? [node] : undefined;
  if (items === undefined) {
    reader.error(
      node,
      "export",
      "`export` must be a list of exporters",
      "e.g. `export: [{ prometheus: http://127.0.0.1:9090/api/v1/write }]`",
    );
    return [];
  }
  const onceScope: TemplateScope = {
    ...scope,
    captures: new Set(),
    sentOnce: "exports are sent once, after the run: a value drawn per request cannot go there",
  };
  const out: ExportTarget[] = [];
  items.forEach((item, i) => {
    const path = node.kind === "seq" ? `export[${i}]` : "export";
    const target = readExporter(reader, item, path, onceScope);
    if (target) out.push(target);
  });
  return out;
}

function readExporter(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  scope: TemplateScope,
): ExportTarget | undefined {
  const before = reader.issues.filter((i) => i.severity === "error").length;
  const s = readSection(reader, node, path, "exporter");
  if (s === undefined) return undefined;
  const given = KINDS.filter((k) => s.has(k));
  // A misspelt key (`prom:`) is an issue already, with its did-you-mean: no second one.
  const misspelt = reader.issues.filter((i) => i.severity === "error").length > before;
  if (given.length === 0 && misspelt) return undefined;
  if (given.length !== 1) {
    reader.error(
      node,
      path,
      given.length === 0
        ? "an exporter needs `prometheus` or `otlp`"
        : "an exporter is `prometheus` or `otlp`, not both",
      given.length === 0
        ? "e.g. `- { prometheus: http://127.0.0.1:9090/api/v1/write }`"
        : "give each its own item of the list",
    );
    return undefined;
  }
  const kind = given[0];
  const urlNode = s.at(kind)!;
  const written = s.get<string>(kind);
  let url: string | undefined;
  if (written !== undefined) {
    const startIssues = reader.issues.length;
    const t = scalarTemplate(reader, urlNode, `${path}.${kind}`, written, scope, "raw");
    const sent = sentText(t.parts);
    const secret = t.parts.some((p) => p.kind === "secret");
    // An unset variable in `tailgate check` is a warning already: its URL cannot be judged.
    const unset = reader.issues.length > startIssues;
    const problem = unset ? undefined : exportUrlProblem(kind, sent);
    if (problem) {
      reader.error(
        urlNode,
        `${path}.${kind}`,
        secret ? problem.message.replace(sent, printableUrl(written)) : problem.message,
        problem.hint,
      );
    } else url = sent;
  }
  const headers = s.has("headers")
    ? readHeaders(reader, s.at("headers")!, `${path}.headers`, scope)
    : [];
  const failed = reader.issues.filter((i) => i.severity === "error").length > before;
  if (failed || url === undefined || written === undefined) return undefined;
  return { kind, url, urlText: printableUrl(written), headers, line: node.pos.line };
}
