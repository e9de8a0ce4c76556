/**
 * Validates `setup` and `teardown`: requests sent once, outside the schedule, each with the
 * request keys but `weight`, and `capture` (values taken from the response for `{{name}}`). A
 * step's templates read `${env.NAME}` and the captures of the steps before it; a measured request
 * reads every setup capture. Drawn values (vars, data columns) are refused in a step: it is sent
 * once, and they are drawn per measured request.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import type { PlanContext } from "../plan_context.ts";
import { join, type PlanReader } from "../read/mod.ts";
import type {
  CaptureSource,
  PlanCapture,
  PlanStep,
  RequestBasics,
  TemplatePart,
} from "../types.ts";
import type { TemplateScope } from "../traffic/mod.ts";
import { TEMPLATE_NAME } from "../traffic/mod.ts";
import { readRequest } from "./validate_requests.ts";
import type { RequestDefaults } from "./validate_grpc_call.ts";
import { readPattern } from "./validate_checks.ts";

/** The two lists of steps. */
export type StepSection = "setup" | "teardown";

/** A capture as declared, before its step is read: its name and the step that takes it. */
export interface DeclaredCapture {
  name: string;
  /** The step, as issues name it: `setup[0]`. */
  step: string;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The captures a section declares, in order, read before any template is (so a template can tell
 * a name captured later from an unknown one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseYaml } from "../read/mod.ts";
 * import { declaredCaptures } from "./validate_steps.ts";
 * const node = parseYaml("- { path: /login, capture: { token: { json: /t } } }").root!;
 * assert.deepEqual(declaredCaptures(node, "setup"), [{ name: "token", step: "setup[0]" }]);
 * ```
 */
export function declaredCaptures(
  node: YamlNode | undefined,
  section: StepSection,
): DeclaredCapture[] {
  if (node?.kind !== "seq") return [];
  return node.items.flatMap((item, i) => {
    const capture = item.kind === "map"
      ? item.entries.find((e) => e.key === "capture")?.value
      : undefined;
    return capture?.kind === "map"
      ? capture.entries.map((e) => ({ name: e.key, step: join(section, i) }))
      : [];
  });
}

/**
 * Reads `setup` or `teardown`. `before` holds the names captured by every step that runs before
 * this section (the setup's, for teardown); `defaults` are the plan's, whose headers go on a step
 * once every capture they read is taken.
 */
export function readSteps(
  reader: PlanReader,
  node: YamlNode,
  section: StepSection,
  target: string | undefined,
  defaults: RequestDefaults,
  ctx: PlanContext,
  scope: TemplateScope,
  before: readonly string[],
): PlanStep[] {
  const items = reader.list(node, section);
  if (items === undefined) return [];
  const declared = declaredCaptures(node, section);
  const taken = new Set(before);
  const out: PlanStep[] = [];
  items.forEach((item, i) => {
    const path = join(section, i);
    const stepScope: TemplateScope = {
      ...scope,
      captures: new Set(taken),
      capturedLater: new Map(
        declared.filter((d) => !taken.has(d.name)).map((d) => [d.name, d.step]),
      ),
      sentOnce: `a ${section} step is sent once; \`{{…}}\` of a var or data column draws a ` +
        "value per measured request",
    };
    const ready = defaults.headers.filter((h) =>
      (h.parts ?? []).every((p) => p.kind !== "capture" || taken.has(p.name))
    );
    const read = readRequest(
      reader,
      item,
      path,
      "step",
      target,
      { ...defaults, headers: ready },
      ctx,
      stepScope,
    );
    const captureNode = read?.fields.at("capture");
    const captures = captureNode
      ? readCaptures(reader, captureNode, join(path, "capture"), scope, taken)
      : [];
    for (const c of captures) taken.add(c.name);
    if (read?.request === undefined) return;
    out.push({ ...read.request, captures, line: item.pos.line });
  });
  return out;
}

/**
 * Warns of each capture that no request or step reads (`{{name}}` nowhere), at its name, as an
 * unused var is: a typo in the name that uses it, or a leftover. Call it only when the requests
 * and steps read without error (a broken one's uses are unknown).
 */
export function warnUnusedCaptures(
  reader: PlanReader,
  nodes: Record<StepSection, YamlNode | undefined>,
  sent: readonly RequestBasics[],
): void {
  const used = new Set<string>();
  const read = (parts: readonly TemplatePart[] | undefined) => {
    for (const p of parts ?? []) if (p.kind === "capture") used.add(p.name);
  };
  for (const r of sent) {
    for (const h of r.headers) read(h.parts);
    read(r.template?.target);
    for (const h of r.template?.headers ?? []) read(h.parts);
    read(r.template?.body);
  }
  for (const section of ["setup", "teardown"] as const) {
    const node = nodes[section];
    if (node?.kind !== "seq") continue;
    node.items.forEach((item, i) => {
      const capture = item.kind === "map"
        ? item.entries.find((e) => e.key === "capture")?.value
        : undefined;
      for (const entry of capture?.kind === "map" ? capture.entries : []) {
        if (used.has(entry.key)) continue;
        reader.warn(
          { pos: entry.keyPos, length: entry.key.length },
          join(join(join(section, i), "capture"), entry.key),
          `capture \`${entry.key}\` is not used by any request or step`,
          `write \`{{${entry.key}}}\` in a path, header or body, or remove it`,
        );
      }
    });
  }
}

