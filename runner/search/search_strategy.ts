/**
 * The capacity search's decisions, pure: given the steps judged so far, which rate to try next,
 * or that the search is over. Exponential growth from the first rate until a step fails (or the
 * plan's highest rate passes), then bisection between the highest passing and the lowest failing
 * rate until the bracket is within the precision; an inconclusive step is run again longer (never
 * guessed), and a step the generator could not send is the generator's limit, never the server's.
 * Then one longer soak at the rate found: a pass confirms it, a fail lowers the bracket's top and
 * the search goes on. A `sustainable_rate` gate's bound that falls inside the bracket is tried as
 * a step of its own, so the gate is decided, not left between the bracket's ends. (Nighthawk's adaptive load controller and AIPerf's adaptive scale search the
 * same way; neither judges tail percentiles with a three-way decision.)
 *
 * @module
 */

/** How one step ended. `limited`: the generator could not send the schedule. */
export type StepOutcome = "pass" | "fail" | "inconclusive" | "limited";

/** A step as the strategy sees it. */
export interface JudgedStep {
  ratePerSec: number;
  /** The measured stage's length (inconclusive steps are repeated longer). */
  durationMs: number;
  outcome: StepOutcome;
  /** True for the confirming soak. */
  soak: boolean;
}

/** The search's settings (the plan's `search` section, resolved). */
export interface SearchSettings {
  /** The first rate tried. */
  fromPerSec: number;
  /** The highest rate tried: passing it ends the search there (the server is faster still). */
  maxPerSec: number;
  /** Each step's measured length; an inconclusive step is repeated at twice the length. */
  stepMs: number;
  /** The bracket is narrow enough when (fail − pass) ≤ precision × pass. */
  precision: number;
  /** The confirming run's length at the rate found (0: no soak). */
  soakMs: number;
  /** How often one rate may be repeated for being inconclusive before the search gives up. */
  maxRetries: number;
  /**
   * The bounds of the plan's `sustainable_rate` SLOs: one inside the bracket is tried as soon as
   * the bracket holds it, so the gate is decided rather than left inside the bracket.
   */
  gateRatesPerSec?: readonly number[];
}

/** What to do next. */
export type SearchMove =
  | { kind: "step"; ratePerSec: number; durationMs: number; soak: boolean }
  | { kind: "done"; conclusion: SearchConclusion };

/** How the search ended. */
export type SearchConclusion =
  | {
    /** `found`: the sustainable rate is `ratePerSec`, below `failPerSec` (the bracket). */
    status: "found";
    ratePerSec: number;
    failPerSec: number;
  }
  | {
    /** The plan's highest rate passed: the server sustains at least that much. */
    status: "at_least";
    ratePerSec: number;
  }
  | {
    /** No rate could be shown to hold (or the tool's own limit was reached): no server figure. */
    status: "inconclusive";
    reason: string;
    /** The highest rate that did pass, if any: a lower bound at best. */
    ratePerSec?: number;
  };

/**
 * The next move after `steps` (in the order they ran).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nextMove } from "./search_strategy.ts";
 * const settings = { fromPerSec: 100, maxPerSec: 10_000, stepMs: 5000, precision: 0.05, soakMs: 0, maxRetries: 2 };
 * assert.deepEqual(nextMove(settings, []), { kind: "step", ratePerSec: 100, durationMs: 5000, soak: false });
 * ```
 */
