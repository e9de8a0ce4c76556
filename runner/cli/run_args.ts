/**
 * The arguments of `tailgate run`: a plan file or an ad-hoc URL with its flags, the target, the
 * shard, the overrides, `--start` and the options every result shares, read into {@linkcode
 * RunOptions} or every problem with them.
 *
 * @module
 */
import type { AdHocPlan } from "./args/mod.ts";
import { adHocRun } from "./args/mod.ts";
import { OVERRIDE_OPTIONS, readOverrideArgs } from "./args/mod.ts";
import type { PlanOverrides } from "../plan/mod.ts";
import {
  credentialsProblem,
  type ExportTarget,
  parseExportFlag,
  parseHttpUrl,
} from "../plan/mod.ts";
import { err, ok, prefixed, problems, problemText, type Result } from "../model/mod.ts";
import { parseCommandArgs, readResultArgs, RESULT_ARG_OPTIONS } from "./args/mod.ts";
import { parseShard, parseStartAt } from "./args/mod.ts";
import { DEFAULT_CONFIRM, readConfirm } from "../gates/mod.ts";
import { readStartArgs, START_OPTIONS } from "./args/mod.ts";
import type { RunPlanOptions } from "../api/mod.ts";

/**
 * Options of a run: the plan (a file, or an ad-hoc one made from the flags), its overrides and
 * target, and what the run's lifecycle takes (runner/api's `RunPlanOptions`).
 */
export interface RunOptions extends Omit<RunPlanOptions, "onProgress" | "signal"> {
  /** The plan file, or for an ad-hoc run the URL it loads (named in messages). */
  planPath: string;
  /**
   * An ad-hoc run's plan, made from the flags (adhoc_plan.ts), with the flag behind each line so
   * its warnings name the flag.
   */
  adHocPlan?: AdHocPlan;
  /** Print the plan as it would run (an ad-hoc run's equivalent plan) instead of running it. */
  printPlan?: boolean;
  /** Command-line overrides of the plan's load (`--rate-scale`, `--stage` …). */
  overrides?: PlanOverrides;
  /** Replaces the plan's target (scheme, host, port and base path). */
  target?: string;
  caCertFiles: string[];
}

/** The options `parseArgs` reads (every one is in the help; a test keeps it so). */
export const RUN_OPTIONS = {
  ...RESULT_ARG_OPTIONS,
  target: { type: "string" },
  "ca-cert": { type: "string", multiple: true },
  export: { type: "string", multiple: true },
  shard: { type: "string" },
  "start-at": { type: "string" },
  confirm: { type: "string" },
  seed: { type: "string" },
  ...OVERRIDE_OPTIONS,
  rate: { type: "string" },
  duration: { type: "string" },
  warmup: { type: "string" },
  slo: { type: "string", multiple: true },
  header: { type: "string", short: "H", multiple: true },
  method: { type: "string" },
  body: { type: "string" },
  data: { type: "string", multiple: true },
  var: { type: "string", multiple: true },
  http2: { type: "boolean" },
  proto: { type: "string", multiple: true },
  message: { type: "string", short: "d" },
  "print-plan": { type: "boolean" },
  "fail-fast": { type: "boolean" },
  "no-fail-fast": { type: "boolean" },
  trace: { type: "boolean" },
  ...START_OPTIONS,
} as const;

/** The flags that describe an ad-hoc run against a URL (adhoc_plan.ts). */
const AD_HOC_FLAGS = [
  "rate",
  "duration",
  "warmup",
  "slo",
  "header",
  "method",
  "body",
  "data",
  "var",
  "http2",
  "proto",
  "message",
] as const;

/** The overrides of a plan's stages, which an ad-hoc run sets with --rate and --duration instead. */
const STAGE_FLAGS = ["rate-scale", "duration-scale", "stage"] as const;

/**
 * Parses `tailgate run` arguments.
 */