/**
 * Reads a step's `capture` mapping; `taken` holds the names captured before it (and, in a
 * journey, the setup's); `regex` allows `{ regex: … }` (a journey step's).
 */
export function readCaptures(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  scope: TemplateScope,
  taken: ReadonlySet<string>,
  regex = false,
): PlanCapture[] {
  if (node.kind !== "map") {
    reader.error(node, path, "`capture` maps names to `{ json: /pointer }` or `{ header: name }`");
    return [];
  }
  const out: PlanCapture[] = [];
  for (const entry of node.entries) {
    const at = join(path, entry.key);
    const clash = !TEMPLATE_NAME.test(entry.key)
      ? ["is not a name a template can use", "use letters, digits and `_`, e.g. `token`"]
      : scope.vars.has(entry.key) || scope.sources.has(entry.key)
      ? ["is also a var or data source of this plan", "rename the capture"]
      : taken.has(entry.key)
      ? ["is captured twice", "capture each name once"]
      : undefined;
    if (clash) {
      reader.errorAt(entry.keyPos, entry.key.length, at, `\`${entry.key}\` ${clash[0]}`, clash[1]);
      continue;
    }
    const from = readSource(reader, entry.value, at, regex);
    if (from) out.push({ name: entry.key, from });
  }
  return out;
}

function readSource(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  regex: boolean,
): CaptureSource | undefined {
  const keys = regex ? ["json", "header", "regex"] : ["json", "header"];
  const f = reader.fields(node, path, keys, { pointer: "json", jsonpath: "json" }, {
    regex: "a setup step captures by `json` or `header`; `regex` is for a journey's steps",
  });
  if (f === undefined) return undefined;
  if (f.size !== 1) {
    reader.error(
      node,
      path,
      "a capture takes its value from one place",
      "write `{ json: /access_token }` or `{ header: set-cookie }`",
    );
    return undefined;
  }
  const [[key, entry]] = f;
  if (key === "regex") {
    const pattern = readPattern(reader, entry.value, join(path, key), 1);
    return pattern === undefined ? undefined : { kind: "regex", pattern };
  }
  const text = reader.string(entry.value, join(path, key));
  if (text === undefined) return undefined;
  if (key === "header") {
    if (HEADER_NAME.test(text)) return { kind: "header", name: text.toLowerCase() };
    reader.error(
      entry.value,
      join(path, key),
      `\`${text}\` is not a header name`,
      "name the header as it is sent, e.g. `set-cookie` or `x-request-id`",
    );
    return undefined;
  }
  const wrong = jsonPointerProblem(text);
  if (wrong === undefined) return { kind: "json", pointer: text };
  reader.error(entry.value, join(path, key), `\`${text}\` is not a JSON pointer`, wrong);
  return undefined;
}

/**
 * Why `text` is not a JSON pointer (RFC 6901), as a hint with the pointer it likely means, or
 * undefined when it is one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonPointerProblem } from "./validate_steps.ts";
 * assert.equal(jsonPointerProblem("/data/0/id"), undefined);
 * assert.equal(jsonPointerProblem("data.id"), "a JSON pointer starts with `/`: write `/data/id`");
 * ```
 */
export function jsonPointerProblem(text: string): string | undefined {
  if ((text === "" || text.startsWith("/")) && !/~(?![01])/.test(text)) return undefined;
  return text.startsWith("$")
    ? `a JSON pointer (RFC 6901) names each step from the root: \`${pointerOf(text.slice(1))}\``
    : text.startsWith("/")
    ? "`~` starts an escape in a JSON pointer: `~0` is `~` and `~1` is `/`"
    : `a JSON pointer starts with \`/\`: write \`${pointerOf(text)}\``;
}

/**
 * The JSON pointer a path written another way means: `data.items[0].id` (or `.data…`, as a
 * JSONPath without its `$`) is `/data/items/0/id`; `data/token` is `/data/token`.
 */
function pointerOf(text: string): string {
  if (text.includes("/")) return `/${text.replace(/^\/+/, "")}`;
  const steps = text.replace(/\[(\d+)\]/g, ".$1").split(".").filter((s) => s !== "");
  return `/${steps.map((s) => s.replaceAll("~", "~0")).join("/")}`;
}
