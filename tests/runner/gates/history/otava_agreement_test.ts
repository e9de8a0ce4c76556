/**
 * tailgate's detector beside Apache Otava 0.8.0 itself: the same series written to a JSON file,
 * Otava's `compute_change_points` run on them by `otava_points.py`, and the answers compared.
 * Without `import otava` in python3 the tests are ignored with a note, unless
 * TAILGATE_REQUIRE_TOOLS=1 (CI: .ci/install-tools installs it), where they fail.
 */
import assert from "node:assert/strict";
import {
  type ChangeOptions,
  DEFAULT_CHANGE_OPTIONS,
  detectChanges,
  otavaChangePoints,
} from "../../../../runner/gates/history/mod.ts";
import { noisySeries, realValues, stepLevels } from "./_real_noise.ts";

function hasOtava(): boolean {
  try {
    return new Deno.Command("python3", {
      args: ["-c", "import otava.analysis"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

function ignoreWithoutOtava(): boolean {
  if (hasOtava() || Deno.env.get("TAILGATE_REQUIRE_TOOLS") === "1") return false;
  console.error("note: apache-otava is not installed; its tests are ignored (.ci/install-tools)");
  return true;
}

type OtavaPoint = { index: number; pValue: number };

async function otavaOf(series: number[][], options: ChangeOptions = {}): Promise<OtavaPoint[][]> {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(
      file,
      JSON.stringify({ series, ...DEFAULT_CHANGE_OPTIONS, ...options }),
    );
    const out = await new Deno.Command("python3", {
      args: [new URL("./otava_points.py", import.meta.url).pathname, file],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder();
    if (!out.success) throw new Error(`otava_points.py failed: ${text.decode(out.stderr)}`);
    return JSON.parse(text.decode(out.stdout));
  } finally {
    await Deno.remove(file);
  }
}

const CREEP = [
  ...Array(60).fill(1),
  ...Array.from({ length: 100 }, (_, i) => 1 + 0.6 * (i + 1) / 100),
  ...Array(60).fill(1.6),
];
const MULTI = Array.from(
  { length: 260 },
  (_, i) => (i < 50 ? 1 : i < 120 ? 1.3 : i < 200 ? 1.6 : 1.1),
);

/** Named series: steps, stationary, a creep, several steps, and the real runs themselves. */
const SERIES: Record<string, number[]> = {
  "p50 step +30%, seed 1": noisySeries("p50", stepLevels(120, 60, 1.3), 1),
  "p50 step +30%, seed 2": noisySeries("p50", stepLevels(120, 60, 1.3), 2),
  "p50 step −20%": noisySeries("p50", stepLevels(120, 60, 0.8), 3),
  "p99.9 step +100%": noisySeries("p99.9", stepLevels(120, 60, 2), 4),
  "p90 step +100%": noisySeries("p90", stepLevels(120, 60, 2), 5),
  "p50 stationary 500": noisySeries("p50", Array(500).fill(1), 6),
  "p99 stationary 500": noisySeries("p99", Array(500).fill(1), 7),
  "p90 stationary 500": noisySeries("p90", Array(500).fill(1), 8),
  "p50 creep +60%": noisySeries("p50", CREEP, 9),
  "p99.9 creep +60%": noisySeries("p99.9", CREEP, 10),
  "p50 three steps": noisySeries("p50", MULTI, 11),
  "p99.9 three steps": noisySeries("p99.9", MULTI, 12),
  "real p50": realValues("p50"),
  "real p99": realValues("p99"),
};

function assertSameAsOtava(name: string, ours: OtavaPoint[], theirs: OtavaPoint[]): void {
  assert.deepEqual(ours.map((p) => p.index), theirs.map((p) => p.index), name);
  ours.forEach((point, k) => {
    const expected = theirs[k].pValue;
    assert.ok(
      Math.abs(point.pValue - expected) <= 1e-9 * Math.max(expected, 1e-300) + 1e-300,
      `${name}: p ${point.pValue} vs Otava's ${expected} at ${point.index}`,
    );
  });
}

Deno.test({
  name: "otavaChangePoints agrees with Otava's own, index by index and p by p",
  ignore: ignoreWithoutOtava(),
  fn: async () => {
    const names = Object.keys(SERIES);
    const theirs = await otavaOf(names.map((name) => SERIES[name]));
    let points = 0;
    names.forEach((name, k) => {
      assertSameAsOtava(name, otavaChangePoints(SERIES[name]), theirs[k]);
      points += theirs[k].length;
    });
    assert.ok(points >= 15, `only ${points} change points to compare`);
  },
});

Deno.test({
  name: "otavaChangePoints agrees with Otava under other windows, p-values and magnitudes",
  ignore: ignoreWithoutOtava(),
  fn: async () => {
    const names = Object.keys(SERIES);
    for (
      const options of [{ windowRuns: 30, minMagnitude: 0 }, { maxPValue: 0.01, windowRuns: 7 }]
    ) {
      const theirs = await otavaOf(names.map((name) => SERIES[name]), options);
      names.forEach((name, k) => {
        assertSameAsOtava(
          `${name} ${JSON.stringify(options)}`,
          otavaChangePoints(SERIES[name], options),
          theirs[k],
        );
      });
    }
  },
});

Deno.test({
  name: "detectChanges finds Otava's steps where the two magnitude rules agree",
  ignore: ignoreWithoutOtava(),
  fn: async () => {
    // Clear steps (each ≥ 20% under p50's spread, 100% under p99.9's): both rules keep them.
    const names = [
      "p50 step +30%, seed 1",
      "p50 step +30%, seed 2",
      "p50 step −20%",
      "p99.9 step +100%",
      "p50 three steps",
      "real p50",
    ];
    const theirs = await otavaOf(names.map((name) => SERIES[name]));
    names.forEach((name, k) => {
      const steps = detectChanges(SERIES[name]).filter((change) => change.kind === "step");
      assert.deepEqual(steps.map((change) => change.index), theirs[k].map((p) => p.index), name);
    });
  },
});
