/**
 * The paired A/B comparison: two builds of a service on one machine (`tailgate ab`).
 *
 * @module
 */
export { type AbOptions, DEFAULT_ROUNDS, runAb } from "./run_ab.ts";
export { abPlan, type AbPlanOptions } from "./ab_plan.ts";
export type { AbTargetSpec } from "./ab_target.ts";
export type { AbComparison, AbResult, AbRound, AbRun, AbSide, AbSloVerdict } from "../model/mod.ts";
export { AB_SCHEMA, AB_VERSION } from "../model/mod.ts";
