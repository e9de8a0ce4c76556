/**
 * `tailgate ab plan.yaml --base URL --head URL`: the paired A/B comparison (runner/ab/). Writes
 * `ab.json`, `ab.md`, `ab.html`, `ab-junit.xml` and every run's result under `runs/`, atomically,
 * also when stopped (Ctrl-C compares the rounds that ran), and exits by the comparison's verdict.
 *
 * @module
 */
import { join } from "node:path";
import { abPlan, DEFAULT_ROUNDS } from "../ab/mod.ts";
import { AB_DEFAULT_MIN_TAIL_SAMPLES, MIN_ROUNDS } from "../gates/mod.ts";
import { undecidableTails } from "../gates/mod.ts";
import { parseDurationMs } from "../plan/mod.ts";
import { type CommandOutcome, failed } from "./command.ts";
import { problemText } from "../model/mod.ts";
import { planToRun } from "./plan_to_run.ts";
import { OVERRIDE_HELP, OVERRIDE_OPTIONS, readOverrideArgs } from "./args/mod.ts";
import { failOnArg, junitInconclusiveArg, parseCommandArgs } from "./args/mod.ts";

/** The help of `tailgate ab`. */
export const AB_HELP = `Usage: tailgate ab <plan.yaml> --base URL --head URL [options]

Compares two builds of a service on this machine: base and head run the plan's stages in
rounds, one after the other in a random order within each round, so both see the same machine.
Each gated (stage, label, metric) is judged on the rounds' paired changes: a regression is worse
than the plan's regression floor beyond Holm's level; ok is a 95% interval within the floor;
otherwise inconclusive (more rounds decide). SLOs are judged on head's runs. A tail percentile
that one round's stage is too short to judge is said before the rounds, with the length that
would decide it.
  --base URL           the base build's URL (e.g. the main branch)
  --head URL           the head build's URL (e.g. the pull request)
  --base-start CMD     start base with this command (sh -c) before each of its runs, and stop
                       it after (its process group); its URL must then be free beforehand
  --head-start CMD     the same for head
  --base-ready URL     with --base-start: ready once this URL answers 2xx (default: once
                       the base URL's port accepts a connection)
  --head-ready URL     the same for head
  --rounds N           rounds of base and head (default ${DEFAULT_ROUNDS}, at least ${MIN_ROUNDS})
  --seed N             the rounds' order (default random; the result records it)
  --ready-timeout DUR  how long a started target may take to be ready (default 60s)
  --fail-fast          stop a head run once one of its SLOs is certain to fail, as
                       \`tailgate run --fail-fast\` does, and end the comparison there: a fail
                       (the plan's fail_fast: true does the same)
  --no-fail-fast       run every head run to its end even when the plan says fail_fast
  --out DIR            where ab.json, ab.md, ab.html, ab-junit.xml and runs/ go
                       (default ./tailgate-out/ab)
  --fail-on WHAT       which undecided gates exit 3, as for \`tailgate run\`:
                       inconclusive-sampling (default: an SLO too few requests left undecided;
                       gates the runner left undecided and undecided comparisons exit 0 with a
                       warning), inconclusive-slo (any undecided SLO), inconclusive (any
                       undecided gate) or fail (none)
  --junit-inconclusive HOW  how ab-junit.xml writes an undecided gate or comparison, as for
                       \`tailgate run\`: auto (default: as --fail-on levels it), skipped, or
                       failure
The plan's load can be changed for the comparison, as \`tailgate run\` does:
${OVERRIDE_HELP}
Exit codes: 0 every gate passed (or only comparisons, or gates the runner left undecided: a
warning), 1 a regression or a failed SLO (or a head run stopped by fail-fast), 2 invalid plan or
usage, 3 an SLO too few requests left undecided (any gate, with --fail-on inconclusive) or
stopped, 4 a target could not be
reached or started, 5 a file could not be written (over 0, 1 and 3).`;

/** The options `parseArgs` reads (every one is in the help; a test keeps it so). */
export const AB_OPTIONS = {
  base: { type: "string" },
  head: { type: "string" },
  "base-start": { type: "string" },
  "head-start": { type: "string" },
  "base-ready": { type: "string" },
  "head-ready": { type: "string" },
  rounds: { type: "string" },
  seed: { type: "string" },
  "ready-timeout": { type: "string" },
  "fail-fast": { type: "boolean" },
  "no-fail-fast": { type: "boolean" },
  out: { type: "string" },
  "fail-on": { type: "string" },
  "junit-inconclusive": { type: "string" },
  ...OVERRIDE_OPTIONS,
} as const;

/**
 * Runs `tailgate ab`.
 */
