import assert from "node:assert/strict";
import { renderJunit } from "../../../reporters/junit/junit.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { junitSchemas, xunitProblems } from "../../_helpers/junit_xsd.ts";
import { ignoreWithoutJunitparser, readWithJunitparser } from "../../_helpers/junitparser.ts";
import { runVerdict, undecidedByRunner } from "../../../runner/result/read/mod.ts";
import { SECRET_TOKEN, writtenResult } from "../../_helpers/result_fixtures.ts";
import { validateXml, xpath } from "../../_helpers/xmllint.ts";
import { judgedRun, rejectedRun, undecidedRegressionRun } from "../_judged_results.ts";
import { gateResult, scaledUs } from "../../_helpers/gate_fixtures.ts";
import { judge } from "../../../runner/api/judge.ts";
import { ignoreWithout } from "../../_helpers/test_tools.ts";
import { judgedGrpcResult } from "../../_helpers/grpc_result_fixtures.ts";

/** A test that drives `xmllint`: ignored where it is not installed (CI requires it). */
function xmllintTest(name: string, fn: () => void | Promise<void>): void {
  Deno.test({ name, ignore: ignoreWithout("xmllint"), fn });
}

const HOSTILE_LABEL = "GET /a?x='1'&y=<2>\u0001";
const HOSTILE_PLAN = `shop <&> "q" 'a' ]]>\u0007`;

/** Plan name, file, label and warning full of markup, quotes and control characters. */
async function hostile(): Promise<RunResult> {
  const result = await judgedRun({
    slos: [`p99 < 1ms for "${HOSTILE_LABEL}"`],
    labels: [HOSTILE_LABEL, "GET /b"],
  });
  result.plan.name = HOSTILE_PLAN;
  result.plan.file = "plans/a&b<c>.yaml";
  result.warnings = ['baseline <old> & "odd"\u001b[0m'];
  return result;
}

let built: Promise<Record<string, RunResult>> | undefined;

/**
 * Every kind of run the report must carry, judged by the gates (plan "shop", stage "main": 10,000
 * requests at 1k/s over 500..1500 µs, so p99 is about 1.49 ms). Built once; tests only read them.
 */
function fixtures(): Promise<Record<string, RunResult>> {
  built ??= buildFixtures();
  return built;
}

async function buildFixtures(): Promise<Record<string, RunResult>> {
  return {
    passing: await judgedRun({ slos: ["p99 < 5ms", "error_rate < 1%", "throughput >= 900/s"] }),
    failing: await judgedRun({ slos: ["p99 < 1ms", "p99 < 1.49ms", "p99 < 5ms"] }),
    inconclusive: await judgedRun({ slos: ['p99.99 < 10ms for "GET /a"'] }),
    toolLimited: await judgedRun({
      slos: ["p99 < 5ms", 'max < 9ms for "GET /a"'],
      toolLimited: true,
    }),
    incomplete: await judgedRun({ slos: ["p99 < 1ms", "p99 < 5ms"], complete: false }),
    regression: await judgedRun({
      scale: 1.3,
      slos: ["p99 < 5ms"],
      environment: { cpuModel: "new cpu" },
    }, [1, 1.004, 0.996, 1.002, 0.998]),
    hostile: await hostile(),
    noVerdicts: await judgedRun({ slos: [] }),
    implicit: await rejectedRun(),
    grpc: await judgedGrpcResult(),
  };
}

/** How the Ant schema (older than skipped tests and totals) rejects what Jenkins' accepts. */
const ANT_PREDATES = [
  /Element 'testsuites', attribute '(name|tests|failures|errors|skipped|time)': The attribute '\1' is not allowed\.$/,
  /Element 'testsuite', attribute 'skipped': The attribute 'skipped' is not allowed\.$/,
  /Element 'skipped': This element is not expected\. Expected is one of \( error, failure \)\.$/,
];

const SUITE = "/testsuites/testsuite";
const attr = (xml: string, path: string) => xpath(xml, `string(${path})`);
const count = async (xml: string, path: string) => Number(await xpath(xml, `count(${path})`));
const property = (xml: string, name: string) =>
  attr(xml, `${SUITE}/properties/property[@name='${name}']/@value`);

