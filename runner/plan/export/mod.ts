/**
 * The plan's `export` and `--export KIND=URL`: the receivers of a run's metrics, read and checked
 * (validate_export.ts), printed without their secrets and addressed (export_target.ts).
 *
 * @module
 */
export {
  EXPORT_KINDS,
  exportUrlProblem,
  otlpMetricsUrl,
  parseExportFlag,
  printableUrl,
} from "./export_target.ts";
export { readExports } from "./validate_export.ts";
