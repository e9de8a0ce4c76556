/**
 * The request mix as the engine runs it: entries (each single request, then each journey) picked
 * by weight, and labels (each single request, then each journey's steps in order, labelled
 * `JOURNEY / STEP`). A single request's entry and label index are the same, so a plan without
 * journeys is labelled as it always was. Pure.
 *
 * @module
 */
import type { PlanJourneyStep, PlanRequest, RequestBasics, ResolvedPlan } from "../types.ts";

/** One label of the run: a single request, or a journey's step. */
export type MixLabel =
  | { kind: "request"; request: PlanRequest }
  | { kind: "step"; request: PlanJourneyStep; journey: number; step: number };

/** The mix's entries and labels. */
export interface MixLabels {
  /** Every label, single requests first (index = label index). */
  labels: MixLabel[];
  /** Each label's request (a step's request, for a step). */
  requests: RequestBasics[];
  /** Each entry's weight: single requests' then journeys'. */
  entryWeights: number[];
  /** Each entry's label: a single request's own, a journey's first step's. */
  entryLabels: number[];
  /** Per journey: the label index of its first step (its steps' labels follow in order). */
  firstStepLabel: number[];
}

/**
 * The labels and entries of `plan`'s mix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mixLabels } from "./mix_labels.ts";
 * const r = (label: string) => ({ label, weight: 1 }) as never;
 * const plan = {
 *   requests: [r("GET /health")],
 *   journeys: [{ name: "order", weight: 3, steps: [r("order / create"), r("order / read")] }],
 * } as never;
 * const mix = mixLabels(plan);
 * assert.deepEqual(mix.requests.map((q) => q.label), ["GET /health", "order / create", "order / read"]);
 * assert.deepEqual(mix.entryWeights, [1, 3]);
 * assert.deepEqual(mix.entryLabels, [0, 1]);
 * ```
 */
export function mixLabels(plan: Pick<ResolvedPlan, "requests" | "journeys">): MixLabels {
  const labels: MixLabel[] = plan.requests.map((request) => ({ kind: "request", request }));
  const entryWeights = plan.requests.map((r) => r.weight);
  const entryLabels = plan.requests.map((_, i) => i);
  const firstStepLabel: number[] = [];
  (plan.journeys ?? []).forEach((j, journey) => {
    entryWeights.push(j.weight);
    entryLabels.push(labels.length);
    firstStepLabel.push(labels.length);
    j.steps.forEach((request, step) => labels.push({ kind: "step", request, journey, step }));
  });
  return {
    labels,
    requests: labels.map((l) => l.request),
    entryWeights,
    entryLabels,
    firstStepLabel,
  };
}

/** Every label of `plan` in label-index order (single requests, then steps). */
export function labelNames(plan: Pick<ResolvedPlan, "requests" | "journeys">): string[] {
  return [
    ...plan.requests.map((r) => r.label),
    ...(plan.journeys ?? []).flatMap((j) => j.steps.map((s) => s.label)),
  ];
}

/**
 * The URL of the plan's first request, a journey's first step when it has no single request: the
 * origin the plan drives (one plan drives one origin).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstUrl } from "./mix_labels.ts";
 * const plan = { requests: [], journeys: [{ steps: [{ url: "http://h/a" }] }] } as never;
 * assert.equal(firstUrl(plan), "http://h/a");
 * ```
 */
export function firstUrl(plan: Pick<ResolvedPlan, "requests" | "journeys">): string {
  return mixLabels(plan).requests[0].url;
}
