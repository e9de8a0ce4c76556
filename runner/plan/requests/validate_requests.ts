/**
 * Validates `target`, `defaults` and `requests` into {@linkcode PlanRequest}s: absolute URLs,
 * headers with `${env.NAME}` substituted (and marked secret), bodies, weights and expected statuses.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import type { PlanContext } from "../plan_context.ts";
import { join, type PlanReader } from "../read/mod.ts";
import { keyDefault, readSection, type Section } from "../read/mod.ts";
import type {
  PlanBody,
  PlanHeader,
  PlanJourney,
  PlanRequest,
  RequestBasics,
  RequestTemplate,
} from "../types.ts";
import type { TemplateScope } from "../traffic/mod.ts";
import { type TargetTemplate, targetTemplate } from "./target_template.ts";
import type { CompiledTemplate } from "../traffic/mod.ts";
import { readBody } from "./validate_body.ts";
import { readExpect } from "./validate_expect.ts";
import { readChecks } from "./validate_checks.ts";
import { isJourneyItem, readJourney } from "./validate_journeys.ts";
import { readHeaders } from "./validate_headers.ts";
import { credentialsProblem, parseHttpUrl, readRequestUrl, urlTextOk } from "./validate_url.ts";
import {
  CALL_KEYS,
  callChecksOk,
  readGrpcCall,
  type RequestDefaults,
} from "./validate_grpc_call.ts";

export type { PlanContext } from "../plan_context.ts";

/** The timeout of a request when neither it nor `defaults` sets one (plan_language.ts). */
const DEFAULT_TIMEOUT_MS = keyDefault("defaults", "timeout") as number;

/**
 * Validates a target base URL; returns it without a trailing slash. A `grpc://` (`grpcs://`)
 * target is returned in its `http://` (`https://`) form, which the calls' URLs are made of: a
 * `grpc://` URL has no origin to compare.
 */