/** The cases a result must produce, by element: a case per verdict, or one when there is none. */
function expectedCases(result: RunResult) {
  const n = (status: string) => result.verdicts.filter((v) => v.status === status).length;
  // An undecided gate is red (an error) unless the runner left it undecided: as the Action does.
  const redUndecided =
    result.verdicts.filter((v) => v.status === "inconclusive" && !undecidedByRunner(v)).length;
  // A stopped run's soundness is a verdict of its own once judged (run_soundness.ts).
  const verdicts = Math.max(1, result.verdicts.length);
  return {
    tests: verdicts,
    failures: n("fail"),
    errors: n("invalid") + redUndecided,
    skipped: result.verdicts.length === 0 ? 1 : n("inconclusive") - redUndecided,
  };
}

xmllintTest(
  "renderJunit() output validates against the Jenkins xUnit schema for every kind of run",
  async () => {
    for (const [name, result] of Object.entries(await fixtures())) {
      const xml = renderJunit(result);
      assert.deepEqual(await xunitProblems(xml), [], `${name}:\n${xml}`);
      assert.ok(!xml.includes(SECRET_TOKEN), `${name}: the secret header value leaked`);
    }
  },
);

Deno.test({
  name: "junitparser reads every kind of run as the terminal counts it, with messages and times",
  ignore: ignoreWithoutJunitparser(),
  fn: async () => {
    for (const [name, result] of Object.entries(await fixtures())) {
      const read = await readWithJunitparser(renderJunit(result));
      const want = expectedCases(result);
      const totals = { tests: want.tests, failures: want.failures, errors: want.errors };
      assert.deepEqual(
        { ...read.read, time: undefined },
        { ...totals, skipped: want.skipped, time: undefined },
        name,
      );
      // A report merger recomputes the totals from the cases: the same counts, and the run's
      // time, which the cases share out (not the gates' times added up: a multiple of it).
      const { time: recomputedTime, ...recomputed } = read.recomputed;
      assert.deepEqual(recomputed, { ...totals, skipped: want.skipped }, name);
      const runSeconds = Math.round(result.run.durationMs) / 1000;
      assert.ok(runSeconds > 0, name);
      assert.ok(Math.abs(recomputedTime - runSeconds) < 1e-6, `${name}: ${recomputedTime}`);
      assert.ok(Math.abs(read.suites[0].time - runSeconds) < 1e-6, `${name}: suite time`);
      const cases = read.suites[0].cases;
      // The terminal's "N gates" is the number of cases.
      if (result.verdicts.length) {
        assert.match(runVerdict(result).summary, new RegExp(`^${cases.length} gates?`), name);
      }
      for (const c of cases) {
        assert.ok(c.time > 0, `${name}: ${c.name} has time ${c.time}`);
        for (const r of c.results) {
          assert.ok(
            r.message && r.message.length > 0,
            `${name}: ${c.name} ${r.kind} without message`,
          );
        }
      }
    }
  },
});

xmllintTest(
  "renderJunit() output breaks the Ant schema only with skipped tests and testsuites totals",
  async () => {
    const { ant } = await junitSchemas();
    for (const [name, result] of Object.entries(await fixtures())) {
      const { errors } = await validateXml(renderJunit(result), ant);
      const other = errors.filter((e) => !ANT_PREDATES.some((p) => p.test(e)));
      assert.deepEqual(other, [], `${name}: Ant schema errors beyond the known extensions`);
      const skippedElements = errors.filter((e) => e.includes("Element 'skipped'")).length;
      assert.equal(skippedElements, expectedCases(result).skipped, name);
    }
  },
);

xmllintTest(
  "renderJunit() counts tests, failures, errors and skipped as the verdicts' statuses",
  async () => {
    for (const [name, result] of Object.entries(await fixtures())) {
      const xml = renderJunit(result);
      const want = expectedCases(result);
      assert.equal(await count(xml, `${SUITE}/testcase`), want.tests, name);
      assert.equal(await count(xml, `${SUITE}/testcase/failure`), want.failures, name);
      assert.equal(await count(xml, `${SUITE}/testcase/error`), want.errors, name);
      assert.equal(await count(xml, `${SUITE}/testcase/skipped`), want.skipped, name);
      for (const at of ["/testsuites", SUITE]) {
        assert.equal(await attr(xml, `${at}/@tests`), String(want.tests), `${name} ${at}`);
        assert.equal(await attr(xml, `${at}/@failures`), String(want.failures), `${name} ${at}`);
        assert.equal(await attr(xml, `${at}/@errors`), String(want.errors), `${name} ${at}`);
      }
      assert.equal(await attr(xml, `${SUITE}/@skipped`), String(want.skipped), name);
    }
  },
);

