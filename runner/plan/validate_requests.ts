/**
 * Validates `target`, `defaults` and `requests` into {@linkcode PlanRequest}s: absolute URLs,
 * headers with `${env.NAME}` substituted (and marked secret), bodies, weights and expected statuses.
 *
 * @module
 */
import type { YamlNode } from "./_yaml.ts";
import { join, type PlanReader } from "./plan_reader.ts";
import type { PlanBody, PlanHeader, PlanRequest, StatusExpectation } from "./types.ts";
import { parseDurationMs } from "./units.ts";

/** What validation may ask of the world: environment variables and files beside the plan. */
export interface PlanContext {
  env(name: string): string | undefined;
  /** Size in bytes of a file, or undefined when it is missing or not a file. */
  fileSize(path: string): number | undefined;
  /** Directory of the plan file, for relative body files. */
  planDir: string;
  /** When false (`tailgate check`), an unset environment variable is a warning, not an error. */
  requireEnv: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** The keys of a request. */
export const REQUEST_KEYS = [
  "name",
  "method",
  "path",
  "url",
  "headers",
  "body",
  "weight",
  "expect",
  "timeout",
];
const REQUEST_SYNONYMS = { label: "name", uri: "url", status: "expect", expect_status: "expect" };
const METHOD = /^[A-Z][A-Z-]*$/;
const ENV_REF = /\$\{([^}]*)\}/g;

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
  return url.href.replace(/\/$/, "");
}

/** Reads `defaults`: headers and timeout shared by every request. */
export function readDefaults(reader: PlanReader, node: YamlNode, ctx: PlanContext) {
  const f = reader.fields(node, "defaults", ["headers", "timeout"], { timeout_ms: "timeout" });
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
    const f = reader.fields(item, path, REQUEST_KEYS, REQUEST_SYNONYMS);
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

function readRequestUrl(
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
    if (text === undefined) return undefined;
    const url = parseHttpUrl(text);
    if (url === undefined) {
      reader.error(
        urlNode,
        join(path, "url"),
        `\`${text}\` is not an absolute http(s) URL`,
        "or use `path` with the plan's `target`",
      );
    }
    return url?.href;
  }
  const p = pathNode ? reader.string(pathNode, join(path, "path")) : undefined;
  if (pathNode && p === undefined) return undefined;
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

function parseHttpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

function readHeaders(
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

function readBody(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  ctx: PlanContext,
): PlanBody | undefined {
  if (node.kind === "scalar" && typeof node.value === "string") {
    return { kind: "text", text: node.value };
  }
  const f = reader.fields(node, path, ["json", "file", "text"]);
  if (f === undefined) return undefined;
  if (f.size !== 1) {
    reader.error(
      node,
      path,
      "a body is one of `text`, `json` or `file`",
      "e.g. `body: { json: { id: 1 } }`",
    );
    return undefined;
  }
  const [key, entry] = [...f.entries()][0];
  if (key === "json") return { kind: "json", text: JSON.stringify(toPlain(entry.value)) };
  const text = reader.string(entry.value, join(path, key));
  if (text === undefined) return undefined;
  if (key === "text") return { kind: "text", text };
  const resolved = text.startsWith("/") ? text : `${ctx.planDir}/${text}`;
  const sizeBytes = ctx.fileSize(resolved);
  if (sizeBytes === undefined) {
    reader.error(
      entry.value,
      join(path, "file"),
      `body file \`${text}\` does not exist`,
      "paths are relative to the plan file",
    );
    return undefined;
  }
  return { kind: "file", path: resolved, sizeBytes };
}

function readExpect(
  reader: PlanReader,
  node: YamlNode,
  path: string,
): StatusExpectation | undefined {
  const items = node.kind === "seq" ? node.items : [node];
  const out: StatusExpectation = { codes: [], classes: [] };
  for (const item of items) {
    const v = item.kind === "scalar" ? item.value : undefined;
    if (typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599) out.codes.push(v);
    else if (typeof v === "string" && /^[1-5]xx$/i.test(v)) out.classes.push(Number(v[0]));
    else {
      reader.error(
        item,
        path,
        "`expect` takes status codes (`200`, `[200, 204]`) or classes (`2xx`)",
      );
      return undefined;
    }
  }
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

function toPlain(node: YamlNode): unknown {
  if (node.kind === "scalar") return node.value;
  if (node.kind === "seq") return node.items.map(toPlain);
  return Object.fromEntries(node.entries.map((e) => [e.key, toPlain(e.value)]));
}

export { positiveDuration };
