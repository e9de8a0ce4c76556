/**
 * verdict_noise.ts's raw rows: what one Action job decided, read only from its exit code, its step
 * outputs, its annotations and summary, and the documents tailgate wrote (`result.json`'s
 * `verdict` and verdicts' `status`/`causes`, `ab.json`'s `verdict` and `comparisons`,
 * `history.json`'s `changes`); never from the words of a message, which may change. The messages
 * are kept beside the decisions only for people to read.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { RunResult } from "../../runner/model/run_result.ts";
import type { AbResult } from "../../runner/model/ab_result.ts";
import type { HistoryReport } from "../../runner/model/history_result.ts";
import type { JobOutcome } from "../ci_action/mod.ts";

/** What the job showed: red (it failed), a warning (green with a warning), or green. */
export type Colour = "green" | "warning" | "red";

/** What every row has: the job as the Action ended it. */
export interface JobRow {
  mode: "history" | "ab";
  server: "c" | "nginx";
  /** `unchanged`/`identical`, or the head's slowdown: `+10%`, `+5%`. */
  case: string;
  /** 1-based, within the case. */
  index: number;
  /** A busy loop ran on the server's core beside this job. */
  busy: boolean;
  startedAt: string;
  wallMs: number;
  loadStart: string;
  loadEnd: string;
  /** Each core's busy and steal share (%) over the job (/proc/stat). */
  cores: Array<{ busyPct: number; stealPct: number }>;
  colour: Colour;
  /** The job's exit code (the first step that may not fail, failing). */
  jobExitCode: number;
  /** The action's outputs (`verdict`, `exit-code`, `results-dir`, `summary-file`). */
  outputs: Record<string, string>;
  /** The stored verdict: `result.json`'s or `ab.json`'s. */
  verdict?: { status: string; regressionOnly?: boolean };
  warningAnnotations: string[];
  errorAnnotations: string[];
  /** The job summary carries a warning sign (⚠️). */
  summaryWarning: boolean;
  /** Why a red job is red. */
  redBy?: RedCause;
  /**
   * Why a green job is a warning: its verdict (not `pass`, or the summary's warning sign), or only
   * a warning annotation (such as the plan check's note that a tail percentile cannot be judged).
   */
  warningBy?: "verdict" | "annotation";
  /** What went wrong around the job (a step out of time, a document not written, …). */
  problems: string[];
}

/**
 * The job's colour: red when it failed; a warning when it passed but the verdict output is not
 * `pass`, an annotation is a warning, or the summary carries a warning sign; else green.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { colourOf } from "./rows.ts";
 * assert.equal(colourOf({ exitCode: 0, verdict: "inconclusive", warnings: 0, summaryWarning: true }), "warning");
 * assert.equal(colourOf({ exitCode: 1, verdict: "fail", warnings: 0, summaryWarning: false }), "red");
 * ```
 */
export function colourOf(
  o: { exitCode: number; verdict?: string; warnings: number; summaryWarning: boolean },
): Colour {
  if (o.exitCode !== 0) return "red";
  return o.verdict !== "pass" || o.warnings > 0 || o.summaryWarning ? "warning" : "green";
}

/**
 * Why a red job is red: a regression beyond doubt (`regression`); else a generator that could not
 * hold its schedule (`tool-limited`: its SLOs cannot pass); else an SLO that failed or could not be
 * decided (`slo`); else something else (an invalid run, no document at all: `other`).
 */
export type RedCause = "regression" | "tool-limited" | "slo" | "other";

/** Why a red run's job is red, from `result.json`'s verdicts and tool health. */
export function runRedCause(result: RunResult | undefined): RedCause {
  const verdicts = result?.verdicts ?? [];
  if (verdicts.some((v) => v.kind === "regression" && v.status === "fail")) return "regression";
  if (result?.health.toolLimited) return "tool-limited";
  if (verdicts.some((v) => v.kind === "slo" && v.status !== "pass")) return "slo";
  return "other";
}

/**
 * Why a red A/B's job is red, from `ab.json`: a comparison that failed; else head runs that did
 * not pass, every one of them tool-limited; else an SLO; else something else.
 */
