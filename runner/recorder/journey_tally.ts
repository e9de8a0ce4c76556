/**
 * The journeys' own figures, per stage (the stage of each journey's fire time) and journey: the
 * journey-time histogram of the journeys that completed, their think time summed, how many
 * started, completed and failed, and per step how many were skipped. A few histograms per
 * journey and stage: no per-journey storage.
 *
 * @module
 */
import type { JourneyEnd } from "../engine/mod.ts";
import type { JourneyResult } from "../model/mod.ts";
import { createHistogram, type Histogram } from "../hdr/mod.ts";
import { msToRecordableUs, toEncodedHistogram } from "../hdr/mod.ts";

/** A journey's name and its steps' label indices. */
export interface JourneyShape {
  name: string;
  /** The label index of each step, in order. */
  stepLabels: readonly number[];
}

interface Tally {
  journey: Histogram | undefined;
  thinkMs: number;
  started: number;
  completed: number;
  failed: number;
  skipped: Float64Array;
}

/**
 * Journey figures of one recorder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { JourneyTally } from "./journey_tally.ts";
 * const t = new JourneyTally(1, [{ name: "order", stepLabels: [1, 2] }], ["GET /", "order / a", "order / b"]);
 * t.ended(0, 0, "completed", 12, 50);
 * t.ended(0, 0, "failed", 3, 0);
 * t.skipped(0, 2);
 * const [order] = t.results(0);
 * assert.deepEqual([order.started, order.completed, order.failed, order.thinkMs], [2, 1, 1, 50]);
 * assert.deepEqual(order.steps, [{ label: "order / a", skipped: 0 }, { label: "order / b", skipped: 1 }]);
 * ```
 */
export class JourneyTally {
  readonly #shapes: readonly JourneyShape[];
  readonly #labels: readonly string[];
  /** Per stage, per journey. */
  readonly #tallies: Tally[][];
  /** Per label: its journey and step, or -1. */
  readonly #stepOf: Int32Array;
  readonly #journeyOf: Int32Array;

  constructor(stages: number, shapes: readonly JourneyShape[], labels: readonly string[]) {
    this.#shapes = shapes;
    this.#labels = labels;
    this.#tallies = Array.from({ length: stages }, () =>
      shapes.map((s) => ({
        journey: undefined,
        thinkMs: 0,
        started: 0,
        completed: 0,
        failed: 0,
        skipped: new Float64Array(s.stepLabels.length),
      })));
    this.#stepOf = new Int32Array(labels.length).fill(-1);
    this.#journeyOf = new Int32Array(labels.length).fill(-1);
    shapes.forEach((s, j) =>
      s.stepLabels.forEach((label, k) => {
        this.#stepOf[label] = k;
        this.#journeyOf[label] = j;
      })
    );
  }

  /** A journey of stage `stageIndex` ended (see JourneySink.journeyEnded). */
  ended(stageIndex: number, journey: number, end: JourneyEnd, journeyMs: number, thinkMs: number) {
    const t = this.#tallies[stageIndex][journey];
    t.started++;
    if (end === "completed") {
      t.completed++;
      t.thinkMs += thinkMs;
      (t.journey ??= createHistogram()).recordValue(msToRecordableUs(journeyMs));
    } else if (end === "failed") t.failed++;
  }

  /** A step of label `labelIndex` of a journey of stage `stageIndex` was skipped. */
  skipped(stageIndex: number, labelIndex: number): void {
    const j = this.#journeyOf[labelIndex];
    if (j >= 0) this.#tallies[stageIndex][j].skipped[this.#stepOf[labelIndex]]++;
  }

  /** Stage `stageIndex`'s journeys, in the plan's order. */
  results(stageIndex: number): JourneyResult[] {
    return this.#shapes.map((shape, j) => {
      const t = this.#tallies[stageIndex][j];
      return {
        name: shape.name,
        journey: toEncodedHistogram(t.journey ?? createHistogram()),
        thinkMs: t.thinkMs,
        started: t.started,
        completed: t.completed,
        failed: t.failed,
        steps: shape.stepLabels.map((label, k) => ({
          label: this.#labels[label],
          skipped: t.skipped[k],
        })),
      };
    });
  }
}
