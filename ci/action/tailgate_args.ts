/**
 * The `tailgate run`, `tailgate merge` and `tailgate ab` arguments a CI job passes for one plan.
 *
 * @module
 */
import type { ConfirmTimes } from "../../runner/gates/mod.ts";
import { CLI_FAIL_ON_VALUES, DEFAULT_FAIL_ON, type FailOn } from "../../runner/result/mod.ts";
import { DEFAULT_JUNIT_INCONCLUSIVE, type JunitInconclusive } from "../../reporters/mod.ts";

/** What every invocation shares. */
export interface CommonArgs {
  /** This plan's output folder. */
  outDir: string;
  /** Report formats (`json` and `md` are always added: the CI scripts read them). */
  reports: readonly string[];
  /** The baseline folder; undefined runs without the regression gate. */
  baselineDir?: string;
  /** Append the run to the history. */
  updateBaseline: boolean;
  /** Where the HTML report will be (the CI run's page); the Markdown summary links it. */
  reportUrl?: string;
  /** The job's `fail-on`, passed on so the JUnit report maps each status as the job does. */
  failOn?: FailOn;
  /** The job's `junit-inconclusive`: how the JUnit report writes an undecided gate. */
  junitInconclusive?: JunitInconclusive;
}

/** A plan run, possibly one shard of it. */
export interface RunArgs extends CommonArgs {
  plan: string;
  target?: string;
  /** `I/N`: this machine's share (then the gates are judged by the merge). */
  shard?: string;
  /** ISO 8601 time of the schedule's start, common to every shard. */
  startAt?: string;
  /** `--seed N`: the seed every shard of one run draws from (a shard job without `startAt`). */
  seed?: number;
  /** `--confirm auto|N`: reruns before a red a rerun could clear is believed; absent: `auto`. */
  confirm?: ConfirmTimes;
  /** The command that starts the service under test (`--start`), stopped after the run. */
  start?: string;
  /** With `start`: the URL that answers 2xx once the service is ready (`--ready`). */
  ready?: string;
  /** `--fail-fast` (true) or `--no-fail-fast` (false); undefined: the plan's `fail_fast`. */
  failFast?: boolean;
}

/** The A/B mode's targets, how to start them, and its rounds (`tailgate ab`). */
export interface AbInputs {
  base: string;
  head: string;
  baseStart?: string;
  headStart?: string;
  /** With `baseStart`: ready once this URL answers 2xx (`--base-ready`). */
  baseReady?: string;
  /** With `headStart`: ready once this URL answers 2xx (`--head-ready`). */
  headReady?: string;
  /** Head runs' fail-fast, as {@linkcode RunArgs.failFast}. */
  failFast?: boolean;
  rounds: number;
  /** The job's `fail-on`, as {@linkcode CommonArgs.failOn}. */
  failOn?: FailOn;
  /** The job's `junit-inconclusive`, as {@linkcode CommonArgs.junitInconclusive}. */
  junitInconclusive?: JunitInconclusive;
}

/**
 * The formats passed to `--report`: the requested ones, plus `json` and `md`, without repeats.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportFormats } from "./tailgate_args.ts";
 * assert.deepEqual(reportFormats("html, junit"), ["json", "md", "html", "junit"]);
 * ```
 */
export function reportFormats(input: string): string[] {
  const asked = input.split(",").map((f) => f.trim()).filter((f) => f !== "");
  return [...new Set(["json", "md", ...asked])];
}

/**
 * `tailgate run` arguments (after `run`). A shard never compares with or updates a baseline: it
 * holds part of the load, and the merge judges the whole. A shard may stop by fail-fast: its
 * certain failure is the whole plan's.
 */
export function runArgs(args: RunArgs): string[] {
  const sharded = args.shard !== undefined;
  return [
    args.plan,
    ...common(sharded ? { ...args, baselineDir: undefined, updateBaseline: false } : args),
    ...(args.target ? ["--target", args.target] : []),
    ...(sharded ? ["--shard", args.shard!] : []),
    ...(args.startAt ? ["--start-at", args.startAt] : []),
    ...(args.seed === undefined ? [] : ["--seed", String(args.seed)]),
    // `auto` is tailgate's own default; a shard is not judged, so nothing of it is confirmed.
    ...(!sharded && args.confirm !== undefined && args.confirm !== "auto"
      ? ["--confirm", String(args.confirm)]
      : []),
    ...(args.start ? ["--start", args.start] : []),
    ...(args.start && args.ready ? ["--ready", args.ready] : []),
    ...failFastArgs(args.failFast),
  ];
}

/**
 * `tailgate merge` arguments (after `merge`) for one plan's shard results.
 */
export function mergeArgs(shardResults: readonly string[], args: CommonArgs): string[] {
  return [...shardResults, ...common(args)];
}

/**
 * `tailgate ab` arguments (after `ab`) for one plan: its two targets, how to start them, the
 * rounds, and the output folder.
 */
export function abArgs(
  plan: string,
  outDir: string,
  ab: AbInputs,
): string[] {
  return [
    plan,
    ...["--base", ab.base, "--head", ab.head],
    ...(ab.baseStart ? ["--base-start", ab.baseStart] : []),
    ...(ab.headStart ? ["--head-start", ab.headStart] : []),
    ...(ab.baseReady ? ["--base-ready", ab.baseReady] : []),
    ...(ab.headReady ? ["--head-ready", ab.headReady] : []),
    ...failFastArgs(ab.failFast),
    ...["--rounds", String(ab.rounds), "--out", outDir],
    ...failOnArgs(ab.failOn),
    ...junitArgs(ab.junitInconclusive),
  ];
}

/** `--junit-inconclusive X` unless X is tailgate's own default (`auto`). */
function junitArgs(mapping: JunitInconclusive | undefined): string[] {
  return mapping === undefined || mapping === DEFAULT_JUNIT_INCONCLUSIVE
    ? []
    : ["--junit-inconclusive", mapping];
}

/**
 * `--fail-on X` unless X is tailgate's own default; `never` is the job's alone (the CLI has no
 * such value): tailgate then maps by its default and the job ignores the code.
 */
function failOnArgs(failOn: FailOn | undefined): string[] {
  return failOn === undefined || failOn === DEFAULT_FAIL_ON || !CLI_FAIL_ON_VALUES.includes(failOn)
    ? []
    : ["--fail-on", failOn];
}

/** `--fail-fast`, `--no-fail-fast`, or nothing: the plan decides. */
function failFastArgs(failFast: boolean | undefined): string[] {
  return failFast === undefined ? [] : [failFast ? "--fail-fast" : "--no-fail-fast"];
}

function common(args: CommonArgs): string[] {
  return [
    "--out",
    args.outDir,
    "--report",
    args.reports.join(","),
    ...(args.baselineDir === undefined ? ["--no-baseline"] : ["--baseline", args.baselineDir]),
    ...(args.baselineDir !== undefined && args.updateBaseline ? ["--update-baseline"] : []),
    ...(args.reportUrl ? ["--report-url", args.reportUrl] : []),
    ...failOnArgs(args.failOn),
    ...junitArgs(args.junitInconclusive),
  ];
}

/**
 * The page where a CI run's artifacts (the HTML report among them) are found: the GitHub Actions
 * run page, or the GitLab job's artifact browser; undefined outside CI.
 */
export function artifactsUrl(env: Record<string, string | undefined>): string | undefined {
  if (env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID) {
    return `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
  }
  if (env.CI_JOB_URL) return `${env.CI_JOB_URL}/artifacts/browse`;
  return undefined;
}