export function abRedCause(ab: AbResult | undefined): RedCause {
  if (ab?.comparisons.some((c) => c.status === "fail")) return "regression";
  const heads = ab?.rounds.flatMap((r) => r.runs.filter((x) => x.side === "head")) ?? [];
  const notPass = heads.filter((x) => x.status !== "pass");
  if (notPass.length > 0 && notPass.every((x) => x.toolLimited)) return "tool-limited";
  if (ab?.slos.some((s) => s.status !== "pass")) return "slo";
  return "other";
}

/** The row fields every job has, from its outcome. */
export function jobFields(job: JobOutcome): Omit<
  JobRow,
  | "mode"
  | "server"
  | "case"
  | "index"
  | "busy"
  | "startedAt"
  | "wallMs"
  | "loadStart"
  | "loadEnd"
  | "cores"
> {
  const outputs = job.actionOutputs;
  const warnings = job.annotations.filter((a) => a.level === "warning");
  const errors = job.annotations.filter((a) => a.level === "error");
  const line = (a: { title?: string; message: string }) =>
    `${a.title ? `${a.title}: ` : ""}${a.message}`;
  const summaryWarning = job.summary.includes("⚠");
  const colour = colourOf({
    exitCode: job.exitCode,
    verdict: outputs.verdict,
    warnings: warnings.length,
    summaryWarning,
  });
  const byVerdict = outputs.verdict !== "pass" || summaryWarning;
  return {
    colour,
    ...(colour === "warning"
      ? { warningBy: byVerdict ? "verdict" as const : "annotation" as const }
      : {}),
    jobExitCode: job.exitCode,
    outputs,
    warningAnnotations: warnings.map(line),
    errorAnnotations: errors.map(line),
    summaryWarning,
    problems: [
      ...job.steps.filter((s) => s.timedOut).map((s) => `step \`${s.name}\` ran out of time`),
      ...job.unresolved.map((p) => `action.yml reads \`${p}\`, which the study does not set`),
    ],
  };
}

/** The plan's output folder under the job's `out`: the one folder holding `file`. */
export function planDir(outDir: string, file: string): string | undefined {
  if (!existsSync(outDir)) return undefined;
  for (const e of Deno.readDirSync(outDir)) {
    if (e.isDirectory && existsSync(join(outDir, e.name, file))) return join(outDir, e.name);
  }
  return undefined;
}

/** A JSON document, or undefined when it is missing or unreadable. */
export function readJson<T>(path: string | undefined): T | undefined {
  if (path === undefined) return undefined;
  try {
    return JSON.parse(Deno.readTextFileSync(path)) as T;
  } catch {
    return undefined;
  }
}

/** A gate that did not pass: what it is and why, as `result.json` has it. */
export interface Reason {
  kind: string;
  name: string;
  status: string;
  causes?: string[];
  message: string;
}

/** What a run's `result.json` says: its verdict, the gates that did not pass, the steady figures. */
export function resultFields(result: RunResult | undefined) {
  const steady = result?.stages.find((s) => !s.warmup);
  const reasons: Reason[] = (result?.verdicts ?? []).filter((v) => v.status !== "pass").map((
    v,
  ) => ({
    kind: v.kind,
    name: v.name,
    status: v.status,
    ...(v.causes ? { causes: v.causes } : {}),
    message: v.message,
  }));
  return {
    ...(result?.verdict
      ? {
        verdict: {
          status: result.verdict.status,
          ...(result.verdict.regressionOnly ? { regressionOnly: true } : {}),
        },
      }
      : {}),
    reasons,
    p50Us: steady?.response.percentilesUs["50"],
    p99Us: steady?.response.percentilesUs["99"],
    toolLimited: result?.health.toolLimited,
    ...(result && Object.keys(result.totals.counts.errors).length
      ? { errors: result.totals.counts.errors }
      : {}),
  };
}

/** A change point `tailgate history` found, in brief. */
export interface ChangeBrief {
  metric: string;
  stage: string;
  label?: string;
  kind: string;
  /** 0-based run index of the change. */
  index: number;
  commit?: string;
  worse: boolean;
  recent: boolean;
  relativeChange: number;
}

