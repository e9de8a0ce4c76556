/**
 * The plan model: what a validated plan file means ({@linkcode ResolvedPlan}), and the located
 * problems ({@linkcode PlanIssue}) found on the way.
 *
 * @module
 */

/** A problem found in a plan: where it is, what is wrong, and how to fix it. */
export interface PlanIssue {
  severity: "error" | "warning";
  /** The plan file as the user named it. */
  file: string;
  /** YAML path of the offending node, e.g. `load.stages[1].rate`; empty for the whole file. */
  path: string;
  /** 1-based line and column. */
  line: number;
  col: number;
  /** How many characters the caret underlines (at least 1). */
  length: number;
  message: string;
  hint?: string;
}

/** An HTTP header; a value read from `${env.NAME}` is secret and is never printed or stored. */
export interface PlanHeader {
  name: string;
  /** The value sent on the wire, environment variables substituted. */
  value: string;
  /** The value as written in the plan (`Bearer ${env.TOKEN}`): safe to print and store. */
  template: string;
  secret: boolean;
}

/** A request body: text, JSON (serialised once at load), or a file read when the run starts. */
export type PlanBody =
  | { kind: "text"; text: string }
  | { kind: "json"; text: string }
  | { kind: "file"; path: string; sizeBytes: number };

/** Which response statuses count as success: explicit codes and whole classes (`2xx`). */
export interface StatusExpectation {
  codes: number[];
  classes: number[];
}

/** One request of the plan's mix. */
export interface PlanRequest {
  /** The label results are grouped by (`GET /orders` unless named). */
  label: string;
  method: string;
  /** Absolute URL. */
  url: string;
  headers: PlanHeader[];
  body?: PlanBody;
  /** Relative weight in the mix (> 0). */
  weight: number;
  timeoutMs: number;
  expect: StatusExpectation;
}

/** A stage at a constant rate. */
export interface ConstantStage {
  kind: "constant";
  index: number;
  name: string;
  ratePerSec: number;
  durationMs: number;
  warmup: boolean;
  line: number;
}

/** A stage whose rate moves linearly from `fromPerSec` to `toPerSec`. */
export interface RampStage {
  kind: "ramp";
  index: number;
  name: string;
  fromPerSec: number;
  toPerSec: number;
  durationMs: number;
  warmup: boolean;
  line: number;
}

/** One stage of the load profile. */
export type PlanStage = ConstantStage | RampStage;

/** How requests arrive: evenly spaced, or exponential gaps from a seeded generator. */
export type Arrival = "constant" | "poisson";

/** The load profile. */
export interface PlanLoad {
  connections: number;
  maxConnections: number;
  arrival: Arrival;
  seed: number;
  /** Worker count, or "auto" (one per core on larger machines). */
  workers: number | "auto";
  stages: PlanStage[];
}

/** What an SLO measures. Percentiles are in percent (99.9), not fractions. */
export type SloMetric =
  | { kind: "percentile"; percentile: number }
  | { kind: "max" }
  | { kind: "mean" }
  | { kind: "error_rate" }
  | { kind: "throughput" };

/** A comparison operator of the SLO grammar. */
export type SloOperator = "<" | "<=" | ">" | ">=";

/**
 * One SLO line. `bound` is in microseconds for latency metrics, a fraction (0.001) for
 * `error_rate` and requests per second for `throughput`.
 */
export interface Slo {
  /** The text as written in the plan. */
  text: string;
  metric: SloMetric;
  operator: SloOperator;
  bound: number;
  /** Bound to the constant stages at this rate; absent means every non-warmup stage. */
  atRatePerSec?: number;
  /** Scoped to one request label; absent means all requests. */
  label?: string;
  /** Line of the SLO in the plan file, for CI annotations. */
  line: number;
}

/** A validated plan, ready to schedule. */
export interface ResolvedPlan {
  name: string;
  description?: string;
  /** The plan file as the user named it. */
  file: string;
  /** Base URL of the target, when the plan names one. */
  target?: string;
  requests: PlanRequest[];
  load: PlanLoad;
  slos: Slo[];
  /** Regression gate floors by metric (fractions); absent means the defaults (docs/gates.md). */
  regression?: Record<string, number>;
}