xmllintTest(
  "renderJunit() names each testcase after its verdict, classed by plan and gate kind",
  async () => {
    const { failing, regression } = await fixtures();
    const xml = renderJunit(failing);
    const names = [];
    for (const i of [1, 2, 3]) names.push(await attr(xml, `${SUITE}/testcase[${i}]/@name`));
    assert.deepEqual(names, failing.verdicts.map((v) => v.name));
    assert.deepEqual(names, ["p99 < 1ms", "p99 < 1.49ms", "p99 < 5ms"]);
    assert.equal(await attr(xml, `${SUITE}/testcase[1]/@classname`), "tailgate.shop.slo");
    assert.equal(await attr(xml, `${SUITE}/@name`), "shop");
    const rx = renderJunit(regression);
    const p99 = regression.verdicts.findIndex((v) => v.name === "p99 vs baseline: main") + 1;
    assert.ok(p99 > 1, "the regression verdicts follow the SLO's");
    assert.equal(await attr(rx, `${SUITE}/testcase[${p99}]/@name`), "p99 vs baseline: main");
    assert.equal(
      await attr(rx, `${SUITE}/testcase[${p99}]/@classname`),
      "tailgate.shop.regression",
    );
  },
);

xmllintTest(
  "renderJunit() marks a failed p99 SLO as a failure with value, bound and margin",
  async () => {
    const { failing } = await fixtures();
    const xml = renderJunit(failing);
    const first = `${SUITE}/testcase[1]`;
    assert.equal(await attr(xml, `${first}/failure/@type`), "fail");
    assert.equal(await attr(xml, `${first}/failure/@message`), failing.verdicts[0].message);
    assert.match(
      failing.verdicts[0].message,
      /^failed: measured 1\.491ms \(95% interval \S+ to \S+\) against < 1ms/,
    );
    const body = (await attr(xml, `${first}/failure`)).split("\n");
    for (const line of ["measured: 1.491ms", "bound: 1ms", "margin: -49.1%", "plan: t.yaml:20"]) {
      assert.ok(body.includes(line), `"${line}" in:\n${body.join("\n")}`);
    }
    assert.ok(
      body.some((l) => /^95% confidence interval: 1\.4\d*ms to 1\.4\d*ms$/.test(l)),
      body.join("\n"),
    );
    assert.ok(!body.some((l) => l.startsWith("marginal")));
    // `p99 < 1.49ms` has the bound inside its interval: undecided for want of requests, so red
    // (an error of type inconclusive) as the default fail-on makes it, and it says so.
    assert.equal(failing.verdicts[1].status, "inconclusive");
    assert.equal(await attr(xml, `${SUITE}/testcase[2]/error/@type`), "inconclusive");
    const marginal = await attr(xml, `${SUITE}/testcase[2]/error`);
    assert.match(marginal, /^marginal: the bound lies inside the 95% confidence interval$/m);
    assert.equal(await count(xml, `${SUITE}/testcase[3]/*`), 0, "a pass is a bare testcase");
  },
);

xmllintTest(
  "renderJunit() makes an SLO too few requests left undecided an error, saying how much longer to run",
  async () => {
    const { inconclusive } = await fixtures();
    const xml = renderJunit(inconclusive);
    assert.equal(await attr(xml, `${SUITE}/testcase[1]/error/@type`), "inconclusive");
    const text = await attr(xml, `${SUITE}/testcase[1]/error`);
    assert.ok(text.startsWith(inconclusive.verdicts[0].message), text);
    assert.match(
      text,
      /about 36887 requests \(0 failed\) would decide it \(these stages had 6000\): run about \S+ longer/,
    );
  },
);

xmllintTest(
  "renderJunit() skips a tool-limited run's undecided gates, each with the tool's reasons",
  async () => {
    const { toolLimited } = await fixtures();
    const xml = renderJunit(toolLimited);
    assert.deepEqual(toolLimited.verdicts.map((v) => v.status), ["inconclusive", "inconclusive"]);
    assert.equal(await count(xml, `${SUITE}/testcase/skipped`), 2);
    assert.equal(await count(xml, `${SUITE}/testcase/error`), 0, "no validity case: it was judged");
    const body = await attr(xml, `${SUITE}/testcase[2]/skipped`);
    assert.ok(body.startsWith(toolLimited.verdicts[1].message), body);
    assert.match(body, /fell behind its schedule/);
    assert.match(body, /tool-limited/);
    assert.ok(body.includes(`tool health: ${toolLimited.health.reasons[0]}`), body);
    assert.equal(await property(xml, "run.toolLimited"), "true");
  },
);

