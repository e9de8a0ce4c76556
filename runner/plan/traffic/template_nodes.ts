/**
 * Templates read from the plan's tree: a scalar's template with its problems located inside the
 * scalar, and a JSON body compiled into parts (a string that is exactly one template takes the
 * value's JSON type; templates inside longer strings are escaped as JSON string content).
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import { join, type PlanReader } from "../read/mod.ts";
import type { TemplateEncoding, TemplatePart } from "../types.ts";
import { type ParsedTemplate, parseTemplate, type TemplateScope } from "./parse_template.ts";

/** Parts of a compiled template and what they read. */
export interface CompiledTemplate {
  parts: TemplatePart[];
  drawsValues: boolean;
  readsSecrets: boolean;
  /** True when a part is a setup step's capture. */
  bindsCaptures: boolean;
  /** True when there is no template syntax: the body is sent exactly as printed. */
  verbatim: boolean;
}

/**
 * Parses the template in a text scalar, reporting each problem at its place in the scalar.
 */
export function scalarTemplate(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  text: string,
  scope: TemplateScope,
  encoding: TemplateEncoding,
): ParsedTemplate {
  const parsed = parseTemplate(text, scope, encoding);
  for (const p of parsed.problems) {
    const shift = node.kind === "scalar" ? node.contentOffset - node.offset : 0;
    const pos = { line: node.pos.line, col: node.pos.col + shift + p.offset };
    if (p.severity === "error") reader.errorAt(pos, p.length, path, p.message, p.hint);
    else reader.warn({ pos, length: p.length }, path, p.message, p.hint);
  }
  return parsed;
}

/**
 * Compiles a JSON body's tree into template parts.
 */
export function jsonTemplate(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  scope: TemplateScope,
): CompiledTemplate {
  const parts: TemplatePart[] = [];
  let drawsValues = false;
  let readsSecrets = false;
  let bindsCaptures = false;
  let verbatim = true;
  const text = (t: string) => {
    const last = parts.at(-1);
    if (last?.kind === "text") last.text += t;
    else parts.push({ kind: "text", text: t });
  };
  const walk = (n: YamlNode, at: string) => {
    if (n.kind === "seq") {
      text("[");
      n.items.forEach((item, i) => {
        if (i > 0) text(",");
        walk(item, join(at, i));
      });
      text("]");
      return;
    }
    if (n.kind === "map") {
      text("{");
      n.entries.forEach((e, i) => {
        if (/\{\{|\$\{/.test(e.key)) {
          reader.errorAt(
            e.keyPos,
            e.key.length,
            join(at, e.key),
            "a JSON key cannot be a template",
            "templates go in values",
          );
        }
        text(`${i > 0 ? "," : ""}${JSON.stringify(e.key)}:`);
        walk(e.value, join(at, e.key));
      });
      text("}");
      return;
    }
    if (typeof n.value !== "string") {
      text(JSON.stringify(n.value));
      return;
    }
    const t = scalarTemplate(reader, n, at, n.value, scope, "json_string");
    drawsValues ||= t.drawsValues;
    readsSecrets ||= t.readsSecrets;
    bindsCaptures ||= t.bindsCaptures;
    verbatim &&= t.verbatim;
    const [only] = t.parts;
    if (t.parts.length === 1 && (only.kind === "ref" || only.kind === "capture")) {
      parts.push({ ...only, encoding: "json_value" });
      return;
    }
    text('"');
    for (const p of t.parts) {
      if (p.kind === "text") text(JSON.stringify(p.text).slice(1, -1));
      else if (p.kind === "secret") {
        parts.push({ ...p, value: JSON.stringify(p.value).slice(1, -1) });
      } else parts.push(p);
    }
    text('"');
  };
  walk(node, path);
  return { parts, drawsValues, readsSecrets, bindsCaptures, verbatim };
}

/**
 * A plain JSON value as a tree located at `at` (a JSON body file's values are all reported at
 * the plan's `file:` key).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonAsTree } from "./template_nodes.ts";
 * assert.equal(jsonAsTree({ id: 1 }, { line: 3, col: 5 }).kind, "map");
 * ```
 */
export function jsonAsTree(value: unknown, at: { line: number; col: number }): YamlNode {
  const base = { pos: at, offset: 0 };
  if (Array.isArray(value)) {
    return {
      kind: "seq",
      ...base,
      items: value.map((v) => jsonAsTree(v, at)),
    };
  }
  if (value !== null && typeof value === "object") {
    return {
      kind: "map",
      ...base,
      entries: Object.entries(value).map(([key, v]) => ({
        key,
        keyPos: at,
        value: jsonAsTree(v, at),
      })),
    };
  }
  return {
    kind: "scalar",
    ...base,
    value: value as string | number | boolean | null,
    contentOffset: 0,
    quoted: false,
    length: 1,
  };
}

/**
 * The text template parts send as they stand: literal text and secrets' values; a drawn value or a
 * capture not yet bound adds nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sentText } from "./template_nodes.ts";
 * assert.equal(
 *   sentText([{ kind: "text", text: "Bearer " }, { kind: "secret", value: "abc", template: "{{t}}" }]),
 *   "Bearer abc",
 * );
 * ```
 */
export function sentText(parts: readonly TemplatePart[]): string {
  return parts.map((p) => p.kind === "text" ? p.text : p.kind === "secret" ? p.value : "").join("");
}
