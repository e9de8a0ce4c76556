/**
 * The capacity search's result document (`search.json`, written by `tailgate search`): every step
 * it ran with its verdict and latencies, and what it concluded. A versioned contract like
 * run_result.ts, whose plan record and environment it reuses.
 *
 * @module
 */
import type { Environment, PlanRecord, VerdictStatus } from "./run_result.ts";

/** The document's `schema` value. */
export const SEARCH_SCHEMA = "tailgate-search";
/** The document's format version. */
export const SEARCH_VERSION = 2;

/** One rate tried. */
export interface SearchStep {
  /** The rate tried, per second. */
  ratePerSec: number;
  /** The measured stage's length, in milliseconds. */
  durationMs: number;
  /** True for the confirming soak at the rate found. */
  soak: boolean;
  /** `limited`: tailgate could not send the schedule (its own limit, not the server's). */
  outcome: "pass" | "fail" | "inconclusive" | "limited";
  /** The step's run verdict in words (`2 gates: 1 fail, 1 pass`), or why it was inconclusive. */
  summary: string;
  /** The SLOs that failed, as written in the plan. */
  failedSlos: string[];
  /** Requests the measured stage completed. */
  completed: number;
  /** Answers per second while the measured stage ran: above capacity, less than the rate. */
  answeredPerSec: number;
  /** Corrected response time of the measured stage, microseconds: p50, p99, p99.9 and max. */
  responseUs: { p50: number; p99: number; p999: number; max: number };
  /**
   * The seed the step's run drew its values from (`--seed N` replays it): the plan's `load.seed`,
   * else a fresh one per step. Absent in a search.json written before it was recorded.
   */
  seed?: number;
}

/** What the search concluded. */
export interface SearchConclusionRecord {
  /**
   * `found`: the sustainable rate, with the lowest failing rate above it; `at_least`: the plan's
   * highest rate passed; `inconclusive`: no server figure (the reason says why).
   */
  status: "found" | "at_least" | "inconclusive";
  /** The sustainable rate (a lower bound when `at_least` or `inconclusive`), per second. */
  ratePerSec?: number;
  /** The lowest rate that failed (the bracket's top), per second. */
  failPerSec?: number;
  /** The SLO that failed first above the rate found: the one that binds. */
  bindingSlo?: string;
  /** Why the search is inconclusive. */
  reason?: string;
}

/** One gate of the search: a `sustainable_rate` SLO, or the found rate against its history. */
export interface SearchGate {
  /** `slo`: a `sustainable_rate` SLO of the plan; `regression`: the rate found vs the history. */
  kind: "slo" | "regression";
  /** The SLO as written, or `sustainable rate vs baseline`. */
  name: string;
  /** Line of the SLO in the plan file (SLO gates). */
  line?: number;
  /** The gate's outcome. */
  status: Exclude<VerdictStatus, "invalid">;
  /** The bound (per second): the SLO's, or the lowest rate the history allows. */
  bound?: number;
  /** The verdict in words, with the figures. */
  message: string;
}

/**
 * The search's verdict, computed once: `fail` when a gate fails, `inconclusive` when one is (or,
 * with no gate, when the search found no rate), else `pass`.
 */
export interface SearchVerdict {
  /** The one outcome of the search. */
  status: Exclude<VerdictStatus, "invalid">;
  /** The verdict in words: the gates' count by outcome, or why there is no figure. */
  message: string;
  /** Every gate, in the plan's order, then the regression gate. */
  gates: SearchGate[];
}

/** The search's settings (the plan's `search` section, resolved). */
export interface SearchSettingsRecord {
  /** The first rate tried, per second. */
  fromPerSec: number;
  /** The highest rate tried, per second. */
  maxPerSec: number;
  /** Each step's measured length, in milliseconds. */
  stepMs: number;
  /** Each step's warmup, in milliseconds. */
  warmupMs: number;
  /** The pause after each step, in milliseconds. */
  cooldownMs: number;
  /** Bisection stops when (fail − pass) ≤ precision × pass (a fraction). */
  precision: number;
  /** The confirming soak's length, in milliseconds (0: none). */
  soakMs: number;
}

/** The whole document. */
export interface SearchResult {
  /** Always {@linkcode SEARCH_SCHEMA}. */
  schema: typeof SEARCH_SCHEMA;
  /** The format version ({@linkcode SEARCH_VERSION}). */
  version: number;
  /** When the search started (ISO 8601). */
  startedAt: string;
  /** When the search ended (ISO 8601). */
  endedAt: string;
  /** False when it was stopped (Ctrl-C) before it concluded. */
  complete: boolean;
  /** What stopped or hampered the search as a whole (a `--start` service that exited). */
  warnings?: string[];
  /**
   * Set when a step's `setup` failed and ended the search there: the failure, as for a run (the
   * step, its status, its body with secrets blotted out). The steps before it are kept.
   */
  setupFailure?: string;
  /** The plan as the search read it (secrets redacted). */
  plan: PlanRecord;
  /** The machine the search ran on. */
  environment: Environment;
  /** The settings the search ran with (the plan's `search` section). */
  settings: SearchSettingsRecord;
  /** Every step, in the order they ran. */
  steps: SearchStep[];
  /** What the search concluded. */
  conclusion: SearchConclusionRecord;
  /** The verdict and its gates. */
  verdict: SearchVerdict;
}
