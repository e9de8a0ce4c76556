/**
 * Command-line arguments shared by several commands: the ad-hoc plan made from flags, the result
 * options, shards, CA certificates and `--start`; and `tailgate history`'s settings flags.
 *
 * @module
 */
export { adHocRun, formatAdHocIssue } from "./adhoc_issues.ts";
export type { AdHocPlan } from "./adhoc_plan.ts";
export { argsError, parseCommandArgs } from "./command_args.ts";
export {
  colorChoice,
  failOnArg,
  junitInconclusiveArg,
  readResultArgs,
  RESULT_ARG_OPTIONS,
} from "./result_args.ts";
export type { ResultOutputOptions } from "./result_args.ts";
export { readStartArgs, START_HELP, START_OPTIONS } from "./start_args.ts";
export { parseShard, parseStartAt } from "./shard_args.ts";
export { expandPlanPaths } from "./plan_paths.ts";
export { type HistoryOptionsRead, readHistoryOptions, readMinChange } from "./history_options.ts";
export { OVERRIDE_HELP, OVERRIDE_OPTIONS, readOverrideArgs } from "./override_args.ts";
export { AB_OPTIONS, type AbArgs, readAbArgs } from "./ab_args.ts";
