/**
 * A JUnit XML document from test cases: `testsuites` with the totals, one `testsuite` with its
 * properties, the cases and a `system-out`. Shared by the run's report (junit.ts) and the A/B
 * comparison's (ab_junit.ts), so both follow the same schemas (docs/reporters.md).
 *
 * @module
 */
import { apportionMs } from "./apportion_ms.ts";
import { xmlAttr, xmlText } from "./xml_escape.ts";

/** A test case as written: bare when it passed. */
export interface TestCase {
  name: string;
  classname: string;
  /**
   * How long the measurement the case judged took (its stages): its weight in the suite's time.
   * The case's `time` is its share of the suite's, so the cases add up to the suite's `time`.
   */
  judgedMs: number;
  outcome?: {
    element: "failure" | "error" | "skipped";
    /** The verdict's status the element stands for; default by the element (error: invalid). */
    type?: "fail" | "invalid" | "inconclusive";
    message: string;
    body: string;
  };
}

/** One suite's content. */
export interface JunitSuite {
  /** The suite's name (the plan's). */
  name: string;
  /** When it started (ISO 8601). */
  startedAt: string;
  durationMs: number;
  properties: Array<[string, string]>;
  cases: TestCase[];
  /** Lines of the suite's `system-out`. */
  systemOut: string[];
}

const TYPE = { failure: "fail", error: "invalid", skipped: "inconclusive" } as const;

/**
 * Renders the suite as a JUnit XML document (UTF-8, XML 1.0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { junitDocument } from "./junit_document.ts";
 * const xml = junitDocument({ name: "shop", startedAt: "2026-01-02T03:04:05Z", durationMs: 1000, properties: [], cases: [{ name: "p99 < 1ms", classname: "tailgate.shop.slo", judgedMs: 1000 }], systemOut: [] });
 * assert.ok(xml.includes('tests="1" failures="0" errors="0" skipped="0"'));
 * ```
 */
export function junitDocument(suite: JunitSuite): string {
  const { cases } = suite;
  // Readers that add up the cases' times (GitLab, report mergers) get the suite's: the run's.
  const timesMs = apportionMs(suite.durationMs, cases.map((c) => c.judgedMs));
  const count = (element: string) => cases.filter((c) => c.outcome?.element === element).length;
  const totals = `tests="${cases.length}" failures="${count("failure")}" errors="${
    count("error")
  }" skipped="${count("skipped")}" time="${seconds(suite.durationMs)}"`;
  const plan = xmlAttr(suite.name);
  // The result records no host name; the Ant schema asks for "localhost" then.
  const attrs = `name="${plan}" package="tailgate.${plan}" id="0" hostname="localhost" ` +
    `timestamp="${timestamp(suite.startedAt)}" ${totals}`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="tailgate" ${totals}>`,
    `  <testsuite ${attrs}>`,
    `    <properties>`,
    ...suite.properties.map(([name, value]) =>
      `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`
    ),
    `    </properties>`,
    ...cases.map((c, i) => renderCase(c, timesMs[i])),
    `    <system-out>${xmlText(suite.systemOut.join("\n"))}</system-out>`,
    `    <system-err/>`,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}

function renderCase(c: TestCase, timeMs: number): string {
  const open = `    <testcase name="${xmlAttr(c.name)}" classname="${xmlAttr(c.classname)}" time="${
    seconds(timeMs)
  }"`;
  const o = c.outcome;
  if (o === undefined) return `${open}/>`;
  const inner = `<${o.element} type="${o.type ?? TYPE[o.element]}" message="${
    xmlAttr(o.message)
  }">${xmlText(o.body)}</${o.element}>`;
  return `${open}>\n      ${inner}\n    </testcase>`;
}

/** Whole milliseconds as seconds, as apportionMs() rounds them: the cases add up to the suite. */
function seconds(durationMs: number): string {
  return (Math.round(Math.max(0, durationMs)) / 1000).toFixed(3);
}

/** ISO 8601 in UTC without zone or fraction, as the Ant schema's timestamp pattern requires. */
function timestamp(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19);
}
