import assert from "node:assert/strict";
import { changeDirection, changeText } from "../../../../runner/gates/history/mod.ts";
import type { HistorySeries, SeriesChange } from "../../../../runner/model/history_result.ts";

const runs = Array.from({ length: 4 }, (_, i) => ({
  date: `2026-01-0${i + 1}`,
  commit: `${i}`.repeat(40),
  runner: "r",
  plan: "p",
}));

function series(metric: HistorySeries["metric"], unit: HistorySeries["unit"]): HistorySeries {
  return { stage: "steady", stageIndex: 0, metric, unit, values: [] };
}

function step(interval95: [number, number], absoluteInterval95: [number, number]): SeriesChange {
  return {
    kind: "step",
    index: 2,
    endIndex: 2,
    meanBefore: 1000,
    meanAfter: 1002,
    runsBefore: 2,
    runsAfter: 2,
    relativeChange: (interval95[0] + interval95[1]) / 2,
    interval95,
    absoluteChange: (absoluteInterval95[0] + absoluteInterval95[1]) / 2,
    absoluteInterval95,
    pValue: 2 / 3000,
    pAtFloor: true,
  };
}

Deno.test("a direction only where the whole interval lies on one side of no change", () => {
  assert.equal(changeDirection("p50", "us", step([0.01, 0.05], [10, 50])), "worse");
  assert.equal(changeDirection("p50", "us", step([-0.05, -0.01], [-50, -10])), "better");
  assert.equal(changeDirection("throughput", "per_sec", step([-0.05, -0.01], [-5, -1])), "worse");
  assert.equal(changeDirection("p90", "us", step([-0.038, 0.042], [-38, 42])), "unclear");
  // An error rate is judged in points, what it is said in.
  assert.equal(changeDirection("error_rate", "fraction", step([5, 900], [0.001, 0.003])), "worse");
  assert.equal(
    changeDirection("error_rate", "fraction", step([5, 900], [-0.001, 0.003])),
    "unclear",
  );
});

Deno.test("a change whose interval includes no change is said as such, signed", () => {
  assert.equal(
    changeText(series("p90", "us"), step([-0.038, 0.042], [-38, 42]), runs),
    "p90 of stage steady changed by +0.2% (95% interval -3.8% to +4.2%, which includes no " +
      "change), from 1ms to 1.002ms near commit 2222222, between 1111111 and 2222222",
  );
  assert.equal(
    changeText(series("error_rate", "fraction"), {
      ...step([5, 900], [-0.001, 0.003]),
      meanBefore: 0,
      meanAfter: 0.001,
    }, runs),
    "error rate of stage steady changed by +0.1 points (95% interval -0.1 to +0.3 points, which " +
      "includes no change), from 0% to 0.1% near commit 2222222, between 1111111 and 2222222",
  );
});
