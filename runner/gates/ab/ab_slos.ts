/**
 * The plan's SLOs in an A/B comparison, judged on the pooled rounds of each side, head against
 * base, pure. One noisy round of twelve must not decide: each SLO is judged once over head's runs
 * pooled (pooled_runs.ts: histograms merged exactly, the one decision rule over all their requests),
 * and the same over base's. Then, as the paired metrics cancel the runner, so does the base:
 *
 * - head's pool **passes** the SLO: `pass`;
 * - head's pool **fails** it, and base's pool fails it too, or base failed it in as many rounds as
 *   head: the runner (or the base build) failed it, not the change: `inconclusive`, cause `base`,
 *   a warning under the default `fail-on`;
 * - head's pool fails it and base's does not: `fail`;
 * - otherwise head's pool's own verdict (undecided, with its causes; `invalid`).
 *
 * Trends and stalls are a run's own time line: each is judged run by run, and a side's verdict is
 * the one more than half its runs reached (else `inconclusive`). Runs that stopped early are left
 * out (a stopped run is incomplete, never the server's failure; fail-fast's stop on a certain
 * failure is one, and is kept), and so are tool-limited ones while any sound run is left. The implicit error gate joins once a head run needed it, and is judged on
 * the pools too.
 *
 * @module
 */
import type { AbSloVerdict } from "../../model/mod.ts";
import type { RunResult, Verdict, VerdictStatus } from "../../model/mod.ts";
import { sameGate, statusTally, storedSlos } from "../../result/mod.ts";
import { evaluateSlos, implicitErrorVerdict } from "../slo/mod.ts";
import { poolRuns } from "./pooled_runs.ts";

/**
 * Each SLO of the plan over both sides' judged runs (in round order).
 */
export function abSloVerdicts(
  heads: readonly RunResult[],
  bases: readonly RunResult[],
): AbSloVerdict[] {
  const first = heads[0];
  if (first === undefined) return [];
  const written = first.verdicts.filter((v) => v.kind === "slo" && !v.implicit);
  const implicit = heads.flatMap((h) => h.verdicts).find((v) => v.kind === "slo" && v.implicit);
  const [headRuns, baseRuns] = [judgedRuns(heads), judgedRuns(bases)];
  const headPool = headRuns.length ? poolRuns(headRuns) : undefined;
  const basePool = baseRuns.length ? poolRuns(baseRuns) : undefined;
  return [...written, ...(implicit ? [implicit] : [])].map((slo) => {
    const perRound = heads.map((h) => statusIn(h, slo));
    const basePerRound = bases.map((b) => statusIn(b, slo));
    const byRun = judgedRunByRun(first, slo);
    const head = byRun ? majority(headRuns.map((h) => statusIn(h, slo))) : verdictIn(headPool, slo);
    const base = byRun ? majority(baseRuns.map((b) => statusIn(b, slo))) : verdictIn(basePool, slo);
    const headFails = perRound.filter((s) => s === "fail").length;
    const baseFails = basePerRound.filter((s) => s === "fail").length;
    const baseFailsToo = head.status === "fail" &&
      (base.status === "fail" || (headFails > 0 && baseFails >= headFails));
    const status: VerdictStatus = baseFailsToo ? "inconclusive" : head.status;
    const causes = baseFailsToo
      ? ["base" as const]
      : head.status === "inconclusive"
      ? head.causes ?? []
      : [];
    const runs = (n: number) => `${n} run${n === 1 ? "" : "s"}`;
    const perRun = `per run: head ${statusTally(perRound)}` +
      (bases.length ? `, base ${statusTally(basePerRound)}` : "");
    const judged = byRun
      ? `judged run by run, as a trend or stall count is (${perRun})`
      : `head's ${runs(heads.length)} pooled: ${head.message}; ${perRun}`;
    const message = baseFailsToo
      ? `base fails it too (${
        base.status === "fail" ? "its runs pooled fail it" : `in ${baseFails} of its runs`
      }): the runner or the base build fails it, not this change; ${judged}`
      : judged;
    return {
      name: slo.name,
      ...(slo.line === undefined ? {} : { line: slo.line }),
      ...(slo.implicit ? { implicit: true } : {}),
      status,
      ...(causes.length ? { causes } : {}),
      perRound,
      ...(bases.length ? { base: base.status, basePerRound } : {}),
      message,
    };
  });
}

/** What a side's verdict on an SLO says. */
type Judged = Pick<Verdict, "status" | "message" | "causes">;

/**
 * The runs a side is judged on, pooled or run by run: the complete ones (and one fail-fast
 * stopped on a certain failure), the sound among them while any is.
 */
function judgedRuns(runs: readonly RunResult[]): RunResult[] {
  const complete = runs.filter((r) => r.run.complete || r.run.stopReason === "fail_fast");
  const sound = complete.filter((r) => !r.health.toolLimited);
  return sound.length ? sound : complete;
}

/** The SLO's verdict on a pool: evaluated as a run's are, the implicit gate judged on it. */
function verdictIn(pool: RunResult | undefined, slo: Verdict): Judged {
  if (pool === undefined) {
    return {
      ...slo,
      status: "inconclusive",
      causes: ["schedule"],
      message: "no run of this side ran to its end: nothing to judge",
    };
  }
  const found = slo.implicit
    ? implicitErrorVerdict(pool)
    : evaluateSlos(pool).find((v) => sameGate(v, slo));
  return found ??
    { ...slo, status: "invalid", message: "the pooled runs hold no verdict for it" };
}

/** Whether `slo` is a trend or a stall count: a run's own time line, judged run by run. */
function judgedRunByRun(result: RunResult, slo: Verdict): boolean {
  const parsed = storedSlos(result.plan).find((s) => s.line === slo.line)?.parsed;
  return parsed !== undefined && parsed.ok &&
    (parsed.value.metric.kind === "trend" || parsed.value.metric.kind === "stalls");
}

/** The status more than half the runs reached, else `inconclusive`. */
function majority(statuses: readonly VerdictStatus[]): Judged {
  for (const status of ["fail", "pass", "invalid"] as const) {
    if (statuses.filter((s) => s === status).length * 2 > statuses.length) {
      return { status, message: "" };
    }
  }
  return { status: "inconclusive", message: "" };
}

function statusIn(run: RunResult, slo: Verdict): VerdictStatus {
  return run.verdicts.find((v) => sameGate(v, slo))?.status ??
    (slo.implicit ? implicitErrorVerdict(run)?.status : undefined) ?? "invalid";
}
