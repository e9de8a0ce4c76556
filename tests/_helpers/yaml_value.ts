/**
 * YAML files as plain values for the CI tests, through the project's one YAML boundary
 * (runner/plan/read/_yaml.ts).
 *
 * @module
 */
import { parseYaml, type YamlNode } from "../../runner/plan/read/_yaml.ts";

/** A YAML mapping as a plain object. */
export type YamlObject = { [key: string]: YamlValue };

/** A YAML value as plain data. */
export type YamlValue = string | number | boolean | null | YamlValue[] | YamlObject;

/**
 * Parses one YAML document into plain data; throws with the parser's issues when it is not valid.
 *
 * @example
 * ```ts
 * import { yamlValue } from "./yaml_value.ts";
 * yamlValue("on: [push]\n"); // { on: ["push"] }
 * ```
 */
export function yamlValue(text: string): YamlValue {
  const parsed = parseYaml(text);
  if (parsed.root === undefined || parsed.issues.length > 0) {
    const issues = parsed.issues.map((i) => `${i.pos.line}:${i.pos.col} ${i.message}`);
    throw new Error(`not valid YAML: ${issues.join("; ") || "empty"}`);
  }
  return plain(parsed.root);
}

/**
 * Every document of a multi-document YAML file (separated by `---` lines) as plain data.
 *
 * @example
 * ```ts
 * import { yamlDocuments } from "./yaml_value.ts";
 * yamlDocuments("a: 1\n---\nb: 2\n").length; // 2
 * ```
 */
export function yamlDocuments(text: string): YamlValue[] {
  return text.split(/^---[ \t]*$/m).filter((doc) => /^[^#\s]/m.test(doc)).map(yamlValue);
}

/**
 * A YAML file's mapping; throws when the file holds something else.
 *
 * @example
 * ```ts
 * import { readYamlObject } from "./yaml_value.ts";
 * const action = await readYamlObject("action.yml");
 * ```
 */
export async function readYamlObject(path: string | URL): Promise<YamlObject> {
  return asObject(yamlValue(await Deno.readTextFile(path)), String(path));
}

/**
 * `value` as a mapping; throws naming `what` otherwise.
 *
 * @example
 * ```ts
 * import { asObject } from "./yaml_value.ts";
 * asObject({ a: 1 }, "root").a; // 1
 * ```
 */
export function asObject(value: YamlValue | undefined, what: string): YamlObject {
  if (value === null || value === undefined || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${what} is not a mapping: ${JSON.stringify(value)}`);
  }
  return value;
}

function plain(node: YamlNode): YamlValue {
  if (node.kind === "scalar") return node.value;
  if (node.kind === "seq") return node.items.map(plain);
  const out: YamlObject = {};
  for (const e of node.entries) out[e.key] = plain(e.value);
  return out;
}
