/**
 * What a run's engine thread reads of a resolved plan, without the plan's reader: a side door
 * (tests/layers_test.ts, SIDE_DOORS) for the engine, recorder and schedule, whose Worker would
 * otherwise load the YAML and CSV parsers through `mod.ts` (about 40 ms of CPU a run) to call a
 * few small functions. Types still come through `mod.ts` (a type-only import loads nothing).
 *
 * @module
 */
export { statusExpected } from "./status_expected.ts";
export { firstUrl, labelNames, type MixLabel, type MixLabels, mixLabels } from "./mix_labels.ts";
export { isTraceHeader } from "./trace_header.ts";
export { MAX_BODY_FILE_BYTES, MAX_TEMPLATE_BODY_BYTES } from "./body_limits.ts";
export { columnValues, firstRowMatching, valueAt } from "./column_values.ts";
export { refOwner, requestRefs } from "./template_refs.ts";
export { framingProblem } from "../wire_rules.ts";
