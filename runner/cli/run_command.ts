/**
 * `tailgate run plan.yaml`: validates, checks the target is reachable, runs the plan with
 * corrected timing and a live progress line, writes the result JSON atomically and returns the
 * summary and the exit code (cli.ts prints).
 *
 * @module
 */
import { firstUrl } from "../plan/mod.ts";
import { retarget } from "../plan/mod.ts";
import { drawsFromSeed } from "../plan/mod.ts";
import { formatAdHocIssue } from "./args/mod.ts";
import type { PlanIssue, ResolvedPlan } from "../plan/mod.ts";
import { OVERRIDE_HELP } from "./override_args.ts";
import { dirname, join } from "node:path";
import {
  type MeasuredRun,
  measurePlan,
  measureRun,
  type Progress as RunProgress,
} from "../api/mod.ts";
import { checkTarget, descriptorProblem, openFilesLimit } from "../engine/mod.ts";
import { formatDurationMs, formatRatePerSec } from "../plan/mod.ts";
import { writeFileAtomic } from "../model/mod.ts";
import { collectEnvironment } from "../result/mod.ts";
import type { RunResult } from "../model/mod.ts";
import { EXIT_CODES, withIoFailures } from "../model/mod.ts";
import { printable } from "../plan/mod.ts";
import { StepFailure } from "../session/mod.ts";
import { type CommandOutcome, failed } from "./command.ts";
import { finishResult } from "../api/mod.ts";
import { DEFAULT_CONFIRM } from "../gates/mod.ts";
import { planToRun } from "./plan_to_run.ts";
import { readCaCerts } from "../api/mod.ts";
import { checkOutDir } from "../api/mod.ts";
import { outOverlap } from "../api/mod.ts";
import {
  type RunService,
  serviceToStart,
  START_HELP,
  startCommandService,
  withRunService,
} from "./args/mod.ts";

import type { RunOptions } from "./run_args.ts";
/** What a run produced, for cli.ts to print: the summary is the `output`. */
export interface RunOutcome extends CommandOutcome {
  result?: RunResult;
  resultPath?: string;
}

