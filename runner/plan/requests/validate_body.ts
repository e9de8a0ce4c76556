/**
 * Validates a request body: inline text, JSON, or a file beside the plan (read as a template when
 * it opts in with `template: true`).
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import type { PlanContext } from "../plan_context.ts";
import { planFile } from "../read/mod.ts";
import { join, type PlanReader } from "../read/mod.ts";
import { readSection } from "../read/mod.ts";
import type { PlanBody } from "../types.ts";
import type { TemplateScope } from "../traffic/mod.ts";
import { type CompiledTemplate, jsonAsTree, jsonTemplate, scalarTemplate } from "../traffic/mod.ts";

import { MAX_BODY_FILE_BYTES, MAX_TEMPLATE_BODY_BYTES } from "../runtime/mod.ts";

/** A body as printed and stored, and its template when it draws values or reads a secret. */
export interface ReadBody {
  body: PlanBody;
  template?: CompiledTemplate;
}

/**
 * Validates a request body: a string, or one of `text`, `json` (serialised) or `file` (relative
 * to the plan, and present), reporting problems on `reader`.
 */
export function readBody(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  ctx: PlanContext,
  scope: TemplateScope,
): ReadBody | undefined {
  if (node.kind === "scalar" && typeof node.value === "string") {
    return textBody(reader, node, path, node.value, scope);
  }
  const s = readSection(reader, node, path, "body");
  if (s === undefined) return undefined;
  const template = s.entries.get("template");
  const kinds = [...s.entries.keys()].filter((k) => k !== "template");
  if (kinds.length !== 1) {
    reader.error(
      node,
      path,
      "a body is one of `text`, `json` or `file`",
      "e.g. `body: { json: { id: 1 } }`",
    );
    return undefined;
  }
  const key = kinds[0];
  const entry = s.entries.get(key)!;
  if (template && key !== "file") {
    reader.error(
      template.value,
      join(path, "template"),
      "`template` goes with a `file` body",
      `a \`${key}\` body reads its templates anyway`,
    );
    return undefined;
  }
  if (key === "json") {
    const compiled = jsonTemplate(reader, entry.value, join(path, "json"), scope);
    const body: PlanBody = { kind: "json", text: JSON.stringify(toPlain(entry.value)) };
    return compiled.verbatim ? { body } : { body, template: compiled };
  }
  const text = s.get<string>(key);
  if (text === undefined) return undefined;
  if (key === "text") return textBody(reader, entry.value, join(path, "text"), text, scope);
  const filePath = join(path, "file");
  const resolved = planFile(reader, entry.value, filePath, text, ctx, "body file");
  if (resolved === undefined) return undefined;
  const body: PlanBody = { kind: "file", path: resolved, sizeBytes: ctx.fileSize(resolved)! };
  if (body.sizeBytes > MAX_BODY_FILE_BYTES) {
    reader.error(
      entry.value,
      filePath,
      `body file \`${text}\` is ${body.sizeBytes} bytes; a body file may be at most ` +
        `${MAX_BODY_FILE_BYTES} (16 MiB)`,
      "send a smaller body: a load test repeats it for every request, and every engine worker " +
        "holds it in memory",
    );
    return undefined;
  }
  const opted = s.get<boolean>("template");
  if (!opted) return { body };
  const bytes = ctx.readFile?.(resolved, MAX_TEMPLATE_BODY_BYTES);
  let content: string | undefined;
  try {
    content = bytes && new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch { /* reported below */ }
  if (content === undefined) {
    reader.error(
      entry.value,
      filePath,
      `template body file \`${text}\` is not UTF-8 text of at most ${MAX_TEMPLATE_BODY_BYTES} bytes`,
      "a template body is rendered for every request: keep it small, or send it without `template`",
    );
    return undefined;
  }
  if (!/\.json$/i.test(text)) {
    const t = scalarTemplate(reader, entry.value, filePath, content, scope, "raw");
    return { body, template: t };
  }
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch (e) {
    reader.error(
      entry.value,
      filePath,
      `\`${text}\` is not JSON: ${(e as Error).message}`,
      "a .json template body is JSON with `{{…}}` in its strings; name it .txt to send it as text",
    );
    return undefined;
  }
  return {
    body,
    template: jsonTemplate(reader, jsonAsTree(json, entry.value.pos), filePath, scope),
  };
}

function textBody(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  text: string,
  scope: TemplateScope,
): ReadBody {
  const t = scalarTemplate(reader, node, path, text, scope, "raw");
  const body: PlanBody = { kind: "text", text };
  return t.verbatim ? { body } : { body, template: t };
}

function toPlain(node: YamlNode): unknown {
  if (node.kind === "scalar") return node.value;
  if (node.kind === "seq") return node.items.map(toPlain);
  return Object.fromEntries(node.entries.map((e) => [e.key, toPlain(e.value)]));
}
