/**
 * Validates the URL of a request: an absolute http(s) `url`, or a `path` under the plan's `target`,
 * neither holding a control character (wire_rules.ts): the URL parser would drop a line break or a
 * tab without a word, sending another request-target than the one written.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import { join, type PlanReader } from "../read/mod.ts";
import { wireTextProblem } from "../wire_rules.ts";

/**
 * Validates a request's `path` (joined to the plan's `target`) or absolute `url`, reporting
 * problems on `reader`; returns the request URL, or undefined when it is missing or invalid.
 */
export function readRequestUrl(
  reader: PlanReader,
  item: YamlNode,
  pathNode: YamlNode | undefined,
  urlNode: YamlNode | undefined,
  path: string,
  target: string | undefined,
): string | undefined {
  if (pathNode && urlNode) {
    reader.error(urlNode, join(path, "url"), "a request has `path` or `url`, not both", "keep one");
    return undefined;
  }
  if (urlNode) {
    const text = reader.string(urlNode, join(path, "url"));
    if (text === undefined || !urlTextOk(reader, urlNode, join(path, "url"), text)) {
      return undefined;
    }
    const url = parseHttpUrl(text);
    if (url === undefined) {
      reader.error(
        urlNode,
        join(path, "url"),
        `\`${text}\` is not an absolute http(s) URL`,
        "or use `path` with the plan's `target`",
      );
      return undefined;
    }
    const secret = credentialsProblem(url);
    if (secret) {
      reader.error(urlNode, join(path, "url"), secret.message, secret.hint);
      return undefined;
    }
    return url.href;
  }
  const p = pathNode ? reader.string(pathNode, join(path, "path")) : undefined;
  if (pathNode && p === undefined) return undefined;
  if (p !== undefined && !urlTextOk(reader, pathNode!, join(path, "path"), p, "a path")) {
    return undefined;
  }
  if (p !== undefined && !p.startsWith("/")) {
    reader.error(
      pathNode!,
      join(path, "path"),
      `path \`${p}\` must start with \`/\``,
      `write \`/${p}\``,
    );
    return undefined;
  }
  if (target === undefined) {
    reader.error(
      pathNode ?? item,
      path,
      "a request with a `path` needs the plan's `target`",
      "add `target: http://127.0.0.1:8080` at the top, or give this request a full `url`",
    );
    return undefined;
  }
  return target + (p ?? "/");
}

/**
 * Whether `text` (a `target`, `url` or `path`, or a template's literal text in one) holds no
 * character a URL cannot hold; else a located error on `reader`, and false.
 */
export function urlTextOk(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  text: string,
  subject = "a URL",
): boolean {
  const problem = wireTextProblem(text, "url", subject);
  if (problem) reader.error(node, path, problem.message, problem.hint);
  return problem === undefined;
}

/**
 * The URL `text` parses to when it is an absolute http(s) URL without control characters (which
 * the URL parser would drop or encode), else undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseHttpUrl } from "./validate_url.ts";
 * assert.equal(parseHttpUrl("https://127.0.0.1:8443/a")?.port, "8443");
 * assert.equal(parseHttpUrl("ftp://127.0.0.1/"), undefined);
 * ```
 */
export function parseHttpUrl(text: string): URL | undefined {
  if (wireTextProblem(text, "url")) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The error for a URL that carries credentials (`http://user:pass@host`), or undefined: they
 * would be stored in every result and report, where `${env.X}` headers are not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { credentialsProblem } from "./validate_url.ts";
 * assert.match(credentialsProblem(new URL("http://u:p@127.0.0.1/"))?.message ?? "", /carries credentials/);
 * ```
 */
export function credentialsProblem(url: URL): { message: string; hint: string } | undefined {
  if (url.username === "" && url.password === "") return undefined;
  return {
    message: "the URL carries credentials (`user:password@`), which would be stored in every " +
      "result and report",
    hint: 'send them in a header from the environment: `Authorization: "Basic ${env.TARGET_AUTH}"`',
  };
}