export async function abCommand(
  args: string[],
  progress: (line: string) => void,
  signal?: AbortSignal,
): Promise<CommandOutcome> {
  const read = parseCommandArgs(args, AB_OPTIONS);
  if (!read.ok) return failed(read.problems);
  const parsed = read.value;
  const v = parsed.values;
  const [planPath, ...extra] = parsed.positionals;
  const problems: string[] = [];
  if (planPath === undefined) {
    problems.push("name the plan, e.g. `tailgate ab plan.yaml --base URL --head URL`");
  }
  if (extra.length) problems.push(`one plan per comparison; unexpected \`${extra.join(" ")}\``);
  for (const side of ["base", "head"] as const) {
    const url = v[side];
    if (url === undefined) problems.push(`--${side} is required: the ${side} build's URL`);
    else if (!/^https?:\/\/(127\.\d+\.\d+\.\d+|\[::1\]|localhost)(:\d+)?(\/|$)/.test(url)) {
      problems.push(`--${side} ${url}: give a loopback http(s) URL, e.g. http://127.0.0.1:9001`);
    }
  }
  for (const side of ["base", "head"] as const) {
    const ready = v[`${side}-ready`];
    if (ready !== undefined && v[`${side}-start`] === undefined) {
      problems.push(`--${side}-ready needs --${side}-start: the command that starts ${side}`);
    } else if (ready !== undefined && !/^https?:\/\/[^/]/.test(ready)) {
      problems.push(`--${side}-ready \`${ready}\` is not an http(s) URL`);
    }
  }
  if (v.base !== undefined && v.base === v.head && (v["base-start"] || v["head-start"])) {
    problems.push("--base and --head are the same URL: started targets need a port each");
  }
  const rounds = v.rounds === undefined ? DEFAULT_ROUNDS : Number(v.rounds);
  if (!Number.isInteger(rounds) || rounds < MIN_ROUNDS || rounds > 100) {
    problems.push(`--rounds ${v.rounds}: a whole number from ${MIN_ROUNDS} to 100`);
  }
  const seed = v.seed === undefined ? undefined : Number(v.seed);
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32)) {
    problems.push(`--seed ${v.seed}: a whole number from 0 to 4294967295`);
  }
  const ready = v["ready-timeout"] === undefined ? undefined : parseDurationMs(v["ready-timeout"]);
  if (ready !== undefined && !ready.ok) {
    problems.push(`--ready-timeout: ${ready.problems[0].message}`);
  }
  const failOn = failOnArg(v);
  if (!failOn.ok) problems.push(...failOn.problems.map(problemText));
  const junit = junitInconclusiveArg(v);
  if (!junit.ok) problems.push(...junit.problems.map(problemText));
  const overrides = readOverrideArgs(v);
  if (!overrides.ok) problems.push(...overrides.problems.map(problemText));
  if (v["fail-fast"] && v["no-fail-fast"]) {
    problems.push("--fail-fast and --no-fail-fast contradict each other: give one");
  }
  if (problems.length || !overrides.ok || !failOn.ok || !junit.ok) return failed(problems);
  const outDir = v.out ?? join("tailgate-out", "ab");
  const loaded = await planToRun(planPath!, progress, {
    ...(overrides.value ? { overrides: overrides.value } : {}),
    // Said before the rounds: a tail percentile one round cannot decide, and how long would.
    warnings: (plan, text) =>
      undecidableTails(plan, text, { defaultMinTail: AB_DEFAULT_MIN_TAIL_SAMPLES }),
  });
  if ("outcome" in loaded) return loaded.outcome;
  if (loaded.plan.service) {
    // One service section cannot start two builds: each side is started, or running, on its own.
    progress(
      "ab: the plan's service is not started: ab starts each build itself " +
        "(--base-start, --head-start), or finds it running at --base and --head",
    );
  }
  return await abPlan(loaded.plan, {
    base: {
      url: v.base!,
      ...(v["base-start"] ? { start: v["base-start"] } : {}),
      ...(v["base-ready"] ? { ready: v["base-ready"] } : {}),
    },
    head: {
      url: v.head!,
      ...(v["head-start"] ? { start: v["head-start"] } : {}),
      ...(v["head-ready"] ? { ready: v["head-ready"] } : {}),
    },
    outDir,
    rounds,
    ...(seed === undefined ? {} : { seed }),
    ...(ready?.ok ? { readyTimeoutMs: ready.value } : {}),
    failFast: v["fail-fast"] ?? (v["no-fail-fast"] ? false : loaded.plan.failFast ?? false),
    ...(signal ? { signal } : {}),
    onRun: ({ round, side, phase, status }) =>
      progress(
        phase === "start"
          ? `ab: round ${round}: running ${side}`
          : `ab: round ${round}: ${side} ${status}`,
      ),
    failOn: failOn.value,
    junitInconclusive: junit.value,
  });
}
