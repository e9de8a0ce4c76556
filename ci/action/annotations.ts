/**
 * GitHub annotations from a run or an A/B comparison: each failed (or unparsable) SLO as an error
 * on its line of the plan file, each `inconclusive` one as the job's `fail-on` makes it (by
 * default a warning when the runner left it undecided, an error when too few requests did: the
 * job is red then), failed regression gates and comparisons as errors on the plan, a stopped run or a lost
 * target once as an error and a tool-limited run once as a warning, with their reasons; and the
 * plan problems `tailgate` prints as `file:line:col: error: …` (a note as a notice).
 *
 * @module
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import {
  gatesVerdict,
  holdsSoundness,
  soundnessVerdicts,
  toolLimitedSummary,
} from "../../runner/result/mod.ts";
import { DEFAULT_FAIL_ON, type FailOn, failsUnder } from "../../runner/result/mod.ts";
import type { RunResult, Verdict } from "../../runner/model/mod.ts";
import type { AbResult } from "../../runner/model/mod.ts";
import { inertLine } from "../../runner/plan/mod.ts";
import { type Annotation, formatAnnotation } from "../workflow_commands.ts";

/** Where paths are resolved: the repository root and the folder `tailgate` ran in. */
export interface AnnotationPaths {
  /** `$GITHUB_WORKSPACE`: annotation paths are relative to it. */
  workspace: string;
  /** The folder relative plan paths in a result are relative to (where `tailgate` ran). */
  cwd: string;
}

/**
 * `file` as a path relative to the repository root, with `/` separators, as annotations need.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { repoRelative } from "./annotations.ts";
 * assert.equal(repoRelative("/w/plans/a.yaml", { workspace: "/w", cwd: "/w" }), "plans/a.yaml");
 * ```
 */
export function repoRelative(file: string, paths: AnnotationPaths): string {
  const absolute = isAbsolute(file) ? file : resolve(paths.cwd, file);
  return relative(paths.workspace, absolute).split(sep).join("/");
}

/**
 * The annotation lines (workflow commands) for one result's verdicts; an undecided gate is an
 * error when it alone would turn the job red under `failOn`, else a warning.
 */
export function annotationsFor(
  result: RunResult,
  paths: AnnotationPaths,
  failOn: FailOn = DEFAULT_FAIL_ON,
): string[] {
  const file = repoRelative(result.plan.file, paths);
  const plan = result.plan.name;
  const annotations: Annotation[] = [];
  if (result.health.toolLimited) {
    annotations.push({
      level: "warning",
      file,
      title: `tailgate: ${plan}: tool-limited`,
      message: `${toolLimitedSummary(result)}: ${result.health.reasons.join("; ")}`,
    });
  }
  // A result judged before the run's soundness was a gate gets those gates here, once.
  const soundness = holdsSoundness(result) ? [] : soundnessVerdicts(result);
  for (const v of [...soundness, ...result.verdicts]) {
    if (v.status === "pass") continue;
    annotations.push({
      level: levelOf(v, failOn),
      file,
      ...(v.line === undefined ? {} : { line: v.line }),
      title: v.name,
      message: `${plan}: ${verdictMessage(v)}`,
    });
  }
  for (const warning of result.warnings ?? []) {
    annotations.push({ level: "warning", file, title: `tailgate: ${plan}`, message: warning });
  }
  return annotations.map(formatAnnotation);
}

/**
 * The annotations of an A/B comparison (`tailgate ab`'s `ab.json`): each comparison that regressed
 * or stayed undecided, each SLO not passed (on its line), and a comparison stopped before its
 * rounds ran, leveled as a run's verdicts are.
 */
export function abAnnotationsFor(
  ab: AbResult,
  paths: AnnotationPaths,
  failOn: FailOn = DEFAULT_FAIL_ON,
): string[] {
  const file = repoRelative(ab.plan.file, paths);
  const plan = ab.plan.name;
  const annotations: Annotation[] = [];
  for (const c of ab.comparisons) {
    if (c.status === "pass") continue;
    annotations.push({
      level: levelOf({ kind: "regression", status: c.status }, failOn),
      file,
      title: c.name,
      message: `${plan}: ${c.message}`,
    });
  }
  for (const s of ab.slos) {
    if (s.status === "pass") continue;
    annotations.push({
      level: levelOf({ kind: "slo", status: s.status, causes: s.causes }, failOn),
      file,
      ...(s.line === undefined ? {} : { line: s.line }),
      title: s.name,
      message: `${plan}: ${STATUS_WORDS[s.status]}: ${s.message}`,
    });
  }
  if (ab.verdict.status === "invalid" || ab.stoppedBy) {
    annotations.push({
      level: "error",
      file,
      title: `tailgate: ${plan}: A/B`,
      message: `${plan}: ${ab.verdict.message}`,
    });
  }
  return annotations.map(formatAnnotation);
}

/**
 * A fail or an invalid gate is an error; an undecided one is an error when it alone would turn the
 * job red under `failOn` (by default: too few requests left an SLO undecided), else a warning
 * (the runner left it undecided).
 */
function levelOf(
  v: Pick<Verdict, "kind" | "status" | "causes">,
  failOn: FailOn,
): "error" | "warning" {
  if (v.status !== "inconclusive") return "error";
  return failOn !== "never" && failsUnder(gatesVerdict([v]), failOn) ? "error" : "warning";
}

const STATUS_WORDS = {
  pass: "passed",
  fail: "failed",
  inconclusive: "inconclusive",
  invalid: "invalid",
};

function verdictMessage(v: Verdict): string {
  const marginal = v.marginal && v.status !== "inconclusive"
    ? " (marginal: the bound is inside the 95% confidence interval)"
    : "";
  const word = STATUS_WORDS[v.status];
  // An SLO's message already starts with its status ("failed: measured …").
  const text = v.message.startsWith(`${word}:`) ? v.message : `${word}: ${v.message}`;
  return `${text}${marginal}`;
}

const ISSUE = /^(\S.*?):(\d+):(\d+): (error|warning|note): (.+)$/;
const LOCATED = /^(\d+):(\d+): (error|warning|note): (.+)$/;

/**
 * Annotations for the plan problems `tailgate` printed (`file:line:col: error: message`, then the
 * source line and a hint, which are folded into the message). tailgate prints a file's name inert
 * (runner/plan/printable.ts): a line that starts with one of `files` so printed is that file's.
 */
export function planIssueAnnotations(
  stderr: string,
  paths: AnnotationPaths,
  files: readonly string[] = [],
): string[] {
  const lines = stderr.split(/\r?\n/);
  const issueAt = (line: string) => {
    const known = files.find((f) => line.startsWith(`${inertLine(f)}:`));
    const located = known === undefined
      ? undefined
      : LOCATED.exec(line.slice(inertLine(known).length + 1));
    if (known !== undefined && located) return [known, ...located.slice(1)];
    return ISSUE.exec(line)?.slice(1);
  };
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const issue = issueAt(lines[i]);
    if (!issue) continue;
    const [file, line, col, level] = issue;
    let message = issue[4];
    for (let j = i + 1; j < lines.length && j <= i + 4 && !issueAt(lines[j]); j++) {
      const hint = /^\s+hint: (.+)$/.exec(lines[j]);
      if (hint) message += ` (hint: ${hint[1]})`;
    }
    out.push(formatAnnotation({
      // A note (a default tailgate skips) is a notice: nothing for the team to fix.
      level: level === "note" ? "notice" : level as "error" | "warning",
      file: repoRelative(file, paths),
      line: Number(line),
      col: Number(col),
      title: "tailgate plan",
      message,
    }));
  }
  return out;
}
