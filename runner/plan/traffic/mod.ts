/**
 * The plan's traffic: data files (`data`), per-request vars (`vars`) and the `{{…}}` templates of
 * paths, headers and bodies that draw from them.
 *
 * @module
 */
export { DATA_LIMITS, type DataTable, type DataTableProblem, readDataTable } from "./data_table.ts";
export {
  type ParsedTemplate,
  parseTemplate,
  type TemplateProblem,
  type TemplateScope,
} from "./parse_template.ts";
export { MAX_PLAN_DATA_CELLS, readData } from "./validate_data.ts";
export { columnValues, firstRowMatching, valueAt } from "./column_values.ts";
export { MAX_CHOICES, readVars, specText, TEMPLATE_NAME } from "./validate_vars.ts";
export { refOwner, requestRefs, templateScope, warnUnused } from "./template_scope.ts";
export { type TargetTemplate, targetTemplate } from "./target_template.ts";
export {
  type CompiledTemplate,
  jsonAsTree,
  jsonTemplate,
  scalarTemplate,
  sentText,
} from "./template_nodes.ts";