export function parseRunArgs(
  args: string[],
): Result<RunOptions> {
  const read = parseCommandArgs(args, RUN_OPTIONS);
  if (!read.ok) return err(read.problems);
  const parsed = read.value;
  const [planPath, ...extra] = parsed.positionals;
  const errors: string[] = [];
  if (planPath === undefined) {
    errors.push(
      "name the plan to run, e.g. `tailgate run plans/demo.yaml`, or a URL with --rate and " +
        "--duration, e.g. `tailgate run http://127.0.0.1:8080/ --rate 1k/s --duration 30s`",
    );
  }
  const v = parsed.values;
  const adHoc = planPath !== undefined && /^(https?|grpcs?):\/\//i.test(planPath);
  const grpcFlags = (["proto", "message"] as const).filter((f) => v[f] !== undefined);
  if (adHoc && !/^grpcs?:/i.test(planPath!) && grpcFlags.length) {
    errors.push(
      `${grpcFlags.map((f) => f === "message" ? "-d" : `--${f}`).join(", ")} describe a gRPC ` +
        "call: give a grpc:// URL, e.g. grpc://127.0.0.1:50051/helloworld.Greeter/SayHello",
    );
  }
  let adHocPlan: AdHocPlan | undefined;
  if (adHoc) {
    // Validated here, so every error names the flag behind it (printing needs no secret).
    const made = adHocRun(planPath!, v, { requireEnv: !v["print-plan"] });
    if (made.ok) adHocPlan = made.value;
    else errors.push(...made.problems.map(problemText));
    const stageFlags = STAGE_FLAGS.filter((f) => v[f] !== undefined);
    if (stageFlags.length) {
      errors.push(
        `${stageFlags.map((f) => `--${f}`).join(", ")} change a plan's stages; an ad-hoc run ` +
          "takes its rate and length from --rate and --duration",
      );
    }
  } else {
    const given = AD_HOC_FLAGS.filter((f) => v[f] !== undefined);
    if (given.length && planPath !== undefined) {
      errors.push(
        `${given.map((f) => `--${f}`).join(", ")} describe a run against a URL ` +
          "(`tailgate run http://…`); a plan sets these itself",
      );
    }
  }
  if (extra.length) {
    errors.push(`one plan per run; unexpected ${extra.map((e) => `\`${e}\``).join(", ")}`);
  }
  const target = parsed.values.target;
  // A gRPC plan's target is grpc:// or grpcs://: checked as the http(s) URL its calls go to.
  const httpTarget = target?.replace(/^grpc(s?):\/\//i, "http$1://");
  if (httpTarget !== undefined && !/^https?:\/\/[^/]/.test(httpTarget)) {
    errors.push(`--target \`${target}\` is not an http(s) URL`);
  } else if (httpTarget !== undefined) {
    const url = parseHttpUrl(httpTarget);
    const secret = url && credentialsProblem(url);
    if (url === undefined) errors.push(`--target \`${target}\` is not an http(s) URL`);
    else if (secret) errors.push(`--target: ${secret.message}; ${secret.hint}`);
  }
  const overrides = adHoc ? ok(undefined) : readOverrideArgs(v);
  if (!overrides.ok) errors.push(...overrides.problems.map(problemText));
  // The plan language bounds it, naming the flag; here only that it is a number at all.
  const seed = v.seed?.trim();
  if (seed !== undefined && !/^\d+$/.test(seed)) {
    errors.push(`--seed \`${v.seed}\`: give a whole number from 0 to 4294967295, e.g. --seed 7`);
  }
  const withSeed = (o: PlanOverrides | undefined) =>
    seed === undefined ? o : { ...o, seed: seed.replace(/^0+(?=\d)/, "") };
  const shared = readResultArgs(parsed.values);
  if (!shared.ok) errors.push(...shared.problems.map(problemText));
  const shard = parsed.values.shard === undefined ? undefined : parseShard(parsed.values.shard);
  if (shard && !shard.ok) errors.push(...prefixed("--shard: ", shard.problems).map(problemText));
  if (shard?.ok && parsed.values["update-baseline"]) {
    errors.push(
      "--update-baseline with --shard: a shard holds part of the run; update the baseline with " +
        "`tailgate merge --update-baseline`",
    );
  }
  const startAt = parsed.values["start-at"] === undefined
    ? undefined
    : parseStartAt(parsed.values["start-at"]);
  if (startAt && !startAt.ok) {
    errors.push(...prefixed("--start-at: ", startAt.problems).map(problemText));
  }
  const confirmText = parsed.values.confirm;
  const confirm = confirmText === undefined ? ok(DEFAULT_CONFIRM) : readConfirm(confirmText);
  if (!confirm.ok) errors.push(...prefixed("--confirm ", confirm.problems).map(problemText));
  if (confirmText !== undefined && confirm.ok && confirm.value !== 0 && shard?.ok) {
    errors.push("--confirm with --shard: a shard is not judged; confirm in `tailgate merge`'s job");
  }
  const start = readStartArgs(v);
  if (!start.ok) errors.push(...start.problems.map(problemText));
  const exporters: ExportTarget[] = [];
  for (const flag of v.export ?? []) {
    const read = parseExportFlag(flag);
    if (read.ok) exporters.push(read.value);
    else errors.push(...read.problems.map(problemText));
  }
  if (v["fail-fast"] && v["no-fail-fast"]) {
    errors.push("--fail-fast and --no-fail-fast contradict each other: give one");
  }
  if (errors.length || !shared.ok || !overrides.ok) return err(problems(errors));
  return ok({
    ...shared.value,
    planPath: planPath!,
    ...(adHocPlan === undefined ? {} : { adHocPlan }),
    ...(withSeed(overrides.value) ? { overrides: withSeed(overrides.value)! } : {}),
    ...(v["print-plan"] ? { printPlan: true } : {}),
    ...(target === undefined ? {} : { target }),
    caCertFiles: parsed.values["ca-cert"] ?? [],
    ...(shard?.ok ? { shard: shard.value } : {}),
    ...(startAt?.ok ? { startAtEpochMs: startAt.value } : {}),
    // A shard is not judged, so nothing of it is confirmed.
    confirmTimes: confirm.ok && !shard?.ok ? confirm.value : 0,
    ...(start.ok && start.value ? { start: start.value } : {}),
    ...(v["fail-fast"] ? { failFast: true } : v["no-fail-fast"] ? { failFast: false } : {}),
    ...(exporters.length ? { exporters } : {}),
    ...(v.trace ? { trace: true } : {}),
  });
}
