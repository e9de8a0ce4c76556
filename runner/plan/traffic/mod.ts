/**
 * The plan's traffic: data files (`data`), per-request vars (`vars`) and the `{{…}}` templates of
 * paths, headers and bodies that draw from them.
 *
 * @module
 */
export { columnValues, firstRowMatching, valueAt } from "../runtime/mod.ts";
export { DATA_LIMITS, readDataTable } from "./data_table.ts";
export type { DataTable, DataTableProblem } from "./data_table.ts";
export { parseTemplate } from "./parse_template.ts";
export type { ParsedTemplate, TemplateProblem, TemplateScope } from "./parse_template.ts";
export { jsonAsTree, jsonTemplate, scalarTemplate, sentText } from "./template_nodes.ts";
export type { CompiledTemplate } from "./template_nodes.ts";
export { templateScope, warnUnused } from "./template_scope.ts";
export { refOwner, requestRefs } from "../runtime/mod.ts";
export { MAX_PLAN_DATA_CELLS, readData } from "./validate_data.ts";
export { MAX_CHOICES, readVars, specText, TEMPLATE_NAME } from "./validate_vars.ts";
export {
  drawsFromSeed,
  PER_RUN_SEED_PLACEHOLDER,
  type RunSeedSource,
  seedOfInstant,
  withRunSeed,
} from "./plan_seed.ts";