export function readTarget(reader: PlanReader, node: YamlNode): string | undefined {
  const text = reader.string(node, "target");
  if (text === undefined || !urlTextOk(reader, node, "target", text)) return undefined;
  const grpc = /^grpc(s?):\/\//i.exec(text);
  const url = parseHttpUrl(grpc ? `http${grpc[1]}://${text.slice(grpc[0].length)}` : text);
  if (url === undefined) {
    reader.error(
      node,
      "target",
      `\`${text}\` is not an http(s) or grpc(s) URL`,
      "e.g. `http://127.0.0.1:8080` or `grpc://127.0.0.1:50051`",
    );
    return undefined;
  }
  if (grpc && url.pathname !== "/") {
    reader.error(
      node,
      "target",
      "a gRPC target is `grpc://host:port`, without a path",
      "each request's `call` names the service and method",
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

/** Whether a target, as written, is a gRPC one (`grpc://`, `grpcs://`). */
export function isGrpcTarget(text: string): boolean {
  return /^grpcs?:\/\//i.test(text);
}

/** Reads `defaults`: headers and timeout shared by every request. */
export function readDefaults(reader: PlanReader, node: YamlNode, scope: TemplateScope) {
  const s = readSection(reader, node, "defaults", "defaults");
  const headersNode = s?.at("headers");
  return {
    headers: headersNode ? readHeaders(reader, headersNode, "defaults.headers", scope) : [],
    timeoutMs: s?.has("timeout") ? s.get<number>("timeout") : undefined,
  };
}

/**
 * Reads the `requests` list: the valid requests, and every request's label, also of a broken
 * request (undefined when one cannot be told).
 */
export function readRequests(
  reader: PlanReader,
  node: YamlNode,
  target: string | undefined,
  defaults: RequestDefaults,
  ctx: PlanContext,
  scope: TemplateScope,
): { requests: PlanRequest[]; labels?: string[]; journeys: PlanJourney[] } {
  const items = reader.list(node, "requests");
  if (items === undefined) return { requests: [], journeys: [] };
  if (items.length === 0) {
    reader.error(node, "requests", "`requests` is empty", "add at least one request");
  }
  const out: PlanRequest[] = [];
  const labels = new Map<string, YamlNode>();
  let known: string[] | undefined = [];
  const journeys: PlanJourney[] = [];
  const names = new Set<string>();
  items.forEach((item, i) => {
    const path = join("requests", i);
    if (isJourneyItem(item)) {
      const read = readJourney(reader, item, path, target, defaults, ctx, scope);
      if (read.labels) known?.push(...read.labels);
      else known = undefined;
      for (const label of read.labels ?? []) {
        if (labels.has(label)) {
          reader.error(
            item,
            path,
            `two requests have the label \`${label}\``,
            "give each step a distinct `name`",
          );
        } else labels.set(label, item);
      }
      if (read.name !== undefined && names.has(read.name)) {
        reader.error(
          item,
          join(path, "journey"),
          `two journeys are named \`${read.name}\``,
          "give each a distinct name",
        );
      }
      if (read.name !== undefined) names.add(read.name);
      if (read.journey) journeys.push(read.journey);
      return;
    }
    const read = readRequest(reader, item, path, "request", target, defaults, ctx, scope);
    const { fields: f, request, label } = read ?? {};
    const nameNode = f?.at("name");
    // A label made of a broken method or URL is not the one meant.
    if (label !== undefined && (nameNode || request)) known?.push(label);
    else known = undefined;
    if (f === undefined) return;
    if (label !== undefined && labels.has(label)) {
      reader.error(
        nameNode ?? item,
        join(path, "name"),
        `two requests have the label \`${label}\``,
        "give each a distinct `name`",
      );
    } else if (label !== undefined) labels.set(label, item);
    const weight = f.get<number>("weight");
    const checkNode = f.at("check");
    const checks = checkNode && (!f.has("call") || callChecksOk(reader, checkNode, path))
      ? readChecks(reader, checkNode, join(path, "check"))
      : [];
    if (request === undefined || weight === undefined) return;
    const { url } = request;
    if (out.length > 0 && new URL(out[0].url).origin !== new URL(url).origin) {
      reader.error(
        f.at("url") ?? f.at("path") ?? item,
        path,
        `this request goes to ${new URL(url).origin}, the first to ${new URL(out[0].url).origin}`,
        "one plan drives one origin (scheme, host and port); write a plan per origin",
      );
      return;
    }
    // A `status` check is the request's expectation (`expect`): one status figure per label.
    const status = checks.find((c) => c.kind === "status");
    if (status !== undefined && f.at("expect") !== undefined) {
      reader.error(
        f.at("expect")!,
        join(path, "expect"),
        "`expect` and `check: { status }` say the same: give one",
        "keep `check: { status: … }` and remove `expect`",
      );
      return;
    }
    const expect = status?.kind === "status" ? { expect: status.expect } : {};
    out.push({ ...request, weight, ...expect, ...(checks.length ? { checks } : {}) });
  });
  // A journey's name may be no label: `for "order"` would not say which is meant.
  for (const name of names) {
    if (labels.has(name)) {
      reader.error(
        labels.get(name)!,
        "requests",
        `\`${name}\` is both a journey and a label`,
        "rename one of them",
      );
    }
  }
  return { requests: out, journeys, ...(known ? { labels: known } : {}) };
}

/**
 * Reads one request's keys (those of `section`): method, URL or templated path, headers with the
 * defaults applied, body, timeout, expected statuses and label. Returns its fields (for the keys
 * the caller reads itself) and the request, undefined when one of them is wrong (reported).
 */
export function readRequest(
  reader: PlanReader,
  item: YamlNode,
  path: string,
  section: "request" | "step" | "journey_step",
  target: string | undefined,
  defaults: RequestDefaults,
  ctx: PlanContext,
  scope: TemplateScope,
): { fields: Section; label?: string; request?: RequestBasics } | undefined {
  const f = readSection(reader, item, path, section);
  if (f === undefined) return undefined;
  const get = (k: string) => f.at(k);
  if (!protocolFits(reader, f, item, path, section, defaults)) return { fields: f };
  if (f.has("call")) {
    const timeoutMs = f.has("timeout")
      ? f.get<number>("timeout")
      : defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const nameNode = get("name");
    const name = nameNode ? reader.string(nameNode, join(path, "name")) : undefined;
    const request = readGrpcCall(reader, f, path, target, defaults, scope, timeoutMs, name);
    const label = request?.label ?? name;
    return {
      fields: f,
      ...(label === undefined ? {} : { label }),
      ...(request ? { request } : {}),
    };
  }
  const method = f.get<string>("method");
  let url = readRequestUrl(reader, item, get("path"), get("url"), path, target);
  let targetT: TargetTemplate | undefined;
  if (url !== undefined) {
    const node = (get("path") ?? get("url"))!;
    const key = get("path") ? "path" : "url";
    const t = node === undefined ? undefined : targetTemplate(
      reader,
      node,
      join(path, key),
      reader.string(node, join(path, key))!,
      key === "path" ? target : undefined,
      scope,
    );
    if (t === "invalid") url = undefined;
    else if (t !== undefined) [targetT, url] = [t, t.url];
  }
  const headers = [...defaults.headers];
  if (get("headers")) {
    for (const h of readHeaders(reader, get("headers")!, join(path, "headers"), scope)) {
      const at = headers.findIndex((d) => d.name.toLowerCase() === h.name.toLowerCase());
      if (at >= 0) headers[at] = h;
      else headers.push(h);
    }
  }
  const read = get("body")
    ? readBody(reader, get("body")!, join(path, "body"), ctx, scope)
    : undefined;
  const body = read?.body;
  if (body?.kind === "json" && !headers.some((h) => h.name.toLowerCase() === "content-type")) {
    const value = "application/json";
    headers.push({ name: "content-type", value, template: value, secret: false });
  }
  const timeoutMs = f.has("timeout")
    ? f.get<number>("timeout")
    : defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const expect = get("expect")
    ? readExpect(reader, get("expect")!, join(path, "expect"))
    : { codes: [], classes: [2] };
  const nameNode = get("name");
  const shortPath = url === undefined
    ? ""
    : targetT?.pathText ?? new URL(url).pathname + new URL(url).search;
  const label = nameNode ? reader.string(nameNode, join(path, "name")) : `${method} ${shortPath}`;
  if (
    method === undefined || url === undefined || label === undefined ||
    timeoutMs === undefined || expect === undefined
  ) return { fields: f, ...(label === undefined ? {} : { label }) };
  const template = requestTemplate(url, targetT, headers, body, read?.template);
  return {
    fields: f,
    label,
    request: {
      label,
      method,
      url,
      headers,
      body,
      timeoutMs,
      expect,
      ...(template ? { template } : {}),
    },
  };
}

/**
 * Whether a request's keys fit the plan's protocol: `message`, `deadline` and `metadata` go with
 * `call`; a `grpc://` target takes calls only (one plan drives one protocol); setup and teardown
 * send no calls yet. False with a located error.
 */
function protocolFits(
  reader: PlanReader,
  f: Section,
  item: YamlNode,
  path: string,
  section: "request" | "step" | "journey_step",
  defaults: RequestDefaults,
): boolean {
  if (section === "step" && (f.has("call") || defaults.grpcTarget)) {
    reader.error(
      f.at("call") ?? item,
      f.has("call") ? join(path, "call") : path,
      "setup and teardown steps of a gRPC plan are not yet sent by this version",
      "remove the step, or send it from a plan of its own (setup and teardown are HTTP requests)",
    );
    return false;
  }
  if (!f.has("call")) {
    for (const key of CALL_KEYS) {
      if (!f.has(key)) continue;
      reader.error(
        f.at(key)!,
        join(path, key),
        `\`${key}\` goes with \`call\` (a gRPC call)`,
        key === "metadata" ? "an HTTP request has `headers`" : "add the `call`, or remove it",
      );
      return false;
    }
    if (defaults.grpcTarget) {
      reader.error(
        f.at("path") ?? f.at("url") ?? item,
        path,
        "this plan's target is gRPC: each request is a `call`",
        "one plan drives one protocol: add e.g. `call: helloworld.Greeter/SayHello`, or write " +
          "the HTTP requests in a plan of their own",
      );
      return false;
    }
  }
  return true;
}

/**
 * The request as parts, when it is rendered rather than sent as one fixed string: a templated
 * path, a header that draws values, or a templated body.
 */
function requestTemplate(
  url: string,
  targetT: TargetTemplate | undefined,
  headers: PlanHeader[],
  body: PlanBody | undefined,
  bodyT: CompiledTemplate | undefined,
): RequestTemplate | undefined {
  if (targetT === undefined && bodyT === undefined && !headers.some((h) => h.parts)) {
    return undefined;
  }
  const plain = new URL(url);
  return {
    target: targetT?.parts ?? [{ kind: "text", text: plain.pathname + plain.search }],
    headers: headers.map((h) => ({
      name: h.name,
      parts: h.parts ??
        [
          h.secret ? { kind: "secret", value: h.value, template: h.template } : {
            kind: "text",
            text: h.value,
          },
        ],
    })),
    ...(bodyT
      ? { body: bodyT.parts }
      : body && body.kind !== "file"
      ? { body: [{ kind: "text", text: body.text }] }
      : {}),
  };
}
