/**
 * Fail-fast: reads a run's progress (about once a second, the engines' tallies added up) into the
 * certain-failure rule's evidence (certain_failure.ts) for each SLO the rule decides, and returns
 * the first certain failure once two reports in a row show one. Each SLO counts only its own
 * requests: those of its bound stages (`at <rate>`, or every non-warmup stage) and label, against
 * the whole plan's planned count of them (every shard's, so a shard stops only when the whole run
 * fails whatever the other shards see). A windowed SLO (`over 10s`) is judged in every window of
 * that many whole seconds of intended send time lying within its bound stages (at Holm's first
 * level, alpha over the number of windows, as judge_windows.ts judges them), once the window is
 * over: its failures and overdue requests against the requests it held. A rolling record of the
 * per-second counts keeps what each second held. No stop while the generator is behind its
 * schedule (a dispatch lag over the run's lateness limit), nor on one report alone: an answer that
 * came while the generator paused is counted outstanding until it is read, by the next report.
 *
 * @module
 */
import type { ResolvedPlan } from "../../plan/mod.ts";
import type { Progress } from "../../run/mod.ts";
import { type GroupCounts, groupCounts, type LiveTally, TALLY_FIELDS } from "../../recorder/mod.ts";
import { sendLagLimitUs } from "../../result/mod.ts";
import { type CertainEvidence, certainReason, failsForCertain } from "./certain_failure.ts";
import { type FailFastScope, failFastScopes, windowPlanned } from "./fail_fast_scope.ts";

/** A certain failure: the SLO as written, its line, and why in words. */
export interface CertainFailure {
  slo: string;
  line: number;
  reason: string;
}

/**
 * Watches `plan`'s progress; `shardCount` is the run's shard count when it runs one shard.
 */
export function failFastWatch(
  plan: ResolvedPlan,
  options: { shardCount?: number } = {},
): (p: Progress) => CertainFailure | undefined {
  const shards = options.shardCount ?? 1;
  const watched = failFastScopes(plan);
  const record = new SecondRecord(plan.requests.length);
  const lagLimitMs = sendLagLimitUs(plan.slos) / 1000;
  let streak = 0;
  return (p) => {
    record.add(p.tally);
    let failure: CertainFailure | undefined;
    for (const w of watched) {
      failure = w.seconds === undefined
        ? wholeFailure(w, p.tally, record)
        : windowFailure(w, p.tally, record, shards);
      if (failure !== undefined) break;
    }
    // Not while the generator is behind its schedule: its own lateness is not the server's.
    streak = failure === undefined || p.tally.dispatchLagMs > lagLimitMs ? 0 : streak + 1;
    return streak >= 2 ? failure : undefined;
  };
}

/** The latest counts of every second of intended send time reported so far. */
class SecondRecord {
  readonly #counts = new Map<number, Float64Array>();
  readonly every: number[];
  last = -1;

  constructor(labelCount: number) {
    this.every = Array.from({ length: labelCount }, (_, i) => i);
  }

  add(t: LiveTally): void {
    for (const i of t.intervals) {
      this.#counts.set(i.index, i.counts);
      this.last = Math.max(this.last, i.index);
    }
  }

  /** Second `s`'s counts of `labels`. */
  get(s: number, labels: readonly number[]): GroupCounts {
    const counts = this.#counts.get(s);
    return counts ? groupCounts(counts, 0, labels) : { scheduled: 0, ok: 0, failed: 0 };
  }
}

/** Of second `s`'s outstanding requests, those overdue at the tally's time (all, or none). */
function overdueIn(s: number, c: GroupCounts, ageMs: number, t: LiveTally): number {
  return (s + 1) * 1000 + ageMs <= t.atMs ? c.scheduled - c.ok - c.failed : 0;
}

/** An SLO over its stages as a whole. */
function wholeFailure(
  w: FailFastScope,
  t: LiveTally,
  record: SecondRecord,
): CertainFailure | undefined {
  const width = t.labelCount * TALLY_FIELDS;
  const whole = { scheduled: 0, ok: 0, failed: 0 };
  for (const i of w.stages) add(whole, groupCounts(t.stages, i * width, w.labels));
  // Its outstanding requests less every one that may be younger than the age: those of the seconds
  // not yet that far behind (of any stage: never too few taken off).
  let young = 0;
  for (let s = Math.max(0, Math.floor((t.atMs - w.ageMs) / 1000) - 1); s <= record.last; s++) {
    const c = record.get(s, w.labels);
    young += c.scheduled - c.ok - c.failed - overdueIn(s, c, w.ageMs, t);
  }
  const outstanding = whole.scheduled - whole.ok - whole.failed;
  const e = { planned: w.planned, failed: whole.failed, overdue: outstanding - young };
  return failsForCertain(w.slo, e) ? found(w, e, `the ${w.planned} planned${w.where}`) : undefined;
}

/** A windowed SLO: each window that holds a second reported now, or was certain the last time. */
function windowFailure(
  w: FailFastScope,
  t: LiveTally,
  record: SecondRecord,
  shards: number,
): CertainFailure | undefined {
  const length = w.windowSeconds!;
  const starts = new Set(w.certainStarts);
  for (const { index } of t.intervals) {
    for (let a = index - length + 1; a <= index; a++) starts.add(a);
  }
  w.certainStarts = [];
  let failure: CertainFailure | undefined;
  for (const a of [...starts].sort((x, y) => x - y)) {
    if ((a + length) * 1000 > t.atMs) continue; // not over yet
    const e = { planned: 0, failed: 0, overdue: 0 };
    let all = 0;
    let inside = true;
    for (let s = a; s < a + length && inside; s++) {
      inside = w.seconds!.has(s);
      const c = record.get(s, w.labels);
      e.planned += c.scheduled;
      e.failed += c.failed;
      e.overdue += overdueIn(s, c, w.ageMs, t);
      if (!w.everyLabel && shards > 1) all += record.get(s, record.every).scheduled;
    }
    if (!inside) continue;
    e.planned = windowPlanned(e.planned, all, w, shards);
    // One of many windows: certain only at Holm's first level over all of them (judge_windows.ts).
    const windows = Math.max(1, w.seconds!.size - length + 1);
    if (!failsForCertain(w.slo, e, 0.05 / windows)) continue;
    w.certainStarts.push(a);
    failure ??= found(
      w,
      e,
      `the ${e.planned} planned${w.where} in the ${length} s from ${a} s to ${a + length} s`,
    );
  }
  return failure;
}

function found(w: FailFastScope, e: CertainEvidence, of: string): CertainFailure {
  return { slo: w.slo.text, line: w.slo.line, reason: certainReason(w.slo, e, of) };
}

function add(into: GroupCounts, c: GroupCounts): void {
  into.scheduled += c.scheduled;
  into.ok += c.ok;
  into.failed += c.failed;
}