xmllintTest("renderJunit() makes a stopped run an error even when its gates pass", async () => {
  const { incomplete } = await fixtures();
  // Judged, the run's soundness is a gate of its own, counted like the others.
  assert.deepEqual(incomplete.verdicts.map((v) => [v.name, v.status]), [
    ["run complete", "invalid"],
    ["p99 < 1ms", "fail"],
    ["p99 < 5ms", "pass"],
  ]);
  const xml = renderJunit(incomplete);
  const validity = `${SUITE}/testcase[@classname='tailgate.shop.validity']`;
  assert.equal(await count(xml, validity), 1);
  assert.match(
    await attr(xml, `${validity}/error/@message`),
    /^the run stopped early \(interrupted\)/,
  );
  assert.match(await attr(xml, `${SUITE}/testcase[2]/failure`), /stopped early \(interrupted\)/);
  // A result judged before soundness was a gate still gets the case, once.
  const older = { ...incomplete, verdicts: incomplete.verdicts.slice(1) };
  const olderXml = renderJunit(older);
  assert.equal(await count(olderXml, validity), 1);
  assert.equal(await attr(olderXml, "/testsuites/@tests"), "3");
  assert.match(await attr(xml, `${SUITE}/system-out`), /stopped early \(interrupted\)/);
  assert.equal(await property(xml, "run.complete"), "false");
});

xmllintTest(
  "renderJunit() shows a regression's KS distance, the baseline and the result's warnings",
  async () => {
    const { regression } = await fixtures();
    assert.ok(regression.verdicts.some((v) => v.kind === "regression" && v.status === "fail"));
    const xml = renderJunit(regression);
    const failed = `${SUITE}/testcase[@classname='tailgate.shop.regression'][failure]`;
    assert.ok(await count(xml, failed) > 0);
    assert.match(await attr(xml, `${failed}[1]/failure`), /^KS distance: 0\.\d{3}$/m);
    assert.equal(await property(xml, "baseline.runs"), "5");
    assert.equal(await property(xml, "baseline.gitSha"), regression.baseline?.gitSha);
    assert.equal(regression.warnings?.length, 1, "the baseline's CPU differs");
    const out = (await attr(xml, `${SUITE}/system-out`)).split("\n");
    assert.ok(out.includes(`warning: ${regression.warnings![0]}`), out.join("\n"));
  },
);

