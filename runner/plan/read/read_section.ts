/**
 * The generic reader: a section of the plan read by the plan-language table alone. Unknown keys
 * (with did-you-mean, synonyms and misplaced-key hints), required keys, and every scalar key by its
 * kind (text, boolean, integers and numbers within their bounds, choices, durations, rates,
 * percentages), with the table's default when the key is absent. What the table cannot say (SLO
 * grammar, ramps, bodies, URLs, templates) the section readers add on top.
 *
 * @module
 */
import type { YamlEntry, YamlNode } from "./_yaml.ts";
import { keysOf, type KeySpec, keySpec, PLAN_LANGUAGE, type SectionName } from "./plan_language.ts";
import { join, type PlanReader, sourceText } from "./plan_reader.ts";
import { parseDurationMs, parsePercentFraction, parseRatePerSec } from "../units.ts";
import type { Result } from "../../model/mod.ts";

/** A scalar key's value as its kind reads it. */
export type KeyValue = string | number | boolean;

/** One mapping of the plan, its keys known to the table. */
export class Section {
  /** Each key's value once read, so reading it again reports nothing twice. */
  readonly #read = new Map<string, KeyValue | undefined>();

  constructor(
    readonly reader: PlanReader,
    readonly name: SectionName,
    readonly node: YamlNode,
    readonly path: string,
    readonly entries: ReadonlyMap<string, YamlEntry>,
  ) {}

  /** Whether the plan gives `key`. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The value node of `key`, when given. */
  at(key: string): YamlNode | undefined {
    return this.entries.get(key)?.value;
  }

  /** Where `key` is, as issues name it. */
  pathOf(key: string): string {
    return join(this.path, key);
  }

  /**
   * `key` read by its kind: the table's default when absent (parsed: a duration's in ms), undefined
   * when the value is wrong (reported) or when there is no default.
   */
  get<T extends KeyValue = KeyValue>(key: string): T | undefined {
    if (!this.#read.has(key)) {
      const spec = keySpec(this.name, key);
      const node = this.at(key);
      const value = node === undefined
        ? defaultOf(spec)
        : readValue(this.reader, node, this.pathOf(key), spec);
      this.#read.set(key, value);
    }
    return this.#read.get(key) as T | undefined;
  }

  /** `key` read by its kind, the table's default when it is absent or wrong. */
  value<T extends KeyValue = KeyValue>(key: string): T {
    return (this.get<T>(key) ?? defaultOf(keySpec(this.name, key))) as T;
  }
}

/**
 * Reads a mapping as section `name` of the table: unknown keys and missing required keys are
 * reported. Undefined (reported) when `node` is no mapping.
 */
export function readSection(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  name: SectionName,
): Section | undefined {
  const spec = PLAN_LANGUAGE[name];
  const entries = reader.fields(node, path, keysOf(name), spec.synonyms, spec.misplaced);
  if (entries === undefined) return undefined;
  const missing = spec.missing ??
    { message: "`{name}` needs `{key}`", hint: "add e.g. `{example}`" };
  for (const key of spec.required ?? []) {
    if (entries.has(key)) continue;
    const fill = (text: string) =>
      text.replaceAll("{key}", key).replaceAll("{name}", path.slice(path.lastIndexOf(".") + 1))
        .replaceAll("{example}", keySpec(name, key).example ?? `${key}: ...`);
    const at = spec.path === "" ? key : path;
    reader.error(node, at, fill(missing.message), fill(missing.hint));
  }
  return new Section(reader, name, node, path, entries);
}

/** A key's default as its kind reads it (a duration's in ms), undefined when it has none. */
export function keyDefault(section: SectionName, key: string): KeyValue | undefined {
  return defaultOf(keySpec(section, key));
}

function defaultOf(spec: KeySpec): KeyValue | undefined {
  if (spec.default === undefined) return undefined;
  if (spec.kind === "duration") return unwrap(parseDurationMs(String(spec.default)));
  if (spec.kind === "percent_change") return unwrap(parsePercentFraction(String(spec.default)));
  return spec.default;
}

function unwrap(parsed: Result<number>): number | undefined {
  return parsed.ok ? parsed.value : undefined;
}

function readValue(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  spec: KeySpec,
): KeyValue | undefined {
  switch (spec.kind) {
    case "text": {
      const text = reader.string(node, path, spec.numbersAsText);
      if (text !== undefined && spec.minLength && text.trim().length < spec.minLength) {
        reader.error(node, path, `\`${path}\` is empty`);
      }
      return text;
    }
    case "method": {
      const method = reader.string(node, path);
      if (method !== undefined && !/^[A-Z][A-Z-]*$/.test(method)) {
        const hint = `write \`${method.toUpperCase()}\``;
        reader.error(node, path, `\`${method}\` is not an HTTP method`, hint);
      }
      return method;
    }
    case "boolean":
      return reader.boolean(node, path);
    case "integer":
      return reader.number(node, path, { integer: true, min: spec.min, max: spec.max });
    case "integer_or_auto":
      if (node.kind === "scalar" && node.value === "auto") return "auto";
      return reader.number(node, path, { integer: true, min: spec.min, max: spec.max }) ?? "auto";
    case "positive_number":
      return reader.number(node, path, { above: 0, max: spec.max });
    case "choice": {
      // Read as text, a number as its text: whatever else is written is told as the wrong choice.
      const text = spec.numbersAsText ? sourceText(node) : reader.string(node, path);
      if (text === undefined || spec.values.includes(text)) return text ?? defaultOf(spec);
      const quoted = spec.values.map((v) => `\`${v}\``);
      if (spec.noun === undefined) {
        reader.error(node, path, `\`${text}\` is not one of ${quoted.join(", ")}`);
      } else {
        reader.error(node, path, `unknown ${spec.noun} \`${text}\``, `use ${quoted.join(" or ")}`);
      }
      return defaultOf(spec);
    }
    case "duration": {
      const ms = reader.unit(node, path, parseDurationMs);
      if (ms === undefined || !spec.positive || ms > 0) return ms;
      reader.error(node, path, `\`${path}\` must be above zero`);
      return undefined;
    }
    case "rate":
      return reader.unit(node, path, parseRatePerSec);
    case "percent_change": {
      const parsed = parsePercentFraction(node.kind === "scalar" ? String(node.value) : "");
      if (parsed.ok) return parsed.value;
      reader.error(node, path, parsed.problems[0].message, spec.hint);
      return undefined;
    }
    default:
      throw new Error(`${path}: a ${spec.kind} is read by its section's reader`);
  }
}
