/**
 * Reads a JUnit XML file with junitparser (PyPI), software nobody here wrote: the totals it reads,
 * the totals it recomputes from the cases (`update_statistics()`, as report mergers do), and every
 * case with its time and result. CI installs it (.ci/install-tools); elsewhere its tests are
 * ignored when it is missing (test_tools.ts).
 *
 * @module
 */

/** What junitparser reads from a file. */
export interface JunitparserRead {
  /** The `testsuites` totals as written. */
  read: Totals;
  /** The totals junitparser recomputes from the suites' cases. */
  recomputed: Totals;
  suites: Array<Totals & { name: string; cases: JunitparserCase[] }>;
}

/** Test totals, as junitparser exposes them. */
export interface Totals {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  time: number;
}

/** One case: its name, class, time and results (`Failure`, `Error`, `Skipped`). */
export interface JunitparserCase {
  name: string;
  classname: string;
  time: number;
  results: Array<
    { kind: string; message: string | null; type: string | null; text: string | null }
  >;
}

const SCRIPT = `
import copy, json, sys
from junitparser import JUnitXml
xml = JUnitXml.fromfile(sys.argv[1])
def totals(x):
    return {"tests": x.tests, "failures": x.failures, "errors": x.errors, "skipped": x.skipped,
            "time": x.time}
again = copy.deepcopy(xml)
for suite in again:
    suite.update_statistics()
again.update_statistics()
print(json.dumps({
    "read": totals(xml),
    "recomputed": totals(again),
    "suites": [dict(totals(s), name=s.name, cases=[
        {"name": c.name, "classname": c.classname, "time": c.time, "results": [
            {"kind": type(r).__name__, "message": r.message, "type": r.type, "text": r.text}
            for r in c.result]}
        for c in s]) for s in xml],
}))
`;

/**
 * Whether junitparser can be imported by `python3`.
 *
 * @example
 * ```ts
 * import { hasJunitparser } from "./junitparser.ts";
 * hasJunitparser(); // true where `pip install junitparser` ran
 * ```
 */
export function hasJunitparser(): boolean {
  try {
    return new Deno.Command("python3", {
      args: ["-c", "import junitparser"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/**
 * The test's `ignore` flag: true (with a note) without junitparser, unless CI requires the tools.
 *
 * @example
 * ```ts
 * import { ignoreWithoutJunitparser } from "./junitparser.ts";
 * Deno.test({ name: "reads", ignore: ignoreWithoutJunitparser(), fn: () => {} });
 * ```
 */
export function ignoreWithoutJunitparser(): boolean {
  if (hasJunitparser() || Deno.env.get("TAILGATE_REQUIRE_TOOLS") === "1") return false;
  console.error("note: junitparser is not installed; its tests are ignored (.ci/install-tools)");
  return true;
}

/**
 * Reads `xml` with junitparser.
 *
 * @example
 * ```ts
 * import { readWithJunitparser } from "./junitparser.ts";
 * // (await readWithJunitparser(renderJunit(result))).read.skipped
 * ```
 */
export async function readWithJunitparser(xml: string): Promise<JunitparserRead> {
  const file = await Deno.makeTempFile({ suffix: ".xml" });
  try {
    await Deno.writeTextFile(file, xml);
    const out = await new Deno.Command("python3", {
      args: ["-c", SCRIPT, file],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    if (!out.success) throw new Error(`junitparser failed: ${dec.decode(out.stderr)}`);
    return JSON.parse(dec.decode(out.stdout));
  } finally {
    await Deno.remove(file);
  }
}
