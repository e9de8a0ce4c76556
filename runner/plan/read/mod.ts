/**
 * Reading a plan file: the located YAML tree, the plan-language table (every key's kind, bounds,
 * default, synonyms), the reader that collects located issues, and the generated JSON schema.
 *
 * @module
 */
export { parseYaml } from "./_yaml.ts";
export type { SourcePos, YamlEntry, YamlMap, YamlNode, YamlScalar } from "./_yaml.ts";
export { didYouMean, editDistance } from "./did_you_mean.ts";
export { planFile } from "./plan_file.ts";
export {
  keysOf,
  keySpec,
  MAX_TRACESTATE_CHARS,
  PLAN_LANGUAGE,
  REGRESSION_METRICS,
} from "./plan_language.ts";
export type { SectionName } from "./plan_language.ts";
export { join, PlanReader, sourceText } from "./plan_reader.ts";
export { PLAN_SCHEMA_PATH, planSchema, planSchemaText } from "./plan_schema.ts";
export { keyDefault, readSection, Section } from "./read_section.ts";
