/**
 * The options `tailgate run` and `tailgate merge` share (where the reports go, which ones, the
 * baseline and the commit it files the run under, colour), read into what
 * {@linkcode finishResult} takes.
 *
 * @module
 */
import { DEFAULT_HISTORY_DIR } from "../../history/mod.ts";
import { CLI_FAIL_ON_VALUES, DEFAULT_FAIL_ON, type FailOn, readFailOn } from "../../result/mod.ts";
import { DEFAULT_RUN_REPORTS, parseReportFormats } from "../../../reporters/mod.ts";
import {
  DEFAULT_JUNIT_INCONCLUSIVE,
  type JunitInconclusive,
  readJunitInconclusive,
} from "../../../reporters/mod.ts";
import type { FinishOptions } from "../../api/mod.ts";
import { err, ok, prefixed, problem, type Result } from "../../model/mod.ts";
import { HISTORY_ARG_OPTIONS, readHistoryArgs } from "./history_args.ts";

/**
 * The shared options, as `node:util` `parseArgs` declares them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseArgs } from "node:util";
 * import { RESULT_ARG_OPTIONS } from "./result_args.ts";
 * assert.equal(parseArgs({ args: ["--no-baseline"], options: RESULT_ARG_OPTIONS }).values["no-baseline"], true);
 * ```
 */
export const RESULT_ARG_OPTIONS = {
  out: { type: "string" },
  report: { type: "string" },
  "report-url": { type: "string" },
  "fail-on": { type: "string" },
  "junit-inconclusive": { type: "string" },
  "allow-inconclusive": { type: "boolean" },
  /** The flag's name before result format 3 (`insufficient` became `inconclusive`). */
  "allow-insufficient": { type: "boolean" },
  baseline: { type: "string" },
  "no-baseline": { type: "boolean" },
  "update-baseline": { type: "boolean" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  ...HISTORY_ARG_OPTIONS,
} as const;

/**
 * What the shared options set: everything {@linkcode FinishOptions} has but `judge`, and the
 * commit and branch (`--commit`, `--branch`) the run is filed under.
 */
export type ResultOutputOptions = Omit<FinishOptions, "judge" | "confirm"> & {
  commit?: string;
  branch?: string;
};

/** The parsed values of {@linkcode RESULT_ARG_OPTIONS}. */
export interface ResultArgValues {
  out?: string;
  report?: string;
  "report-url"?: string;
  "fail-on"?: string;
  "junit-inconclusive"?: string;
  "allow-inconclusive"?: boolean;
  "allow-insufficient"?: boolean;
  baseline?: string;
  "no-baseline"?: boolean;
  "update-baseline"?: boolean;
  color?: boolean;
  "no-color"?: boolean;
  commit?: string;
  branch?: string;
  "history-runs"?: string;
}

/**
 * Reads the shared options: defaults (./tailgate-out, html+junit+md, `.tailgate/baselines`), or
 * the mistakes, each naming its option.
 */
export function readResultArgs(
  values: ResultArgValues,
): Result<ResultOutputOptions> {
  const reports = values.report === undefined
    ? ok([...DEFAULT_RUN_REPORTS])
    : parseReportFormats(values.report);
  if (!reports.ok) return err(prefixed("--report: ", reports.problems));
  const failOn = failOnArg(values);
  if (!failOn.ok) return failOn;
  const junit = junitInconclusiveArg(values);
  if (!junit.ok) return junit;
  const color = colorChoice(values);
  const history = readHistoryArgs(values);
  if (!history.ok) return history;
  return ok({
    ...history.value,
    outDir: values.out ?? "tailgate-out",
    reports: reports.value,
    ...(values["report-url"] ? { reportUrl: values["report-url"] } : {}),
    failOn: failOn.value,
    junitInconclusive: junit.value,
    ...(values["no-baseline"] ? {} : { baselineDir: values.baseline ?? DEFAULT_HISTORY_DIR }),
    updateBaseline: values["update-baseline"] ?? false,
    ...(color === undefined ? {} : { color }),
  });
}

/**
 * `--fail-on` (fail_on.ts: `inconclusive`, `inconclusive-slo`, `inconclusive-sampling`, `fail`;
 * default `inconclusive-sampling`), or `--allow-inconclusive` (and its old name `--allow-insufficient`), which
 * is `--fail-on fail`. Both at once, asking for different things, is a mistake.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failOnArg } from "./result_args.ts";
 * assert.deepEqual(failOnArg({ "allow-inconclusive": true }), { ok: true, value: "fail" });
 * assert.deepEqual(failOnArg({}), { ok: true, value: "inconclusive-sampling" });
 * ```
 */
export function failOnArg(
  values: { "fail-on"?: string; "allow-inconclusive"?: boolean; "allow-insufficient"?: boolean },
): Result<FailOn> {
  const allow = values["allow-inconclusive"] ?? values["allow-insufficient"] ?? false;
  if (values["fail-on"] === undefined) return ok(allow ? "fail" : DEFAULT_FAIL_ON);
  const read = readFailOn(values["fail-on"], CLI_FAIL_ON_VALUES);
  if (!read.ok) return err(prefixed("--fail-on: ", read.problems));
  if (allow && read.value !== "fail") {
    return err(problem(
      `--allow-inconclusive is \`--fail-on fail\`; it contradicts \`--fail-on ${read.value}\``,
    ));
  }
  return read;
}

/**
 * `--junit-inconclusive` (reporters/junit/junit_inconclusive.ts: `auto`, the default, `skipped`
 * or `failure`): how the JUnit report writes an undecided gate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { junitInconclusiveArg } from "./result_args.ts";
 * assert.deepEqual(junitInconclusiveArg({}), { ok: true, value: "auto" });
 * assert.deepEqual(junitInconclusiveArg({ "junit-inconclusive": "failure" }), { ok: true, value: "failure" });
 * ```
 */
export function junitInconclusiveArg(
  values: { "junit-inconclusive"?: string },
): Result<JunitInconclusive> {
  const text = values["junit-inconclusive"];
  if (text === undefined) return ok(DEFAULT_JUNIT_INCONCLUSIVE);
  const read = readJunitInconclusive(text);
  return read.ok ? read : err(prefixed("--junit-inconclusive: ", read.problems));
}

/**
 * `--color` / `--no-color`, or undefined to decide from the terminal and NO_COLOR.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { colorChoice } from "./result_args.ts";
 * assert.equal(colorChoice({ "no-color": true }), false);
 * ```
 */
export function colorChoice(
  values: { color?: boolean; "no-color"?: boolean },
): boolean | undefined {
  return values.color ? true : values["no-color"] ? false : undefined;
}
