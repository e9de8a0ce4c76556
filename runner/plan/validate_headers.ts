/**
 * Validates request headers: valid names, values without line breaks, and `${env.NAME}`
 * substitution from the environment (a header that reads one is marked secret).
 *
 * @module
 */
import type { YamlNode } from "./_yaml.ts";
import type { PlanContext } from "./plan_context.ts";
import { join, type PlanReader } from "./plan_reader.ts";
import type { PlanHeader } from "./types.ts";

const ENV_REF = /\$\{([^}]*)\}/g;

/**
 * Validates a mapping of header names to values, substituting `${env.NAME}` (such headers are
 * marked secret) and reporting problems on `reader`; returns the valid headers.
 *
 * @example
 * ```ts
 * import { readHeaders } from "./validate_headers.ts";
 * import type { PlanReader } from "./plan_reader.ts";
 * import type { PlanContext } from "./plan_context.ts";
 * import type { YamlNode } from "./_yaml.ts";
 * declare const reader: PlanReader, node: YamlNode, ctx: PlanContext;
 * readHeaders(reader, node, "defaults.headers", ctx);
 * // for `authorization: Bearer ${env.TOKEN}`: [{ name: "authorization", secret: true, ... }]
 * ```
 */
export function readHeaders(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  ctx: PlanContext,
): PlanHeader[] {
  if (node.kind !== "map") {
    reader.error(node, path, `\`${path}\` must be a mapping of header names to values`);
    return [];
  }
  const out: PlanHeader[] = [];
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
    const template = reader.string(entry.value, hPath, true);
    if (template === undefined) continue;
    let secret = false;
    let missing = false;
    const value = template.replace(ENV_REF, (whole, inner: string) => {
      const m = /^env\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner.trim());
      if (!m) {
        reader.error(
          entry.value,
          hPath,
          `\`${whole}\` is not a known substitution`,
          "write `${env.NAME}` to read an environment variable",
        );
        missing = true;
        return "";
      }
      secret = true;
      const v = ctx.env(m[1]);
      if (v === undefined) {
        const msg = `environment variable \`${m[1]}\` is not set`;
        const hint = `set ${m[1]} before the run (in CI, from a secret)`;
        if (ctx.requireEnv) reader.error(entry.value, hPath, msg, hint);
        else reader.warn(entry.value, hPath, msg, hint);
        missing = true;
        return "";
      }
      return v;
    });
    if (/[\r\n\0]/.test(value) && !missing) {
      reader.error(entry.value, hPath, "a header value cannot hold line breaks or NUL");
      continue;
    }
    out.push({ name: entry.key, value, template, secret });
  }
  return out;
}