/** The help of `tailgate run`. */
export const RUN_HELP =
  `Usage: tailgate run <plan.yaml> [--out DIR] [--report FORMATS] [--target URL]
                    [--ca-cert FILE] [--fail-on WHAT] [--junit-inconclusive HOW]
                    [--baseline DIR | --no-baseline]
                    [--update-baseline] [--commit SHA] [--branch NAME] [--history-runs N]
                    [--confirm auto|N] [--seed N] [--shard I/N] [--start-at TIME]
                    [--fail-fast | --no-fail-fast]
                    [--start CMD | --no-start] [--ready URL|PORT] [--ready-timeout DUR]
                    [--report-url URL] [--color | --no-color] [--print-plan]
                    [--rate-scale F] [--duration-scale F] [--stage S:K=V]... [--connections N]
       tailgate run <URL> --rate RATE --duration DUR [--connections N] [--warmup DUR]
                    [--slo SLO]... [-H "Name: value"]... [--method M] [--body TEXT|@FILE]
                    [--data NAME=FILE]... [--var NAME=SPEC]... [--http2] [--print-plan]
                    [the options above]

Runs the plan with corrected timing: every request is timed from its intended send time.
A plan's requests may draw values per request: rows of its \`data\` files ({{users.id}}) and
its \`vars\` ({{order_id}}: uuid, counter, int, choice) in paths, headers and bodies; request
n's values are a pure function of load.seed and n, rendered ahead of the schedule, and every
shard takes its own rows (docs/plan.md, "Real traffic"). A plan without load.seed draws a
fresh seed for each run (each --confirm rerun too), so reruns send new uuids; result.json
records it as plan.load.seed, and --seed N replays it.
The plan's load can be changed for one run (a short pull-request run of the nightly plan):
the overridden plan is validated like a written one, and its baseline history is kept apart.
${OVERRIDE_HELP}
  --print-plan       print the plan as it would run (overrides written in) and exit
Given a URL instead of a plan, runs one request at one rate (an ad-hoc run): the flags make
the equivalent plan, validated like any, and --print-plan prints it to commit instead.
  --rate RATE, --duration DUR   the ad-hoc run's rate (1k/s) and length (30s)
  --connections N               connections opened up front (default 50)
  --warmup DUR                  a warmup at the same rate first, not judged
  --slo SLO                     an SLO of the plan grammar (repeatable): --slo "p99 < 10ms"
  -H, --header "Name: value"    a request header (repeatable); \${env.NAME} reads a secret
  --method M, --body TEXT|@FILE the request's method and body (@FILE: a file's content)
  --data NAME=FILE[,K=V]        rows of a CSV (with a header) or .jsonl file in the current
                                folder feed {{NAME.column}} (repeatable); ,order=random|shuffle
                                (default sequence), ,exhausted=error (default wrap)
  --var NAME=SPEC               a value drawn per request for {{NAME}} (repeatable): uuid,
                                counter, int:1:20, choice:eu|us|ap, or YAML '{ int: [1, 20] }'
  --http2                       send HTTP/2 (load.http: 2): h2 agreed by ALPN to an https
                                URL, never falling back; h2c with prior knowledge to http
  --out DIR        where the reports go (default ./tailgate-out/)
  --report FORMATS comma-separated: html, junit, md, hlog, or all (default html,junit,md):
                   report.html, junit.xml, summary.md, latency.hlog; result.json is always
                   written
  --report-url URL where the HTML report will be (a CI run's artifacts page): the
                   Markdown summary links it
  --target URL     run against this base URL instead of the plan's target
  --ca-cert FILE   trust this PEM certificate for https targets (repeatable); a certificate
                   not trusted stops the run before anything is sent (exit 4)
  --fail-on WHAT         which undecided gates exit 3; a failed gate always exits 1:
                         inconclusive-sampling (default): an SLO the run had too few requests
                         to decide; a gate the runner left undecided (the machine's
                         contention, the generator's own delays, a short history) exits 0
                         with a warning and its remedy
                         inconclusive-slo: any undecided SLO, whatever its cause
                         inconclusive: any undecided gate, regression checks included
                         fail: none (exit 0 whenever nothing failed)
  --allow-inconclusive   the same as --fail-on fail (--allow-insufficient: the old name)
  --junit-inconclusive HOW  how junit.xml writes an undecided gate: auto (default: as
                         --fail-on levels it, an error of type inconclusive when it turns the
                         run red, else skipped), skipped (never a failed test), or failure
                         (every one a failed test, the job red or not)
  --baseline DIR         the plans' baseline histories (default .tailgate/baselines); a run is
                         compared with its plan's history there, when it has one
  --no-baseline          skip the regression gate
  --update-baseline      append this run to the plan's history (sound, complete runs only):
                         the newest 10 runs in full, which the regression gate judges
                         against, and the long history \`tailgate history\` reads
  --commit SHA           the commit this run measured (7 to 40 hex digits); default
                         GITHUB_SHA, else CI_COMMIT_SHA, else git's HEAD in the plan's folder
  --branch NAME          the branch it ran on; default GITHUB_HEAD_REF (a pull request),
                         GITHUB_REF_NAME, CI_COMMIT_REF_NAME, else git's branch there
  --history-runs N       runs the long history keeps, the newest (10 to 2000; default 500)
  --confirm auto|N       rerun the plan before believing a red a rerun could clear: a gate
                         a rerun passes passes; one red only when it failed in two runs and
                         passed in none. auto (default): one rerun, only when tail regressions
                         (p90 and beyond, max) alone turn the run red; N (1-10): up to N reruns
                         when any regression or SLO failed, or an SLO the runner left
                         undecided; 0: believe the first run
  --seed N               draw every value and poisson gap from seed N (0 to 4294967295; the
                         plan's load.seed): the same seed sends the same requests. Without it
                         or load.seed, each run draws its own (result.json: plan.load.seed)
  --shard I/N            run only share I (0..N-1) of every stage's schedule, interleaved, so N
                         machines together run the whole plan; gates are judged by
                         \`tailgate merge\` over the N results
  --start-at TIME        ISO 8601 time with a zone (2026-11-22T10:00:00Z) at which the schedule
                         starts: give every shard the same one (clocks synced by NTP); a plan
                         without load.seed draws its seed from it, so the shards share one
  --fail-fast            stop once an SLO's failure is certain, whatever the rest of the
                         requests do (failures and overdue requests beyond what it allows of
                         all it plans, with 95% confidence): result.json and the reports hold
                         what ran, marked stopped by fail-fast, and the run exits 1; never
                         while tailgate itself is behind its schedule (plan key fail_fast)
  --no-fail-fast         run to the end even when the plan says fail_fast: true
  --color, --no-color    colour the summary or not (default: on a terminal, unless NO_COLOR)
${START_HELP}
Ctrl-C stops the run and still writes what was measured, marked incomplete (while waiting
for --start-at, nothing was sent and nothing is written).
Exit codes: 0 every gate passed (or only gates the runner left undecided: a warning), 1 a
gate failed (or --fail-fast stopped the run), 2 invalid plan or usage, 3 an SLO had too few
requests to decide (any undecided gate, with --fail-on inconclusive), a gate could not be judged or the run
stopped early (or Ctrl-C while the service got ready), 4 the target is unreachable or stopped
answering (or the started service exited or was never ready), 5 a result, report or baseline
could not be written (over 0, 1 and 3: the verdict is still printed).`;

