/**
 * The plan's SLOs in an A/B comparison, judged on the pooled rounds of each side, head against
 * base, pure. One noisy round of twelve must not decide: each SLO is judged once over head's runs
 * pooled (pooled_runs.ts: histograms merged exactly, the one decision rule over all their requests),
 * and the same over base's. Then, as the paired metrics cancel the runner, so does the base:
 *
 * - head's pool **passes** the SLO: `pass`;
 * - head's pool **fails** it, and base's pool fails it too, or some base run went beyond it (failed
 *   it, or was left undecided by an excess the machine's contention or the generator's own delays
 *   could explain) and head's runs did not go beyond it in more rounds than chance allows: the
 *   runner (or the base build) fails it, not the change: `inconclusive`, cause `base`, a warning
 *   under the default `fail-on`. Once the runner has put base beyond the bound, how its bad runs
 *   fall between two identical builds is chance (a busy neighbour once failed 3 head runs and 1 base
 *   run of the same build), so head's count is weighed by a sign test over the rounds where one
 *   side went beyond it and the other did not, at the 99.9% the comparisons hold: it takes 10 such
 *   rounds, all head's, twice the rounds a pull request's check runs by default;
 * - head's pool fails it and no base run went beyond it, or head's rounds beyond it are more than
 *   chance: `fail`;
 * - otherwise head's pool's own verdict (undecided, with its causes; `invalid`).
 *
 * Trends and stalls are a run's own time line: each is judged run by run, and a side's verdict is
 * the one more than half its runs reached (else `inconclusive`). Runs that stopped early are left
 * out (a stopped run is incomplete, never the server's failure; fail-fast's stop on a certain
 * failure is one, and is kept), and so are tool-limited ones while any sound run is left. The
 * implicit error gate joins once a head run needed it, and is judged on the pools too.
 *
 * @module
 */
import type { AbSloVerdict } from "../../model/mod.ts";
import type { RunResult, Verdict, VerdictStatus } from "../../model/mod.ts";
import { sameGate, statusTally, storedSlos } from "../../result/mod.ts";
import { evaluateSlos, implicitErrorVerdict } from "../slo/mod.ts";
import { binomialUpperTail } from "../stats/mod.ts";
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
    const baseFails = basePerRound.filter((s) => s === "fail").length;
    const baseRunnerExcess = bases.filter((b) => runnerExcess(b, slo)).length;
    const baseFailsToo = head.status === "fail" && (base.status === "fail" ||
      (baseFails + baseRunnerExcess > 0 && !headBeyondChance(heads, bases, slo)));
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
    const excess = (more: string) =>
      `beyond it in ${baseRunnerExcess}${more} of its runs, an excess the runner could explain`;
    const inBase = base.status === "fail"
      ? "its runs pooled fail it"
      : baseFails === 0
      ? excess("")
      : `in ${baseFails} of its runs` + (baseRunnerExcess ? `; ${excess(" more")}` : "");
    const message = baseFailsToo
      ? `base fails it too (${inBase}): the runner or the base build fails it, not this change; ${judged}`
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

/** The run's own verdict on `slo`. */
function runVerdict(run: RunResult, slo: Verdict): Verdict | undefined {
  return run.verdicts.find((v) => sameGate(v, slo)) ??
    (slo.implicit ? implicitErrorVerdict(run) : undefined);
}

function statusIn(run: RunResult, slo: Verdict): VerdictStatus {
  return runVerdict(run, slo)?.status ?? "invalid";
}

/** The level of the sign test on the rounds beyond an SLO: the paired comparisons' own. */
const CONFIDENCE = 0.999;

/**
 * Whether head went beyond `slo` in more rounds than chance allows, were the two builds the same:
 * a sign test over the rounds where one side went beyond it and the other did not (each as likely
 * as the other when the runner alone puts a run beyond it), at {@linkcode CONFIDENCE}.
 */
function headBeyondChance(
  heads: readonly RunResult[],
  bases: readonly RunResult[],
  slo: Verdict,
): boolean {
  const beyond = (run: RunResult) => statusIn(run, slo) === "fail" || runnerExcess(run, slo);
  let [headOnly, baseOnly] = [0, 0];
  for (let i = 0; i < Math.min(heads.length, bases.length); i++) {
    const [head, base] = [beyond(heads[i]), beyond(bases[i])];
    if (head && !base) headOnly++;
    if (base && !head) baseOnly++;
  }
  return binomialUpperTail(headOnly + baseOnly, 0.5, headOnly) <= 1 - CONFIDENCE;
}

/**
 * Whether `run` went beyond `slo` and was left undecided only because the runner could explain
 * the excess: the machine's contention (`contention`) or the generator's own delays (`generator`).
 * Too few requests (`sampling`) or a schedule not held alone show no excess.
 */
function runnerExcess(run: RunResult, slo: Verdict): boolean {
  const v = runVerdict(run, slo);
  return v?.status === "inconclusive" &&
    (v.causes ?? []).some((c) => c === "contention" || c === "generator");
}
