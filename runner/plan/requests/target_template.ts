/**
 * A request's path (or absolute URL) as a template: its literal text normalised as the URL parser
 * would send it, its drawn values percent-encoded, and its origin (scheme, host, port) literal. Its
 * literal text, `{{"…"}}` included, holds no control character (validate_url.ts).
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import type { PlanReader } from "../read/mod.ts";
import type { TemplatePart } from "../types.ts";
import { scalarTemplate, type TemplateScope } from "../traffic/mod.ts";
import { urlTextOk } from "./validate_url.ts";

/** A templated request-target: the printable URL and the parts of `path?query`. */
export interface TargetTemplate {
  /** The URL as written (templates and `${env.NAME}` unresolved): printed and stored. */
  url: string;
  /** The request line's target, `/users/{{users.id}}?…`, as parts. */
  parts: TemplatePart[];
  /** The printable path and query, for the request's default label. */
  pathText: string;
}

/**
 * Reads the template in a request's `path` (joined to `target`) or absolute `url`; undefined when
 * the text has no template syntax (it is then a plain URL) or is wrong (reported on `reader`).
 */
export function targetTemplate(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  text: string,
  target: string | undefined,
  scope: TemplateScope,
): TargetTemplate | undefined | "invalid" {
  const before = reader.issues.filter((i) => i.severity === "error").length;
  const t = scalarTemplate(reader, node, path, text, scope, "percent");
  if (reader.issues.filter((i) => i.severity === "error").length > before) return "invalid";
  const literal = t.parts.map((p) => p.kind === "text" ? p.text : "").join("");
  const subject = target === undefined ? "a URL" : "a path";
  if (!urlTextOk(reader, node, path, literal, subject)) return "invalid";
  if (t.verbatim) return undefined;
  let mark = "tgph";
  while (text.includes(mark)) mark += "x";
  const holes: TemplatePart[] = [];
  const written = t.parts.map((p) => {
    if (p.kind === "text") return p.text;
    holes.push(p.kind === "secret" ? { ...p, value: encodeURIComponent(p.value) } : p);
    return `${mark}${holes.length - 1}z`;
  }).join("");
  const absolute = target === undefined;
  let url: URL;
  try {
    url = new URL(absolute ? written : target + written);
  } catch {
    reader.error(node, path, `\`${text}\` is not a URL`, "e.g. `/users/{{users.id}}`");
    return "invalid";
  }
  if (url.origin.includes(mark) || url.username.includes(mark) || url.password.includes(mark)) {
    reader.error(
      node,
      path,
      "the scheme, host and port of a URL cannot be templates",
      "one plan drives one origin; put the template in the path or query",
    );
    return "invalid";
  }
  const parts: TemplatePart[] = [];
  const pieces = `${url.pathname}${url.search}`.split(new RegExp(`${mark}(\\d+)z`));
  pieces.forEach((piece, i) => {
    if (i % 2 === 1) parts.push(holes[Number(piece)]);
    else if (piece !== "") parts.push({ kind: "text", text: piece });
  });
  const origin = absolute ? url.origin : target;
  const pathText = absolute ? text.slice(text.indexOf(url.host) + url.host.length) || "/" : text;
  return { url: absolute ? text : origin + text, parts, pathText };
}
