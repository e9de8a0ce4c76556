/**
 * Validates request headers: valid names, none of the headers that frame the request and none
 * twice, values that can go on the wire (wire_rules.ts), `${env.NAME}` substitution from the
 * environment (a header that reads one is marked secret), and `{{…}}` templates.
 *
 * @module
 */
import type { YamlEntry, YamlNode } from "../read/mod.ts";
import { join, type PlanReader } from "../read/mod.ts";
import type { PlanHeader } from "../types.ts";
import type { TemplateScope } from "../traffic/mod.ts";
import { scalarTemplate, sentText } from "../traffic/mod.ts";
import { framingProblem, wireTextProblem } from "../wire_rules.ts";

/** The fix for a drawn value that cannot go in a header (a data row's, a choice's). */
const DRAWN_VALUE_HINT = "a header value cannot hold it: clean the data, or send the value in " +
  "the path (percent-encoded) or the body";

/**
 * Validates a mapping of header names to values, substituting `${env.NAME}` (such headers are
 * marked secret), reading `{{…}}` templates, and reporting problems on `reader`; returns the valid
 * headers.
 */
export function readHeaders(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  scope: TemplateScope,
): PlanHeader[] {
  if (node.kind !== "map") {
    reader.error(node, path, `\`${path}\` must be a mapping of header names to values`);
    return [];
  }
  const out: PlanHeader[] = [];
  const seen = new Map<string, YamlEntry>();
  for (const entry of node.entries) {
    const hPath = join(path, entry.key);
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(entry.key)) {
      reader.errorAt(
        entry.keyPos,
        entry.key.length,
        hPath,
        `\`${entry.key}\` is not a valid header name`,
      );
      continue;
    }
    const framing = framingProblem(entry.key);
    if (framing) {
      reader.errorAt(entry.keyPos, entry.key.length, hPath, framing.message, framing.hint);
      continue;
    }
    const twice = seen.get(entry.key.toLowerCase());
    seen.set(entry.key.toLowerCase(), twice ?? entry);
    if (twice) {
      const message = `\`${entry.key}\` is named twice here (\`${twice.key}\` on line ` +
        `${twice.keyPos.line})`;
      reader.errorAt(entry.keyPos, entry.key.length, hPath, message, "keep one");
      continue;
    }
    const template = reader.string(entry.value, hPath, true);
    if (template === undefined) continue;
    const before = reader.issues.length;
    const t = scalarTemplate(reader, entry.value, hPath, template, scope, "raw");
    if (reader.issues.slice(before).some((i) => i.severity === "error")) continue;
    const missing = reader.issues.length > before; // an unset variable, in `tailgate check`
    const value = sentText(t.parts);
    const wire = missing ? undefined : wireTextProblem(value, "header_value");
    if (wire) {
      reader.error(entry.value, hPath, wire.message, wire.hint);
      continue;
    }
    let unsafe = false;
    for (const p of t.parts) {
      const why = p.kind === "ref" ? scope.unsafeInHeader?.(p.ref) : undefined;
      if (why === undefined) continue;
      reader.error(entry.value, hPath, why, DRAWN_VALUE_HINT);
      unsafe = true;
    }
    if (unsafe) continue;
    // A capture is bound once setup has run: until then the header is its parts.
    const late = t.drawsValues || t.bindsCaptures;
    out.push({
      name: entry.key,
      value: late ? template : value,
      template,
      secret: t.readsSecrets || t.bindsCaptures,
      ...(late ? { parts: t.parts } : {}),
    });
  }
  return out;
}
