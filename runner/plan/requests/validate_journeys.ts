/**
 * Validates a journey of `requests` (docs/decisions/journeys.md): its name, weight and steps, each
 * step a request's keys but `weight`, with `capture` (`json`, `header`, `regex`), `check` and
 * `think`. A step reads vars and data (drawn once per journey), the setup's captures and those of
 * the steps before it in the same journey; a step's label is `JOURNEY / NAME`.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import type { PlanContext } from "../plan_context.ts";
import { join, type PlanReader, readSection } from "../read/mod.ts";
import type { PlanJourney, PlanJourneyStep, PlanThink } from "../types.ts";
import type { TemplateScope } from "../traffic/mod.ts";
import { parseDurationMs } from "../units.ts";
import { readChecks } from "./validate_checks.ts";
import { readRequest } from "./validate_requests.ts";
import { callCapturesOk, callChecksOk, type RequestDefaults } from "./validate_grpc_call.ts";
import { readCaptures } from "./validate_steps.ts";

/** The most steps a journey has. */
export const MAX_JOURNEY_STEPS = 32;

/** Whether a `requests` item is a journey (by its key or a synonym of it). */
export function isJourneyItem(item: YamlNode): boolean {
  return item.kind === "map" &&
    item.entries.some((e) => ["journey", "flow", "scenario"].includes(e.key));
}

/**
 * Reads one journey entry: the journey, undefined when it is wrong (reported), and every step's
 * label, also of a broken step (undefined when one cannot be told).
 */
export function readJourney(
  reader: PlanReader,
  item: YamlNode,
  path: string,
  target: string | undefined,
  defaults: RequestDefaults,
  ctx: PlanContext,
  scope: TemplateScope,
): { journey?: PlanJourney; name?: string; labels?: string[] } {
  const f = readSection(reader, item, path, "journey");
  if (f === undefined) return {};
  const name = f.get<string>("journey");
  const weight = f.get<number>("weight");
  const stepsNode = f.at("steps");
  const items = stepsNode ? reader.list(stepsNode, join(path, "steps")) : undefined;
  if (items === undefined || name === undefined) return { ...(name ? { name } : {}) };
  if (items.length === 0 || items.length > MAX_JOURNEY_STEPS) {
    reader.error(
      stepsNode!,
      join(path, "steps"),
      items.length === 0
        ? "the journey has no steps"
        : `the journey has ${items.length} steps, more than ${MAX_JOURNEY_STEPS}`,
      items.length === 0 ? "add e.g. `- { path: /items }`" : "split it into journeys",
    );
  }
  const declared = items.flatMap((s, i) => {
    const c = s.kind === "map" ? s.entries.find((e) => e.key === "capture")?.value : undefined;
    return c?.kind === "map"
      ? c.entries.map((e) => ({ name: e.key, step: join(join(path, "steps"), i) }))
      : [];
  });
  const taken = new Set(scope.captures);
  const steps: PlanJourneyStep[] = [];
  let labels: string[] | undefined = [];
  items.forEach((stepItem, i) => {
    const at = join(join(path, "steps"), i);
    const stepScope: TemplateScope = {
      ...scope,
      captures: new Set(taken),
      capturedLater: new Map(
        declared.filter((d) => !taken.has(d.name)).map((d) => [d.name, d.step]),
      ),
    };
    const read = readRequest(
      reader,
      stepItem,
      at,
      "journey_step",
      target,
      defaults,
      ctx,
      stepScope,
    );
    const nameNode = read?.fields.at("name");
    const stepLabel = read?.label === undefined ? undefined : `${name} / ${read.label}`;
    if (stepLabel !== undefined && (nameNode || read?.request)) labels?.push(stepLabel);
    else labels = undefined;
    const captureNode = read?.fields.at("capture");
    const isCall = read?.fields.has("call") === true;
    const captures = captureNode && (!isCall || callCapturesOk(reader, captureNode, at))
      ? readCaptures(reader, captureNode, join(at, "capture"), scope, taken, true)
      : [];
    for (const c of captures) taken.add(c.name);
    const thinkNode = read?.fields.at("think");
    const think = thinkNode ? readThink(reader, thinkNode, join(at, "think")) : undefined;
    if (thinkNode && i === 0) {
      reader.error(
        thinkNode,
        join(at, "think"),
        "the first step is due when its journey starts: it has no think time",
        "move the pause to the second step, or lower the rate",
      );
    }
    const checkNode = read?.fields.at("check");
    const checks = checkNode && (!isCall || callChecksOk(reader, checkNode, at))
      ? readChecks(reader, checkNode, join(at, "check"))
      : [];
    if (read?.request === undefined || stepLabel === undefined) return;
    steps.push({
      ...read.request,
      label: stepLabel,
      captures,
      ...(checks.length ? { checks } : {}),
      ...(think ? { think } : {}),
      line: stepItem.pos.line,
    });
  });
  if (weight === undefined || steps.length !== items.length || items.length === 0) {
    return { name, ...(labels ? { labels } : {}) };
  }
  return { journey: { name, weight, steps, line: item.pos.line }, name, labels: labels ?? [] };
}

/**
 * Reads `think`: a duration (`50ms`) or a range (`100ms..500ms`), at least 0 and at most 1 h.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseYaml, PlanReader } from "../read/mod.ts";
 * import { readThink } from "./validate_journeys.ts";
 * const node = parseYaml("100ms..500ms").root!;
 * assert.deepEqual(readThink(new PlanReader("p.yaml"), node, "think"), { minMs: 100, maxMs: 500 });
 * ```
 */
export function readThink(reader: PlanReader, node: YamlNode, path: string): PlanThink | undefined {
  if (node.kind === "seq") {
    const parts = node.items.map((n) => (n.kind === "scalar" ? String(n.value) : "?"));
    reader.error(
      node,
      path,
      "a think range is written as one value",
      `write \`${parts.join("..")}\``,
    );
    return undefined;
  }
  const text = reader.string(node, path, true);
  if (text === undefined) return undefined;
  const parts = text.split("..").map((p) => p.trim());
  if (parts.length > 2) {
    reader.error(
      node,
      path,
      `\`${text}\` is not a duration or a range`,
      "e.g. `500ms` or `100ms..500ms`",
    );
    return undefined;
  }
  const ms = parts.map((p) => parseDurationMs(p));
  const bad = ms.find((m) => !m.ok);
  if (bad && !bad.ok) {
    reader.error(
      node,
      path,
      bad.problems[0].message,
      bad.problems[0].hint ?? "e.g. `500ms` or `100ms..500ms`",
    );
    return undefined;
  }
  const [minMs, maxMs] = ms.map((m) => (m.ok ? m.value : 0));
  const think = { minMs, maxMs: maxMs ?? minMs };
  if (think.minMs > think.maxMs) {
    reader.error(
      node,
      path,
      `the range \`${text}\` runs backwards`,
      `write \`${parts[1]}..${parts[0]}\``,
    );
    return undefined;
  }
  if (think.maxMs > 3_600_000) {
    reader.error(node, path, "a think time is at most 1h", "a longer pause is another journey");
    return undefined;
  }
  return think;
}