xmllintTest(
  "renderJunit() escapes markup and replaces control characters from the plan",
  async () => {
    const xml = renderJunit(await hostile());
    // deno-lint-ignore no-control-regex -- no raw control character may reach the document
    assert.doesNotMatch(xml, /[\x00-\x08\x0B\x0C\x0E-\x1F]/);
    const plan = HOSTILE_PLAN.replace("\u0007", "\uFFFD");
    assert.equal(await attr(xml, `${SUITE}/@name`), plan);
    assert.equal(await attr(xml, `${SUITE}/testcase[1]/@classname`), `tailgate.${plan}.slo`);
    const name = `p99 < 1ms [${HOSTILE_LABEL.replace("\u0001", "\uFFFD")}]`;
    assert.equal(await attr(xml, `${SUITE}/testcase[1]/@name`), name);
    assert.equal(await property(xml, "plan.file"), "plans/a&b<c>.yaml");
    assert.match(await attr(xml, `${SUITE}/system-out`), /baseline <old> & "odd"\uFFFD\[0m/);
  },
);

xmllintTest(
  "renderJunit() writes one skipped testcase saying why when no gate was judged",
  async () => {
    const xml = renderJunit((await fixtures()).noVerdicts);
    assert.equal(await attr(xml, `${SUITE}/testcase[1]/@name`), "no gates judged");
    assert.equal(
      await attr(xml, `${SUITE}/testcase[1]/skipped`),
      "no gate was judged: the plan defines no SLOs and the run was not compared with a baseline",
    );
  },
);

xmllintTest("renderJunit() carries the environment and run facts as suite properties", async () => {
  const result = await judgedRun({
    slos: ["p99 < 5ms"],
    environment: { gitSha: "abc123", ci: "github-actions" },
    startedAt: "2025-03-04T05:06:07.890Z",
  });
  const xml = renderJunit(result);
  const e = result.environment;
  const expected: Record<string, string> = {
    "tailgate.version": e.tailgateVersion,
    "deno.version": e.denoVersion,
    "os": e.os,
    "arch": e.arch,
    "cpu": e.cpuModel,
    "cores": String(e.cores),
    "git.sha": "abc123",
    "ci": "github-actions",
    "run.startedAt": "2025-03-04T05:06:07.890Z",
    "run.durationMs": String(result.run.durationMs),
    "run.complete": "true",
    "run.toolLimited": "false",
    "run.protocol": "http/1.1",
    "plan.file": result.plan.file,
  };
  for (const [name, value] of Object.entries(expected)) {
    assert.equal(await property(xml, name), value, name);
  }
  const rate = (name: string) => property(xml, name).then(Number);
  assert.equal(
    await rate("run.achievedPerSec"),
    Math.round(result.health.achievedPerSec * 10) / 10,
  );
  assert.equal(
    await rate("run.intendedPerSec"),
    Math.round(result.health.intendedPerSec * 10) / 10,
  );
  assert.ok(await rate("run.intendedPerSec") > 0);
  assert.equal(await attr(xml, `${SUITE}/@timestamp`), "2025-03-04T05:06:07");
  assert.equal(Number(await attr(xml, `${SUITE}/@time`)), result.run.durationMs / 1000);
  assert.equal(await count(xml, `${SUITE}/properties/property[@name='baseline.runs']`), 0);
  assert.equal(await count(xml, `${SUITE}/properties/property[@name='run.maxStreams']`), 0);
  result.run.protocol = "h2c";
  result.run.maxStreams = 8;
  const h2c = renderJunit(result);
  assert.equal(await property(h2c, "run.protocol"), "h2c");
  assert.equal(await property(h2c, "run.maxStreams"), "8");
});

xmllintTest(
  "renderJunit() gives each measured stage's trends, stalls and modes as properties",
  async () => {
    const { passing } = await fixtures();
    const withFindings: RunResult = structuredClone(passing);
    const stage = withFindings.stages.find((s) => !s.warmup)!;
    stage.timeDomain = {
      trendP99UsPerMin: { slope: 1_234.4, low: 900, high: 1_500, significant: true },
      stalls: [{ startMs: 4_000, maxUs: 80_000, why: "slow" }, {
        startMs: 9_000,
        maxUs: 0,
        why: "nothing answered",
      }],
      stallThresholdUs: 20_000,
      bimodal: { flagged: true, modesUs: [1_000, 40_000] },
    };
    const xml = renderJunit(withFindings);
    const key = `stage.${stage.index}`;
    assert.equal(await property(xml, `${key}.name`), stage.name);
    assert.equal(await property(xml, `${key}.trend.p99.usPerMin`), "1234");
    assert.equal(await property(xml, `${key}.trend.p99.ci95UsPerMin`), "900..1500");
    assert.equal(await property(xml, `${key}.trend.p99.significant`), "true");
    assert.equal(
      await count(xml, `${SUITE}/properties/property[@name='${key}.trend.p50.usPerMin']`),
      0,
    );
    assert.equal(await property(xml, `${key}.stalls`), "2");
    assert.equal(await property(xml, `${key}.stalls.atMs`), "4000,9000");
    assert.equal(await property(xml, `${key}.bimodal.modesUs`), "1000,40000");
    assert.deepEqual(await xunitProblems(xml), []);
  },
);

xmllintTest("renderJunit() names the implicit error gate as implicit: a failure", async () => {
  const { implicit } = await fixtures();
  const xml = renderJunit(implicit);
  assert.equal(await count(xml, `${SUITE}/testcase`), 1);
  assert.equal(await attr(xml, `${SUITE}/testcase/@name`), "error_rate <= 1% (implicit)");
  assert.equal(await attr(xml, `${SUITE}/testcase/@classname`), "tailgate.shop.slo");
  assert.match(
    await attr(xml, `${SUITE}/testcase/failure/@message`),
    /^failed: measured 100% .*`allow_errors: true` to let errors pass$/,
  );
});

xmllintTest(
  "renderJunit() shares the run's time out over the cases by the stages each judged",
  async () => {
    const stage = (ratePerSec: number, durationMs: number) => ({
      ratePerSec,
      durationMs,
      labels: [{ label: "GET /a", response: scaledUs(ratePerSec * durationMs / 1000, 1) }],
    });
    const measured = gateResult([stage(1_000, 2_000), stage(2_000, 6_000)], {
      slos: ["p99 < 5ms at 1k/s", "p99 < 5ms at 2k/s", "p99 < 5ms"],
    });
    measured.run.durationMs = 8_000;
    const result = (await judge(measured)).result;
    const xml = renderJunit(result);
    const times = [];
    for (const i of [1, 2, 3]) {
      times.push(Number(await attr(xml, `${SUITE}/testcase[${i}]/@time`)));
    }
    // 2 s, 6 s and both (8 s) of an 8 s run: an eighth, three eighths and a half of it.
    assert.deepEqual(times, [1, 3, 4]);
    assert.equal(Number(await attr(xml, `${SUITE}/@time`)), 8);
    assert.equal(Number(await attr(xml, `/testsuites/@time`)), 8);
  },
);

Deno.test({
  name: "junitparser reads one case per windowed SLO, its failure naming the failed windows",
  ignore: ignoreWithoutJunitparser(),
  fn: async () => {
    const { reportResult } = await import("../../_helpers/report_fixtures.ts");
    // Every answered request takes 1.5 ms: each 2 s window of the measured stages fails.
    const result = reportResult({ extraSlos: ["p50 < 1ms over 2s", "p50 < 5ms over 2s"] });
    const read = await readWithJunitparser(renderJunit(result));
    const cases = read.suites[0].cases.filter((c) => c.name.includes("over 2s"));
    assert.equal(cases.length, 2, cases.map((c) => c.name).join(", "));
    const failed = cases.find((c) => c.name.includes("p50 < 1ms"))!;
    assert.equal(failed.results[0]?.kind, "Failure");
    assert.match(failed.results[0].message ?? "", /failed in \d+ of \d+ windows of 2s/);
    const passed = cases.find((c) => c.name.includes("p50 < 5ms"))!;
    assert.deepEqual(passed.results, []);
  },
});

xmllintTest(
  "renderJunit() skips undecided regression checks and says in system-out that they are a warning",
  async () => {
    const result = await undecidedRegressionRun();
    const xml = renderJunit(result);
    assert.equal(await attr(xml, `${SUITE}/@failures`), "0");
    const skipped = result.verdicts.filter((v) => v.status === "inconclusive").length;
    assert.ok(skipped > 0);
    assert.equal(await attr(xml, `${SUITE}/@skipped`), String(skipped));
    const out = (await attr(xml, `${SUITE}/system-out`)).split("\n");
    assert.ok(
      out.some((l) => l.startsWith("warning: only regression checks are undecided")),
      out.join("\n"),
    );
  },
);

xmllintTest(
  "renderJunit() maps an undecided gate by the run's fail-on, as the job does",
  async () => {
    const result = await undecidedRegressionRun();
    const undecided = result.verdicts.filter((v) => v.status === "inconclusive").length;
    assert.ok(undecided > 0);
    // `--fail-on inconclusive` turns every undecided gate red: each is an error, none skipped.
    const strict = renderJunit(result, "inconclusive");
    assert.equal(await attr(strict, `${SUITE}/@errors`), String(undecided));
    assert.equal(await attr(strict, `${SUITE}/@skipped`), "0");
    assert.equal(await attr(strict, `${SUITE}/testcase/error/@type`), "inconclusive");
    // `inconclusive-slo` leaves an undecided regression check a warning, as the default does.
    const slo = renderJunit(result, "inconclusive-slo");
    assert.equal(await attr(slo, `${SUITE}/@skipped`), String(undecided));
  },
);

xmllintTest(
  "renderJunit() writes every undecided gate as --junit-inconclusive asks, whatever fail-on says",
  async () => {
    const result = await undecidedRegressionRun();
    const { inconclusive } = await fixtures();
    const undecided = result.verdicts.filter((v) => v.status === "inconclusive").length;
    // `failure`: each undecided gate is a failure of type inconclusive, the warnings too.
    const failing = renderJunit(result, "inconclusive-sampling", "failure");
    assert.equal(await attr(failing, `${SUITE}/@failures`), String(undecided));
    assert.equal(await attr(failing, `${SUITE}/@skipped`), "0");
    assert.equal(await attr(failing, `${SUITE}/testcase/failure/@type`), "inconclusive");
    assert.deepEqual(await xunitProblems(failing), []);
    // `skipped`: an undecided gate is skipped even when it turns the run red.
    const skipped = renderJunit(inconclusive, "inconclusive", "skipped");
    assert.equal(await attr(skipped, `${SUITE}/@errors`), "0");
    assert.equal(await attr(skipped, `${SUITE}/@skipped`), "1");
    // `auto`, the default: as fail-on makes it (an error when red, else skipped).
    assert.equal(renderJunit(result, "inconclusive", "auto"), renderJunit(result, "inconclusive"));
    assert.equal(await attr(renderJunit(inconclusive), `${SUITE}/@errors`), "1");
    // The suite says which mapping it used, and under which fail-on.
    assert.equal(await property(failing, "junit.inconclusive"), "failure");
    assert.equal(await property(renderJunit(result), "junit.inconclusive"), "auto");
    assert.equal(await property(renderJunit(result), "junit.failOn"), "inconclusive-sampling");
  },
);

Deno.test({
  name: "junitparser counts undecided gates as failures under --junit-inconclusive failure",
  ignore: ignoreWithoutJunitparser(),
  fn: async () => {
    const result = await undecidedRegressionRun();
    const undecided = result.verdicts.filter((v) => v.status === "inconclusive").length;
    const read = await readWithJunitparser(renderJunit(result, undefined, "failure"));
    assert.equal(read.read.failures, undecided);
    assert.equal(read.read.skipped, 0);
    assert.equal(read.recomputed.failures, undecided);
    for (const c of read.suites[0].cases) {
      for (const r of c.results) assert.equal(r.kind, "Failure", c.name);
    }
  },
});

Deno.test({
  name: "junitparser reads a ttfb SLO as a case of its own, and system-out counts the rate limited",
  ignore: ignoreWithoutJunitparser(),
  fn: async () => {
    const measured = writtenResult({}, { firstByte: true, everyRequestAnswered: true });
    // The fixture's first bytes come at 1 ms, its responses at 1.5 ms: none failed.
    measured.plan.slos = [
      { text: "ttfb.max < 1200us", line: 20 },
      { text: "ttfb.max < 300us", line: 21 },
    ];
    const result = (await judge(measured)).result;
    const xml = renderJunit(result);
    const read = await readWithJunitparser(xml);
    const cases = read.suites[0].cases.filter((c) => c.name.startsWith("ttfb."));
    assert.deepEqual(
      cases.map((c) => [c.name, c.results.map((r) => r.kind)]),
      [["ttfb.max < 1200us", []], ["ttfb.max < 300us", ["Failure"]]],
    );
    const limitedRun = writtenResult({}, { rateLimited: true });
    const limited = limitedRun.totals.counts.errors.rate_limited!;
    assert.match(
      renderJunit(limitedRun),
      new RegExp(`rate limited: ${limited} requests? \\(429, or 503`),
    );
    assert.doesNotMatch(renderJunit(writtenResult()), /rate limited/);
  },
});

xmllintTest(
  "renderJunit() marks a gRPC run beside its protocol; an HTTP run has no mark",
  async () => {
    const { grpc, passing } = await fixtures();
    const xml = renderJunit(grpc);
    assert.equal(await property(xml, "run.protocol"), "h2c");
    assert.equal(await property(xml, "run.grpc"), "true");
    assert.equal(await count(xml, `${SUITE}/properties/property[@name='run.grpc']`), 1);
    const http = renderJunit(passing);
    assert.equal(await count(http, `${SUITE}/properties/property[@name='run.grpc']`), 0);
  },
);

Deno.test({
  name: "junitparser reads a gRPC run's implicit error gate failing on UNAVAILABLE × 12",
  ignore: ignoreWithoutJunitparser(),
  fn: async () => {
    const { grpc } = await fixtures();
    const read = await readWithJunitparser(renderJunit(grpc));
    const cases = read.suites[0].cases;
    const implicit = cases.find((c) => c.name === "error_rate <= 1% (implicit)");
    assert.ok(implicit, JSON.stringify(cases.map((c) => c.name)));
    assert.equal(implicit.results[0].kind, "Failure");
    assert.match(
      implicit.results[0].message ?? "",
      /12 of 40 judged requests failed \(UNAVAILABLE × 12\)/,
    );
  },
});
