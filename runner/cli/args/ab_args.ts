/**
 * The arguments of `tailgate ab`: the plan, the two builds (each a loopback URL, started by a
 * command of its own or found running), the rounds, their order's seed, the overrides and how
 * the verdict exits, read into the options of runner/ab's `abPlan()`, or every problem with them.
 *
 * @module
 */
import { join } from "node:path";
import type { AbPlanOptions } from "../../ab/mod.ts";
import { DEFAULT_ROUNDS } from "../../ab/mod.ts";
import { MIN_ROUNDS } from "../../gates/mod.ts";
import { parseDurationMs, type PlanOverrides } from "../../plan/mod.ts";
import { err, ok, problem, problemText, type Result } from "../../model/mod.ts";
import { OVERRIDE_OPTIONS, readOverrideArgs } from "./override_args.ts";
import { parseCommandArgs } from "./command_args.ts";
import { failOnArg, junitInconclusiveArg } from "./result_args.ts";

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

/** What `tailgate ab`'s arguments say: the plan, its overrides, and the comparison's options. */
export interface AbArgs {
  planPath: string;
  overrides?: PlanOverrides;
  options: AbPlanOptions;
}

/**
 * Reads `tailgate ab`'s arguments: every problem with them, each naming its flag, or what they say.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readAbArgs } from "./ab_args.ts";
 * const read = readAbArgs(["p.yaml", "--base", "http://127.0.0.1:9001", "--head", "http://127.0.0.1:9002"]);
 * assert.ok(read.ok);
 * assert.equal(read.value.options.rounds, 5);
 * assert.equal(readAbArgs(["p.yaml", "--base", "http://example.com"]).ok, false);
 * ```
 */
export function readAbArgs(args: string[]): Result<AbArgs> {
  const read = parseCommandArgs(args, AB_OPTIONS);
  if (!read.ok) return read;
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
  if (problems.length || !overrides.ok || !failOn.ok || !junit.ok) {
    return err(problems.map((p) => problem(p)));
  }
  const failFast = v["fail-fast"] ? true : v["no-fail-fast"] ? false : undefined;
  return ok({
    planPath: planPath!,
    ...(overrides.value ? { overrides: overrides.value } : {}),
    options: {
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
      outDir: v.out ?? join("tailgate-out", "ab"),
      rounds,
      ...(seed === undefined ? {} : { seed }),
      ...(ready?.ok ? { readyTimeoutMs: ready.value } : {}),
      ...(failFast === undefined ? {} : { failFast }),
      failOn: failOn.value,
      junitInconclusive: junit.value,
    },
  });
}
