/**
 * `--confirm`: a red that a rerun could clear is re-measured before it is believed. The caller
 * reruns the plan; each rerun is judged as the run was (its SLOs, and against the same history);
 * the gates under confirmation are settled by what the runs together show:
 *
 * - **pass** when any rerun passes the gate: what one run showed, the next did not repeat;
 * - **fail** when it failed in at least two runs (the first and a rerun, or two reruns after a
 *   contended first run) and passed in none: it repeats;
 * - **inconclusive** otherwise (the runs that decided disagree with none passing, or the runner
 *   left the reruns undecided too): a warning, saying what more reruns would show.
 *
 * What is rerun (`times`):
 * - `auto` (the default): one rerun, only when the run is red by tail regressions alone (p90 and
 *   beyond, the max: the metrics a noisy runner moves most). A regression only a tail shows is
 *   red only when it repeats;
 * - `N` (1 to 10): up to N reruns when any gate a rerun could change is red or undecided for the
 *   runner's sake: a failed regression check, a failed SLO, an SLO the machine's contention or the
 *   generator left undecided (an excess in one burst the machine also saw is a reason to rerun).
 * - `0`: the first run is believed.
 *
 * For independent reruns a false alarm at rate p survives a rerun at about p²; reruns minutes apart
 * on one runner share its noise, so that is a best case. Pure: the reruns are given.
 *
 * @module
 */
import type { RunResult, Verdict } from "../model/mod.ts";
import { err, ok, problem, type Result } from "../model/mod.ts";
import { sameGate, undecidedByRunner } from "../result/mod.ts";
import { isTailMetric, type RegressionMetric } from "./regression/mod.ts";

/** How many reruns `--confirm` may make: `auto`, or a whole number from 0 to 10. */
export type ConfirmTimes = number | "auto";

/** The default of `--confirm` and of the Action's `confirm`. */
export const DEFAULT_CONFIRM: ConfirmTimes = "auto";

/** How `judge` (runner/api/judge.ts) re-measures: how many reruns at most, and how to make one. */
export interface ConfirmOptions {
  /** `auto`, or at most this many reruns (`--confirm N`); they stop once every gate is settled. */
  times: ConfirmTimes;
  /** Runs the plan again and returns its measured, unjudged result. */
  rerun: () => Promise<RunResult>;
}

/** What confirmation did to each gate it re-measured, by name. */
export interface ConfirmationOutcome {
  /** Gates that failed again: they stay failed. */
  confirmed: string[];
  /** Gates a rerun passed: now `pass`. */
  cleared: string[];
  /** Gates the runs left undecided: now `inconclusive`. */
  undecided: string[];
}

/**
 * The gates of `verdicts` a rerun is for, under `times` (see the module): empty when no rerun
 * could change the run's outcome.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gatesToConfirm } from "./confirm_gates.ts";
 * const p99 = { kind: "regression" as const, name: "p99 vs baseline: steady", metric: "p99", status: "fail" as const, stageIndexes: [0], message: "" };
 * const p50 = { ...p99, name: "p50 vs baseline: steady", metric: "p50" };
 * assert.deepEqual(gatesToConfirm([p99], "auto").map((v) => v.name), [p99.name]);
 * assert.deepEqual(gatesToConfirm([p99, p50], "auto"), []); // the median regressed: red anyway
 * assert.deepEqual(gatesToConfirm([p99, p50], 2).length, 2);
 * assert.deepEqual(gatesToConfirm([p99], 0), []);
 * ```
 */
export function gatesToConfirm(verdicts: readonly Verdict[], times: ConfirmTimes): Verdict[] {
  if (times === 0) return [];
  if (times === "auto") {
    const failed = verdicts.filter((v) => v.status === "fail");
    const tailOnly = failed.length > 0 &&
      failed.every((v) =>
        v.kind === "regression" && isTailMetric((v.metric ?? "") as RegressionMetric)
      );
    return tailOnly ? failed : [];
  }
  // A gate invalid, or undecided for want of requests, stays so whatever a rerun shows.
  if (verdicts.some((v) => v.status === "invalid")) return [];
  return verdicts.filter((v) =>
    v.status === "fail" ||
    (v.kind === "slo" && v.status === "inconclusive" && undecidedByRunner(v))
  );
}

