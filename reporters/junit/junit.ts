/**
 * The JUnit XML report: the run's gates as tests, for the test views of GitHub, GitLab and
 * Jenkins. One `testsuite` for the plan inside `testsuites` with totals, one `testcase` per
 * verdict (the run's own soundness among them: `run complete`, `target answered to the end`):
 * `fail` is a `failure`, `invalid` an `error`; `inconclusive` as `--junit-inconclusive` says
 * (junit_inconclusive.ts): by default (`auto`) as the run's `fail-on` (default
 * `inconclusive-sampling`; runner/result/read/fail_on.ts) levels it, as the GitHub Action does:
 * `skipped` with its reason when it is a warning (by default: the runner left it undecided), an
 * `error` of type `inconclusive` when it turns the run red (by default: too few requests); or every
 * one `skipped`, or every one a `failure` of type `inconclusive`; the
 * cases' `time`s share out the run's, each in proportion to the stages it judged, so they add up
 * to the suite's `time`, the run's duration. The file follows the Jenkins xUnit JUnit schema
 * but for the `skipped` total on `testsuites`, and the Ant one apart from what that schema
 * predates (docs/reporters.md).
 *
 * @module
 */
import {
  formatMetric,
  gatesVerdict,
  holdsSoundness,
  runProtocol,
  runVerdict,
  soundnessVerdicts,
  toolLimitedSummary,
  undecidedWarning,
} from "../../runner/result/read/mod.ts";
import { formatRatePerSec } from "../../runner/plan/mod.ts";
import { DEFAULT_FAIL_ON, type FailOn, failsUnder } from "../../runner/result/read/mod.ts";
import type { RunResult, Verdict } from "../../runner/model/mod.ts";
import { checkLines, NO_FIGURE, rateLimitedSentence, verdictFigures } from "../figures/mod.ts";
import { junitDocument, type TestCase } from "./junit_document.ts";
import {
  DEFAULT_JUNIT_INCONCLUSIVE,
  inconclusiveElement,
  type JunitInconclusive,
} from "./junit_inconclusive.ts";

/** The element of each verdict status but `pass`, and back: a failure or error's `type`. */
const ELEMENT = { fail: "failure", invalid: "error" } as const;

/**
 * Renders the result's verdicts as a JUnit XML document (UTF-8, XML 1.0): each undecided gate as
 * `inconclusive` says (default `auto`: as `failOn` levels it).
 */
export function renderJunit(
  result: RunResult,
  failOn: FailOn = DEFAULT_FAIL_ON,
  inconclusive: JunitInconclusive = DEFAULT_JUNIT_INCONCLUSIVE,
): string {
  // A result judged before the run's soundness was a gate (or not judged: a shard) gets those
  // gates here, once: its other gates may pass, but the run does not.
  const soundness = holdsSoundness(result) ? [] : soundnessVerdicts(result);
  const mapping = { failOn, inconclusive };
  const cases = [
    ...(result.verdicts.length > 0
      ? result.verdicts.map((v) => verdictCase(result, v, mapping))
      : [noGatesCase(result)]),
    ...soundness.map((v) => verdictCase(result, v, mapping)),
  ];
  return junitDocument({
    name: result.plan.name,
    startedAt: result.run.startedAt,
    durationMs: result.run.durationMs,
    properties: [
      ...properties(result),
      ["junit.inconclusive", inconclusive],
      ["junit.failOn", failOn],
    ],
    cases,
    systemOut: summary(result),
  });
}

function verdictCase(
  result: RunResult,
  v: Verdict,
  mapping: { failOn: FailOn; inconclusive: JunitInconclusive },
): TestCase {
  const classname = `tailgate.${result.plan.name}.${v.kind}`;
  const judged = judgedMs(result, v.stageIndexes);
  if (v.status === "pass") return { name: v.name, classname, judgedMs: judged };
  // An undecided gate: by default an error when it alone turns the run red under its fail-on.
  const element = v.status === "inconclusive"
    ? inconclusiveElement(failsUnder(gatesVerdict([v]), mapping.failOn), mapping.inconclusive)
    : { element: ELEMENT[v.status] };
  return {
    name: v.name,
    classname,
    judgedMs: judged,
    outcome: { ...element, message: v.message, body: details(result, v).join("\n") },
  };
}

/**
 * How long the stages a gate judged ran (as far as the run got): a case's weight in the run's time
 * (junit_document.ts). A gate of the whole run (soundness, no stage) weighs the run's time.
 */
function judgedMs(result: RunResult, stageIndexes: readonly number[]): number {
  if (stageIndexes.length === 0) return result.run.durationMs;
  const endMs = result.run.durationMs;
  return result.stages
    .filter((s) => stageIndexes.includes(s.index))
    .reduce(
      (sum, s) => sum + Math.max(0, Math.min(s.startMs + s.durationMs, endMs) - s.startMs),
      0,
    );
}

/** What a reader needs to act on a verdict: the figures, where it was judged, why it is void. */
function details(result: RunResult, v: Verdict): string[] {
  const lines = [v.message];
  const figures = verdictFigures(v);
  for (const key of ["measured", "bound", "margin"] as const) {
    if (figures[key] !== NO_FIGURE) lines.push(`${key}: ${figures[key]}`);
  }
  if (v.ci95 !== undefined && v.unit !== undefined) {
    const [low, high] = v.ci95.map((x) => formatMetric(x, v.unit!));
    lines.push(`95% confidence interval: ${low} to ${high}`);
  }
  if (v.marginal) lines.push("marginal: the bound lies inside the 95% confidence interval");
  if (v.ksDistance !== undefined) lines.push(`KS distance: ${v.ksDistance.toFixed(3)}`);
  const stages = v.stageIndexes.map((i) => result.stages.find((s) => s.index === i)?.name ?? i);
  if (stages.length > 0) lines.push(`stages: ${stages.join(", ")}`);
  if (v.label !== undefined) lines.push(`label: ${v.label}`);
  lines.push(`plan: ${result.plan.file}${v.line === undefined ? "" : `:${v.line}`}`);
  return [...lines, ...runProblems(result)];
}

