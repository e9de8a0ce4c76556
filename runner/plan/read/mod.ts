/**
 * Reading a plan file: the located YAML tree, the plan-language table (every key's kind, bounds,
 * default, synonyms), the reader that collects located issues, and the generated JSON schema.
 *
 * @module
 */
export { parseYaml, type SourcePos, type YamlEntry, type YamlNode } from "./_yaml.ts";
export { didYouMean, editDistance } from "./did_you_mean.ts";
export { planFile } from "./plan_file.ts";
export {
  keysOf,
  keySpec,
  PLAN_LANGUAGE,
  REGRESSION_METRICS,
  type SectionName,
} from "./plan_language.ts";
export { join, PlanReader, sourceText } from "./plan_reader.ts";
export { keyDefault, readSection, Section } from "./read_section.ts";
export { PLAN_SCHEMA_PATH, planSchema, planSchemaText } from "./plan_schema.ts";