/** At most how many reruns `times` makes. */
export function rerunsAllowed(times: ConfirmTimes): number {
  return times === "auto" ? 1 : times;
}

/**
 * Whether `gate` is settled by the runs so far: a rerun passed it, or it failed in two runs.
 */
export function isSettled(gate: Verdict, reruns: readonly (readonly Verdict[])[]): boolean {
  const statuses = [gate.status, ...reruns.map((r) => statusIn(r, gate))];
  return statuses.includes("pass") || statuses.filter((s) => s === "fail").length >= 2;
}

/** What {@linkcode applyConfirmation} settled: the gates as they now stand, and which way each went. */
export interface SettledGates {
  /** The gates given, settled, in their order: new verdicts, the given ones left as they were. */
  settled: Verdict[];
  /** Which gates went which way, by name. */
  outcome: ConfirmationOutcome;
}

/**
 * Settles `gates` (from {@linkcode gatesToConfirm}) by the reruns' verdicts, in order (see the
 * module), and says which went which way. Pure: the settled gates are new verdicts.
 */
export function applyConfirmation(
  gates: readonly Verdict[],
  reruns: readonly (readonly Verdict[])[],
): SettledGates {
  const outcome: ConfirmationOutcome = { confirmed: [], cleared: [], undecided: [] };
  const n = reruns.length;
  const runs = `${n} rerun${n === 1 ? "" : "s"}`;
  const settled = gates.map((gate): Verdict => {
    const { causes: _causes, ...v } = gate;
    const statuses = reruns.map((r) => statusIn(r, gate));
    const passedAt = statuses.indexOf("pass");
    const fails = [gate.status, ...statuses].filter((s) => s === "fail").length;
    if (passedAt >= 0) {
      outcome.cleared.push(gate.name);
      const again = reruns[passedAt].find((x) => sameGate(x, gate));
      return {
        ...v,
        status: "pass",
        message: `${gate.message}; not confirmed: rerun ${passedAt + 1} of ${n} passed it ` +
          `(${again!.message})`,
      };
    }
    if (fails >= 2) {
      outcome.confirmed.push(gate.name);
      return {
        ...v,
        status: "fail",
        message: `${gate.message}; confirmed: it failed in ${fails} of ${n + 1} runs (this one ` +
          `${gate.status}, then ${statuses.join(", ")}), none passed; a false alarm at rate p ` +
          "repeats at about p²",
      };
    }
    outcome.undecided.push(gate.name);
    // Why the runs that did not decide it could not: the runner's causes they gave.
    const causes = new Set([gate, ...reruns.map((r) => r.find((x) => sameGate(x, gate)))]
      .flatMap((x) => x?.status === "inconclusive" ? x.causes ?? [] : []));
    const message = `${gate.message}; not confirmed after ${runs} (this one ${gate.status}, ` +
      `then ${statuses.join(", ")}): it must fail twice with no pass to be red; a quieter ` +
      `runner, more reruns (--confirm ${n + 1}) or \`tailgate ab\` decides`;
    return causes.size > 0
      ? { ...gate, status: "inconclusive", causes: [...causes], message }
      : { ...v, status: "inconclusive", message };
  });
  return { settled, outcome };
}

function statusIn(verdicts: readonly Verdict[], gate: Verdict): Verdict["status"] {
  return verdicts.find((x) => sameGate(x, gate))?.status ?? "invalid";
}

/**
 * Reads a `confirm` value: `auto`, or a whole number of reruns from 0 to 10; else says what it
 * takes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readConfirm } from "./confirm_gates.ts";
 * assert.deepEqual(readConfirm("auto"), { ok: true, value: "auto" });
 * assert.deepEqual(readConfirm("2"), { ok: true, value: 2 });
 * assert.equal(readConfirm("11").ok, false);
 * ```
 */
export function readConfirm(text: string): Result<ConfirmTimes> {
  const value = text.trim();
  if (value === "auto") return ok("auto");
  const n = Number(value);
  return /^\d+$/.test(value) && n <= 10 ? ok(n) : err(problem(
    `\`${text}\` is neither auto nor a whole number of reruns from 0 to 10`,
    "auto reruns once when tail regressions alone turn the run red; N reruns up to N times " +
      "when a failed gate, or one the runner left undecided, could be cleared; 0 believes the " +
      "first run",
  ));
}
