/**
 * A judged-ready result with a journey, for the reporters' tests.
 *
 * @module
 */
import { toEncodedHistogram } from "../../runner/hdr/encoded_histogram.ts";
import type { RunResult } from "../../runner/model/run_result.ts";
import { gateResult, pointsUs } from "../_helpers/gate_fixtures.ts";

/**
 * A run of two stages (a warmup, then a measured one) whose journey `order` has steps `a` and
 * `b`: in the measured stage 100 journeys started, 90 completed in 20 or 40 ms with 50 ms of
 * think each, 10 failed on step a (b skipped 10 times).
 */
export function journeyResult(): RunResult {
  const r = gateResult([
    {
      ratePerSec: 10,
      durationMs: 1_000,
      warmup: true,
      labels: [
        { label: "order / a", response: pointsUs([[1_000_000, 5]]) },
        { label: "order / b", response: pointsUs([[1_000_000, 5]]) },
      ],
    },
    {
      ratePerSec: 100,
      durationMs: 1_000,
      labels: [
        { label: "order / a", response: pointsUs([[10_000, 90]]), errors: 10 },
        { label: "order / b", response: pointsUs([[10_000, 45], [30_000, 45]]) },
      ],
    },
  ]);
  r.stages[0].journeys = [{
    name: "order",
    journey: toEncodedHistogram(pointsUs([[2_000_000, 5]])),
    thinkMs: 250,
    started: 5,
    completed: 5,
    failed: 0,
    steps: [{ label: "order / a", skipped: 0 }, { label: "order / b", skipped: 0 }],
  }];
  r.stages[1].journeys = [{
    name: "order",
    journey: toEncodedHistogram(pointsUs([[20_000, 45], [40_000, 45]])),
    thinkMs: 90 * 50,
    started: 100,
    completed: 90,
    failed: 10,
    steps: [{ label: "order / a", skipped: 0 }, { label: "order / b", skipped: 10 }],
  }];
  return r;
}