/**
 * Runs a plan end to end.
 */
export async function runPlanCommand(
  options: RunOptions,
  onProgress: (line: string) => void,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  // Printing the plan needs no secret: `${env.X}` may stay unset until the run.
  const loaded = await planToRun(options.planPath, onProgress, {
    ...(options.adHocPlan === undefined ? {} : { text: options.adHocPlan.text }),
    requireEnv: !options.printPlan,
    ...(options.overrides ? { overrides: options.overrides } : {}),
    ...(options.adHocPlan
      ? { formatIssue: (i: PlanIssue) => formatAdHocIssue(i, options.adHocPlan!) }
      : {}),
  });
  if ("outcome" in loaded) return loaded.outcome;
  const perRun = loaded.plan.load.seedPerRun && drawsFromSeed(loaded.plan);
  if (options.printPlan) {
    const overridden = loaded.plan.overrides?.length
      ? `# ${options.planPath} as \`tailgate run\` runs it with ${
        loaded.plan.overrides.join(" ")
      }\n`
      : "";
    // Said on the `load:` line, so every line keeps its number.
    const text = perRun
      ? loaded.text.replace(
        /^load:.*$/m,
        (line) =>
          `${line} # no seed: each run draws its own (result.json: plan.load.seed); ` +
          "--seed N replays one",
      )
      : loaded.text;
    return { exitCode: EXIT_CODES.ok, errors: [], notes: [], output: overridden + text };
  }
  if (perRun && options.shard && options.startAtEpochMs === undefined) {
    return failed(
      `--shard ${options.shard.index}/${options.shard.count}: the shards of one run must draw ` +
        "from one seed, and this plan fixes none (load.seed); give every shard the same " +
        "--start-at TIME (the seed is drawn from it) or the same --seed N",
      EXIT_CODES.usage,
    );
  }
  const plan = options.target ? retarget(loaded.plan, options.target) : loaded.plan;
  // Every path argument is checked before the run, so no measurement is lost to a typo.
  const certs = await readCaCerts(options.caCertFiles);
  if (!certs.ok) return failed(certs.problems);
  const caCerts = certs.value;
  const outProblem = await checkOutDir(options.outDir) ??
    await outOverlap(options.outDir, options.baselineDir);
  if (outProblem) return failed(outProblem);
  const descriptors = descriptorProblem(plan.load.maxConnections, await openFilesLimit());
  if (descriptors) return failed(descriptors);
  // The plan's service, or --start's: --ready and --ready-timeout override either's.
  const toStart = serviceToStart(options.start, plan);
  if (!toStart.ok) return failed(toStart.problems);
  const started = toStart.value
    ? await startCommandService(
      toStart.value,
      firstUrl(plan),
      options.outDir,
      onProgress,
      signal,
    )
    : undefined;
  if (started && "outcome" in started) return started.outcome;
  // Stopped however this returns, what the stop found said; a service lost mid-run aborts it.
  const service = started?.service;
  return await withRunService(
    service,
    () => measure(options, plan, caCerts, onProgress, service?.signal ?? signal, service),
  );
}