/**
 * What `history.json` found: every change point, whether one is a worse step at the run of
 * `changeCommit` (the first slower build's commit: "names the step"), or one whose span starts at
 * an `unchanged` build and ends at a slower one (the first slower build had no value there: a
 * contended run is a gap, so the step is named between the builds on either side of it), and how
 * many worse ones lie among the newest runs.
 */
export function historyFields(
  report: HistoryReport | undefined,
  changeCommit?: string,
  unchanged: ReadonlySet<string> = new Set(),
) {
  const plan = report?.plans[0];
  if (plan === undefined) return { historyRan: false };
  const changes: ChangeBrief[] = plan.changes.map((c) => {
    const s = plan.series[c.series];
    return {
      metric: s.metric,
      stage: s.stage,
      ...(s.label ? { label: s.label } : {}),
      kind: c.kind,
      index: c.index,
      ...(c.commit ? { commit: c.commit } : {}),
      worse: c.worse,
      recent: c.recent,
      relativeChange: c.relativeChange,
    };
  });
  return {
    historyRan: true,
    historyRuns: plan.runs.length,
    historyVerdict: report!.verdict.status,
    changes,
    worseRecent: changes.filter((c) => c.worse && c.recent).length,
    ...(changeCommit === undefined ? {} : {
      namesStep: plan.changes.some((c) =>
        c.worse && c.kind === "step" &&
        (c.commit === changeCommit ||
          (c.previousCommit !== undefined && unchanged.has(c.previousCommit) &&
            c.commit !== undefined && !unchanged.has(c.commit)))
      ),
    }),
  };
}

/** The number of runs a baseline file's long history holds (0 when there is none). */
export function storedRuns(baselineDir: string): number {
  if (!existsSync(baselineDir)) return 0;
  let n = 0;
  for (const e of Deno.readDirSync(baselineDir)) {
    if (!e.isFile || !/^[^.]+\.json$/.test(e.name)) continue;
    n += readJson<{ history?: unknown[] }>(join(baselineDir, e.name))?.history?.length ?? 0;
  }
  return n;
}

/** One comparison of an A/B, in brief. */
export interface ComparisonBrief {
  metric: string;
  stage: string;
  label?: string;
  status: string;
  change: number;
  ci95: [number, number];
  floor: number;
}

/**
 * What `ab.json` (in `dir`) says: the verdict, the seed, the rounds compared, every comparison,
 * the SLOs, and the failed requests of each side's runs by kind (from each run's result), if any.
 */
export function abFields(ab: AbResult | undefined, dir: string) {
  if (ab === undefined) return {};
  const sound = ab.rounds.filter((r) => r.runs.every((x) => x.complete && !x.toolLimited));
  const errors: Partial<Record<"base" | "head", Record<string, number>>> = {};
  for (const run of ab.rounds.flatMap((r) => r.runs)) {
    const counts = readJson<RunResult>(join(dir, run.resultFile))?.totals.counts.errors ?? {};
    for (const [kind, n] of Object.entries(counts)) {
      const side = (errors[run.side] ??= {});
      side[kind] = (side[kind] ?? 0) + (n ?? 0);
    }
  }
  return {
    verdict: {
      status: ab.verdict.status,
      ...(ab.verdict.regressionOnly ? { regressionOnly: true } : {}),
    },
    seed: ab.settings.seed,
    rounds: ab.rounds.length,
    roundsCompared: sound.length,
    abWallMs: Date.parse(ab.endedAt) - Date.parse(ab.startedAt),
    comparisons: ab.comparisons.map((c): ComparisonBrief => ({
      metric: c.metric,
      stage: c.stageName,
      ...(c.label ? { label: c.label } : {}),
      status: c.status,
      change: c.change,
      ci95: c.ci95,
      floor: c.floor,
    })),
    slos: ab.slos.map((s) => ({ name: s.name, status: s.status })),
    ...(Object.keys(errors).length ? { errors } : {}),
  };
}
