/**
 * The A/B comparison as JUnit XML (`ab-junit.xml`): one test case per gated (stage, label, metric)
 * comparison (classname `tailgate.<plan>.ab`) and per SLO judged on head's runs (`….slo`); a
 * regression or failed SLO is a `failure`, an invalid one an `error`; an undecided one as
 * `--junit-inconclusive` says, as the run's report does: by default (`auto`) as the comparison's
 * `fail-on` levels it, `skipped` with why when it is a warning (by default: the runner or the base
 * build left it undecided, or it is a comparison), an `error` of type `inconclusive` when it turns
 * the job red (by default: an SLO had too few requests); or every one `skipped`, or every one a
 * `failure`. The same document shape as the run's report (junit_document.ts).
 *
 * @module
 */
import type { AbResult } from "../../runner/model/mod.ts";
import { gatesVerdict, undecidedWarning } from "../../runner/result/read/mod.ts";
import { DEFAULT_FAIL_ON, type FailOn, failsUnder } from "../../runner/result/read/mod.ts";
import type { VerdictStatus } from "../../runner/model/mod.ts";
import {
  DEFAULT_JUNIT_INCONCLUSIVE,
  inconclusiveElement,
  junitDocument,
  type JunitInconclusive,
  type TestCase,
} from "../junit/mod.ts";

const ELEMENT = { fail: "failure", invalid: "error" } as const;

/**
 * Renders the comparison: each undecided check as `inconclusive` says (default `auto`: as
 * `failOn` levels it).
 */
export function renderAbJunit(
  ab: AbResult,
  failOn: FailOn = DEFAULT_FAIL_ON,
  inconclusive: JunitInconclusive = DEFAULT_JUNIT_INCONCLUSIVE,
): string {
  const plan = ab.plan.name;
  const durationMs = Date.parse(ab.endedAt) - Date.parse(ab.startedAt);
  // Every check is judged on the rounds as a whole: each weighs the same in the comparison's time.
  const testCase = (
    name: string,
    classname: string,
    status: VerdictStatus,
    message: string,
    red = false,
  ): TestCase =>
    status === "pass" ? { name, classname, judgedMs: durationMs } : {
      name,
      classname,
      judgedMs: durationMs,
      outcome: {
        ...(status === "inconclusive"
          ? inconclusiveElement(red, inconclusive)
          : { element: ELEMENT[status] }),
        message,
        body: message,
      },
    };
  // An undecided check is an error when it alone turns the job red under its fail-on.
  const reddens = (v: Parameters<typeof gatesVerdict>[0][number]) =>
    v.status === "inconclusive" && failsUnder(gatesVerdict([v]), failOn);
  const cases = [
    ...ab.comparisons.map((c) =>
      testCase(
        c.name,
        `tailgate.${plan}.ab`,
        c.status,
        c.message,
        reddens({ kind: "regression", status: c.status }),
      )
    ),
    ...ab.slos.map((s) =>
      testCase(
        s.name,
        `tailgate.${plan}.slo`,
        s.status,
        s.message,
        reddens({ kind: "slo", status: s.status, causes: s.causes }),
      )
    ),
  ];
  return junitDocument({
    name: plan,
    startedAt: ab.startedAt,
    durationMs,
    properties: [
      ["tailgate.version", ab.environment.tailgateVersion],
      ["cpu", ab.environment.cpuModel],
      ["cores", String(ab.environment.cores)],
      ["plan.name", plan],
      ["plan.file", ab.plan.file],
      ["ab.base", ab.targets.base.url],
      ["ab.head", ab.targets.head.url],
      ["ab.rounds", String(ab.rounds.length)],
      ["ab.seed", String(ab.settings.seed)],
      ["ab.complete", String(ab.complete)],
      ["junit.inconclusive", inconclusive],
      ["junit.failOn", failOn],
    ],
    cases: cases.length
      ? cases
      : [testCase("comparison", `tailgate.${plan}.ab`, ab.verdict.status, ab.verdict.message)],
    systemOut: [
      `${ab.verdict.status}: ${ab.verdict.message}`,
      ...[undecidedWarning(ab.verdict)].flatMap((w) => w ? [`warning: ${w}`] : []),
      ...ab.rounds.map((r) => `round ${r.index}: ${r.order.join(" then ")}`),
    ],
  });
}