/**
 * Runs `plan` (its `--start` service running, when there is one) and finishes the result: the
 * gates, the reports, the baseline, the exit code.
 */
async function measure(
  options: RunOptions,
  plan: ResolvedPlan,
  caCerts: string[],
  onProgress: (line: string) => void,
  signal: AbortSignal | undefined,
  service: RunService | undefined,
): Promise<RunOutcome> {
  // Reached, and an https target's certificate trusted, before anything is sent.
  const unreachable = await checkTarget(
    new URL(firstUrl(plan)),
    caCerts,
    undefined,
    plan.load.http,
  );
  if (unreachable) {
    return failed(unreachable, EXIT_CODES.unreachable);
  }
  if (options.startAtEpochMs !== undefined) {
    const waitMs = options.startAtEpochMs - Date.now();
    if (waitMs < 0) {
      return failed(
        `--start-at ${new Date(options.startAtEpochMs).toISOString()} passed ` +
          `${(-waitMs / 1000).toFixed(1)} s ago; give every shard a time far enough ahead for ` +
          "all of them to start (e.g. now + 2 minutes)",
      );
    }
    onProgress(`waiting ${(waitMs / 1000).toFixed(1)} s for the common start time`);
  }
  // The commit measured: --commit, else the CI's variables, else git in the plan's folder.
  const environment = await collectEnvironment({
    ...(options.adHocPlan === undefined ? { gitDir: dirname(options.planPath) } : {}),
    ...(options.commit === undefined ? {} : { commit: options.commit }),
    ...(options.branch === undefined ? {} : { branch: options.branch }),
  });
  const progress = (p: RunProgress) =>
    onProgress(
      `[${printable(p.stageName)} ${seconds(p.offsetMs)}/${seconds(p.durationMs)}, ` +
        `${seconds(Math.max(0, p.durationMs - p.offsetMs))} left] ` +
        `intended ${formatRatePerSec(p.intendedPerSec)} sent ${p.sentPerSec}/s ` +
        `p99 ${p.p99Us === undefined ? "-" : formatDurationMs(p.p99Us / 1000)} ` +
        `errors ${p.errors} queued ${p.queued}`,
    );
  // When the stop came, to tell a stop before the start instant (nothing sent) from a stopped run.
  let stoppedAtEpochMs = signal?.aborted ? Date.now() : undefined;
  const onStop = () => stoppedAtEpochMs ??= Date.now();
  signal?.addEventListener("abort", onStop, { once: true });
  let measured: MeasuredRun;
  try {
    measured = await measurePlan(plan, {
      signal,
      caCerts,
      environment,
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.startAtEpochMs === undefined ? {} : { startAtEpochMs: options.startAtEpochMs }),
      onProgress: progress,
      onNotice: onProgress,
      failFast: options.failFast ?? plan.failFast ?? false,
      ...(service ? { service: { pgid: service.pgid, death: service.death } } : {}),
      ...(options.rerunWith === undefined ? {} : { rerunWith: options.rerunWith }),
    });
  } catch (e) {
    if (!(e instanceof StepFailure)) throw e;
    return stepFailed(e);
  } finally {
    signal?.removeEventListener("abort", onStop);
  }
  const { result } = measured;
  if (
    options.startAtEpochMs !== undefined && stoppedAtEpochMs !== undefined &&
    stoppedAtEpochMs < options.startAtEpochMs && result.totals.counts.scheduled === 0
  ) {
    await measured.teardown();
    return failed(
      `stopped before the start instant (--start-at ${
        new Date(options.startAtEpochMs).toISOString()
      }); nothing was sent, so no result was written`,
      EXIT_CODES.invalidRun,
    );
  }
  // A service that died is marked in the result by measurePlan: here it is the exit code's.
  const lost = service?.death();
  let reruns = 0;
  const confirmTimes = options.confirmTimes ?? (options.shard ? 0 : DEFAULT_CONFIRM);
  const rerun = async () => {
    reruns++;
    onProgress(
      `--confirm: rerun ${reruns}${
        confirmTimes === "auto" ? "" : ` of up to ${confirmTimes}`
      }, before believing what the first run showed`,
    );
    // Each run logs in and out: the first run's teardown before a rerun's setup.
    await measured.teardown();
    const again = await measureRun(plan, {
      signal,
      caCerts,
      environment,
      onProgress: progress,
      ...(service ? { service: { pgid: service.pgid } } : {}),
      ...(options.rerunWith === undefined ? {} : { rerunWith: options.rerunWith }),
    });
    // Every rerun's measurements are kept beside the result.
    const path = join(options.outDir, `confirm-${reruns}.json`);
    await writeFileAtomic(path, JSON.stringify(again, null, 1) + "\n").catch((e) =>
      ioFailures.push(`rerun ${reruns} not written to ${path}: ${(e as Error).message}`)
    );
    return again;
  };
  const ioFailures: string[] = [];
  const resultPath = join(options.outDir, "result.json");
  // Write what was measured before anything else can fail, then again with the verdicts (that
  // second write names the file if it cannot be written).
  await writeFileAtomic(resultPath, JSON.stringify(result, null, 1) + "\n").catch(() => {});
  const finished = await finishResult(result, {
    ...options,
    judge: options.shard === undefined,
    ...(confirmTimes !== 0 ? { confirm: { times: confirmTimes, rerun } } : {}),
    ...(signal ? { signal } : {}),
    teardown: measured.teardown,
  }).catch(async (e) => {
    // Cleanup is owed whatever failed (sent once: a rerun may have sent it).
    await measured.teardown();
    // A rerun's setup failed: the first run's measurements are already on disk.
    if (!(e instanceof StepFailure)) throw e;
    return e;
  });
  if (finished instanceof StepFailure) {
    const outcome = stepFailed(finished);
    outcome.errors = [
      `--confirm rerun ${reruns}: ${outcome.errors[0]}; the first run is in ${resultPath}`,
    ];
    return outcome;
  }
  ioFailures.push(...finished.ioFailures);
  // The document written: judged, with its teardown.
  const written = finished.result;
  const notes = [...finished.notes];
  const errors: string[] = [];
  if (options.shard) {
    notes.push(
      `shard ${options.shard.index}/${options.shard.count}: gates are judged once, by ` +
        "`tailgate merge` over every shard's result.json",
    );
  }
  if (written.run.stoppedBy) {
    notes.push(
      `stopped by fail-fast: ${written.run.stoppedBy.reason}; what ran is in ${resultPath}`,
    );
  }
  if (written.run.stopReason === "error") {
    const why = written.warnings?.find((w) => w.startsWith("the run failed part-way"));
    errors.push(`${why ?? "the run failed part-way"}; what was measured is in ${resultPath}`);
  }
  if (lost) errors.push(`${lost}; what was measured is in ${resultPath}`);
  errors.push(...ioFailures);
  return {
    exitCode: lost ? EXIT_CODES.unreachable : withIoFailures(finished.exitCode, ioFailures),
    errors,
    notes,
    output: finished.summary,
    result: written,
    resultPath,
  };
}

/** A setup step failed, or was stopped: nothing was sent, so no result is written. */
export function stepFailed(e: StepFailure): RunOutcome {
  return e.interrupted
    ? failed(`stopped during setup; no load was sent: ${e.message}`, EXIT_CODES.invalidRun)
    : failed(`${e.message}; no load was sent`, EXIT_CODES.unreachable);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(0)}s`;
}