export function nextMove(settings: SearchSettings, steps: readonly JudgedStep[]): SearchMove {
  const step = (ratePerSec: number, soak = false, durationMs?: number): SearchMove => ({
    kind: "step",
    ratePerSec,
    durationMs: durationMs ?? (soak ? settings.soakMs : settings.stepMs),
    soak,
  });
  if (steps.length === 0) return step(settings.fromPerSec);
  const last = steps[steps.length - 1];
  const { passPerSec, failPerSec } = bracket(steps);

  // A step tailgate could not send may have met a passing pause of the machine: it is run again
  // (longer) like an inconclusive one; only a rate it keeps failing to send is its limit.
  if (last.outcome === "limited" && trailingRepeats(steps) > settings.maxRetries) {
    return done({
      status: "inconclusive",
      reason: `tailgate could not send ${rate(last.ratePerSec)} in ${trailingRepeats(steps)} ` +
        "runs: that is the generator's limit here, not the server's (more workers, a larger " +
        "machine, or --shard)",
      ...(passPerSec === undefined ? {} : { ratePerSec: passPerSec }),
    });
  }
  if (last.outcome === "inconclusive" || last.outcome === "limited") {
    const repeats = trailingRepeats(steps);
    if (repeats > settings.maxRetries) {
      return done({
        status: "inconclusive",
        reason: `${rate(last.ratePerSec)} stayed inconclusive over ${repeats} runs up to ` +
          `${seconds(last.durationMs)}: its verdict needs more requests than the search may send`,
        ...(passPerSec === undefined ? {} : { ratePerSec: passPerSec }),
      });
    }
    return step(last.ratePerSec, last.soak, last.durationMs * 2);
  }
  if (last.soak && last.outcome === "pass") {
    return failPerSec === undefined
      ? done({ status: "at_least", ratePerSec: last.ratePerSec })
      : done({ status: "found", ratePerSec: last.ratePerSec, failPerSec });
  }
  // Growth: double until a failure, stopping at the plan's highest rate.
  if (failPerSec === undefined) {
    const highest = passPerSec!;
    if (highest >= settings.maxPerSec) return confirm(settings, highest, undefined);
    return step(Math.min(settings.maxPerSec, highest * 2));
  }
  if (passPerSec === undefined) {
    if (failPerSec <= settings.fromPerSec / 64) {
      return done({
        status: "inconclusive",
        reason: `even ${
          rate(failPerSec)
        } failed the SLOs: the server holds none of the rates tried`,
      });
    }
    return step(failPerSec / 2);
  }
  // A gate's bound inside the bracket is the rate that decides it: tried first.
  const gate = settings.gateRatesPerSec?.find((g) =>
    g > passPerSec && g < failPerSec && !steps.some((x) => !x.soak && x.ratePerSec === g)
  );
  if (gate !== undefined) return step(gate);
  // Bisection, until the bracket is within the precision (or no rate is left between its ends).
  const middle = roundRate((passPerSec + failPerSec) / 2);
  if (
    failPerSec - passPerSec <= settings.precision * passPerSec ||
    middle <= passPerSec || middle >= failPerSec
  ) {
    return confirm(settings, passPerSec, failPerSec);
  }
  return step(middle);

  function confirm(s: SearchSettings, found: number, above: number | undefined): SearchMove {
    if (s.soakMs > 0 && !steps.some((x) => x.soak && x.ratePerSec === found)) {
      return step(found, true);
    }
    return above === undefined
      ? done({ status: "at_least", ratePerSec: found })
      : done({ status: "found", ratePerSec: found, failPerSec: above });
  }
}

/**
 * The highest rate that passed below every failure, and the lowest that failed (a failed soak
 * counts as a failure at its rate).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bracket } from "./search_strategy.ts";
 * assert.deepEqual(bracket([
 *   { ratePerSec: 100, durationMs: 1, outcome: "pass", soak: false },
 *   { ratePerSec: 200, durationMs: 1, outcome: "fail", soak: false },
 * ]), { passPerSec: 100, failPerSec: 200 });
 * ```
 */
export function bracket(
  steps: readonly JudgedStep[],
): { passPerSec?: number; failPerSec?: number } {
  const fails = steps.filter((s) => s.outcome === "fail").map((s) => s.ratePerSec);
  const failPerSec = fails.length ? Math.min(...fails) : undefined;
  const passes = steps.filter((s) =>
    s.outcome === "pass" && (failPerSec === undefined || s.ratePerSec < failPerSec)
  ).map((s) => s.ratePerSec);
  return {
    ...(passes.length ? { passPerSec: Math.max(...passes) } : {}),
    ...(failPerSec === undefined ? {} : { failPerSec }),
  };
}

function trailingRepeats(steps: readonly JudgedStep[]): number {
  const last = steps[steps.length - 1];
  let n = 0;
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    const undecided = s.outcome === "inconclusive" || s.outcome === "limited";
    if (s.ratePerSec !== last.ratePerSec || s.soak !== last.soak || !undecided) break;
    n++;
  }
  return n;
}

/** Rates with three significant digits, so the steps read as plain figures. */
function roundRate(perSec: number): number {
  return Number(perSec.toPrecision(3));
}

function done(conclusion: SearchConclusion): SearchMove {
  return { kind: "done", conclusion };
}

function rate(perSec: number): string {
  return perSec >= 1000 ? `${Number((perSec / 1000).toPrecision(4))}k/s` : `${perSec}/s`;
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}