function noGatesCase(result: RunResult): TestCase {
  const slos = result.plan.slos.length;
  const why = [
    slos === 0 ? "the plan defines no SLOs" : `the plan's ${slos} SLO(s) were not judged`,
    result.baseline === undefined
      ? "the run was not compared with a baseline"
      : "no stage of the run matched the baseline's",
  ].join(" and ");
  const message = `no gate was judged: ${why}`;
  return {
    name: "no gates judged",
    classname: `tailgate.${result.plan.name}.gates`,
    judgedMs: result.run.durationMs,
    outcome: { element: "skipped", message, body: message },
  };
}

/** Facts that void or qualify every number of the run. */
function runProblems(result: RunResult): string[] {
  const lines: string[] = [];
  if (!result.run.complete) {
    lines.push(
      `the run stopped early (${result.run.stopReason}): the figures are what was measured until then`,
    );
  }
  if (result.health.toolLimited) {
    lines.push(
      `the run was tool-limited: ${toolLimitedSummary(result)}`,
    );
    lines.push(...result.health.reasons.map((r) => `tool health: ${r}`));
  }
  return lines;
}

/**
 * The suite's `system-out`: warnings and run problems first, the rate-limited requests (when
 * any), then every verdict in one line.
 */
function summary(result: RunResult): string[] {
  const h = result.health;
  return [
    runVerdict(result).summary,
    ...[undecidedWarning(runVerdict(result))].flatMap((w) => w ? [`warning: ${w}`] : []),
    ...(result.warnings ?? []).map((w) => `warning: ${w}`),
    ...runProblems(result),
    `rate: achieved ${formatRatePerSec(h.achievedPerSec)} of ${
      formatRatePerSec(h.intendedPerSec)
    } intended`,
    ...[rateLimitedSentence(result)].flatMap((s) => s ? [`rate limited: ${s}`] : []),
    ...result.verdicts.map((v) => `${v.status}: ${v.name}: ${v.message}`),
    ...checkLines(result, Infinity).lines.map((l) => `check: ${l}`),
  ];
}

/**
 * Suite properties: the environment fingerprint, the facts of the run, and each measured stage's
 * time-domain findings.
 */
function properties(result: RunResult): Array<[string, string]> {
  const e = result.environment;
  const r = result.run;
  const h = result.health;
  const b = result.baseline;
  const all: Array<[string, string | number | boolean | undefined]> = [
    ["tailgate.version", e.tailgateVersion],
    ["deno.version", e.denoVersion],
    ["v8.version", e.v8Version],
    ["os", e.os],
    ["arch", e.arch],
    ["cpu", e.cpuModel],
    ["cores", e.cores],
    ["git.sha", e.gitSha],
    ["ci", e.ci],
    ["plan.name", result.plan.name],
    ["plan.file", result.plan.file],
    ["plan.overrides", result.plan.overrides?.join(" ")],
    ["run.startedAt", r.startedAt],
    ["run.endedAt", r.endedAt],
    ["run.durationMs", Math.round(r.durationMs)],
    ["run.complete", r.complete],
    ["run.stopReason", r.stopReason],
    ["run.shard", r.shard ? `${r.shard.index}/${r.shard.count}` : undefined],
    ["run.mergedShards", r.mergedShards],
    ["run.protocol", runProtocol(result)],
    ["run.grpc", r.grpc],
    ["run.maxStreams", r.maxStreams],
    ["run.toolLimited", h.toolLimited],
    ["run.intendedPerSec", Math.round(h.intendedPerSec * 10) / 10],
    ["run.achievedPerSec", Math.round(h.achievedPerSec * 10) / 10],
    ["baseline.source", b?.source],
    ["baseline.runs", b?.runs],
    ["baseline.date", b?.date],
    ["baseline.gitSha", b?.gitSha],
    ...result.stages.flatMap((stage) => timeDomainProperties(stage)),
  ];
  return all.flatMap(([name, value]) => value === undefined ? [] : [[name, String(value)]]);
}

/** A measured stage's time-domain findings (trends, stalls, two modes) as `stage.<index>.…`. */
function timeDomainProperties(
  stage: RunResult["stages"][number],
): Array<[string, string | number | boolean | undefined]> {
  const t = stage.timeDomain;
  if (t === undefined) return [];
  const key = `stage.${stage.index}`;
  const trend = (p: "p50" | "p99", x: typeof t.trendP50UsPerMin) =>
    x === undefined ? [] : [
      [`${key}.trend.${p}.usPerMin`, Math.round(x.slope)],
      [`${key}.trend.${p}.ci95UsPerMin`, `${Math.round(x.low)}..${Math.round(x.high)}`],
      [`${key}.trend.${p}.significant`, x.significant],
    ] as Array<[string, string | number | boolean]>;
  return [
    [`${key}.name`, stage.name],
    ...trend("p50", t.trendP50UsPerMin),
    ...trend("p99", t.trendP99UsPerMin),
    [`${key}.stalls`, t.stalls.length],
    [`${key}.stalls.atMs`, t.stalls.length ? t.stalls.map((x) => x.startMs).join(",") : undefined],
    [`${key}.stalls.periodMs`, t.stallPeriodMs],
    [`${key}.bimodal`, t.bimodal.flagged],
    [`${key}.bimodal.modesUs`, t.bimodal.modesUs?.join(",")],
  ];
}
