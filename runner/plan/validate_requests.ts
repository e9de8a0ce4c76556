/**
 * Validates `target`, `defaults` and `requests` into {@linkcode PlanRequest}s: absolute URLs,
 * headers with `${env.NAME}` substituted (and marked secret), bodies, weights and expected statuses.
 *
 * @module
 */
import type { YamlNode } from "./_yaml.ts";
import type { PlanContext } from "./plan_context.ts";
import { defaultDurationMs, keysOf, PLAN_LANGUAGE } from "./plan_language.ts";
import { join, type PlanReader } from "./plan_reader.ts";
import type { PlanHeader, PlanRequest } from "./types.ts";
import { parseDurationMs } from "./units.ts";
import { readBody } from "./validate_body.ts";
import { readExpect } from "./validate_expect.ts";
import { readHeaders } from "./validate_headers.ts";
import { credentialsProblem, parseHttpUrl, readRequestUrl } from "./validate_url.ts";

export type { PlanContext } from "./plan_context.ts";

/** The timeout of a request when neither it nor `defaults` sets one (plan_language.ts). */
const DEFAULT_TIMEOUT_MS = defaultDurationMs("defaults", "timeout");
/** The keys of a request (plan_language.ts). */
export const REQUEST_KEYS: readonly string[] = keysOf("request");
const METHOD = /^[A-Z][A-Z-]*$/;

/** Validates a target base URL; returns it without a trailing slash. */
export function readTarget(reader: PlanReader, node: YamlNode): string | undefined {
  const text = reader.string(node, "target");
  if (text === undefined) return undefined;
  const url = parseHttpUrl(text);
  if (url === undefined) {
    reader.error(
      node,
      "target",
      `\`${text}\` is not an http(s) URL`,
      "e.g. `http://127.0.0.1:8080`",
    );
    return undefined;
  }
  if (url.search || url.hash) {
    reader.error(
      node,
      "target",
      "the target is a base URL without `?query` or `#fragment`",
      "put them in a request's `path`",
    );
    return undefined;
  }
  const secret = credentialsProblem(url);
  if (secret) {
    reader.error(node, "target", secret.message, secret.hint);
    return undefined;
  }
  return url.href.replace(/\/$/, "");
}

/** Reads `defaults`: headers and timeout shared by every request. */
export function readDefaults(reader: PlanReader, node: YamlNode, ctx: PlanContext) {
  const f = reader.fields(node, "defaults", keysOf("defaults"), PLAN_LANGUAGE.defaults.synonyms);
  const headersNode = f?.get("headers")?.value;
  const timeoutNode = f?.get("timeout")?.value;
  return {
    headers: headersNode ? readHeaders(reader, headersNode, "defaults.headers", ctx) : [],
    timeoutMs: timeoutNode ? positiveDuration(reader, timeoutNode, "defaults.timeout") : undefined,
  };
}

/** Reads the `requests` list. */
export function readRequests(
  reader: PlanReader,
  node: YamlNode,
  target: string | undefined,
  defaults: { headers: PlanHeader[]; timeoutMs?: number },
  ctx: PlanContext,
): PlanRequest[] {
  const items = reader.list(node, "requests");
  if (items === undefined) return [];
  if (items.length === 0) {
    reader.error(node, "requests", "`requests` is empty", "add at least one request");
  }
  const out: PlanRequest[] = [];
  const labels = new Map<string, YamlNode>();
  items.forEach((item, i) => {
    const path = join("requests", i);
    const f = reader.fields(item, path, REQUEST_KEYS, PLAN_LANGUAGE.request.synonyms);
    if (f === undefined) return;
    const get = (k: string) => f.get(k)?.value;
    const method = get("method") ? reader.string(get("method")!, join(path, "method")) : "GET";
    if (method !== undefined && !METHOD.test(method)) {
      reader.error(
        get("method")!,
        join(path, "method"),
        `\`${method}\` is not an HTTP method`,
        `write \`${method.toUpperCase()}\``,
      );
    }
    const url = readRequestUrl(reader, item, get("path"), get("url"), path, target);
    const headers = [...defaults.headers];
    if (get("headers")) {
      for (const h of readHeaders(reader, get("headers")!, join(path, "headers"), ctx)) {
        const at = headers.findIndex((d) => d.name.toLowerCase() === h.name.toLowerCase());
        if (at >= 0) headers[at] = h;
        else headers.push(h);
      }
    }
    const body = get("body") ? readBody(reader, get("body")!, join(path, "body"), ctx) : undefined;
    for (const key of ["path", "url", "body"]) warnLiteralEnv(reader, get(key), join(path, key));
    if (body?.kind === "json" && !headers.some((h) => h.name.toLowerCase() === "content-type")) {
      const value = "application/json";
      headers.push({ name: "content-type", value, template: value, secret: false });
    }
    const weight = get("weight")
      ? reader.number(get("weight")!, join(path, "weight"), { above: 0 })
      : 1;
    const timeoutMs = get("timeout")
      ? positiveDuration(reader, get("timeout")!, join(path, "timeout"))
      : defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const expect = get("expect")
      ? readExpect(reader, get("expect")!, join(path, "expect"))
      : { codes: [], classes: [2] };
    const nameNode = get("name");
    const shortPath = url === undefined ? "" : new URL(url).pathname + new URL(url).search;
    const label = nameNode ? reader.string(nameNode, join(path, "name")) : `${method} ${shortPath}`;
    if (label !== undefined && labels.has(label)) {
      reader.error(
        nameNode ?? item,
        join(path, "name"),
        `two requests have the label \`${label}\``,
        "give each a distinct `name`",
      );
    } else if (label !== undefined) labels.set(label, item);
    if (
      method === undefined || url === undefined || label === undefined || weight === undefined ||
      timeoutMs === undefined || expect === undefined
    ) return;
    if (out.length > 0 && new URL(out[0].url).origin !== new URL(url).origin) {
      reader.error(
        get("url") ?? get("path") ?? item,
        path,
        `this request goes to ${new URL(url).origin}, the first to ${new URL(out[0].url).origin}`,
        "one plan drives one origin (scheme, host and port); write a plan per origin",
      );
      return;
    }
    out.push({ label, method, url, headers, body, weight, timeoutMs, expect });
  });
  return out;
}

function positiveDuration(reader: PlanReader, node: YamlNode, path: string): number | undefined {
  const ms = reader.unit(node, path, parseDurationMs);
  if (ms !== undefined && !(ms > 0)) {
    reader.error(node, path, `\`${path}\` must be above zero`);
    return undefined;
  }
  return ms;
}

export { positiveDuration };

/**
 * `${env.NAME}` is read in headers only: in a path, URL or body it would be sent as written, so
 * say so where it appears.
 */
function warnLiteralEnv(reader: PlanReader, node: YamlNode | undefined, path: string): void {
  if (node === undefined) return;
  if (node.kind === "scalar") {
    if (typeof node.value === "string" && node.value.includes("${env.")) {
      reader.warn(
        node,
        path,
        `\`\${env.…}\` in \`${path.split(".").at(-1)}\` is sent as written: environment ` +
          "variables are read in headers only",
        "move the value into a header, or write it out",
      );
    }
    return;
  }
  for (const child of node.kind === "map" ? node.entries.map((e) => e.value) : node.items) {
    warnLiteralEnv(reader, child, path);
  }
}
