import assert from "node:assert/strict";
import { holmLevels } from "../../../../runner/gates/stats/holm.ts";

Deno.test("holmLevels() holds the run's false-alarm rate over every check, step-down", () => {
  const alpha = 0.001;
  // Two checks: the smaller p is tested at alpha / 2, the next at alpha.
  assert.deepEqual(holmLevels([0.0004, 0.0009], alpha).map((l) => l.rejected), [true, true]);
  // The smaller p fails its alpha / 2: testing stops, so the other is not rejected either,
  // though it alone would pass a per-check 99.9% bound.
  assert.deepEqual(holmLevels([0.0006, 0.0009], alpha).map((l) => l.rejected), [false, false]);
  // Untested checks (no p-value: a short history, the error rate) keep their floor's decision.
  const mixed = holmLevels([undefined, 0.01, 0.00001], alpha);
  assert.deepEqual(mixed.map((l) => l.rejected), [true, false, true]);
  assert.deepEqual(mixed.map((l) => l.checks), [2, 2, 2]);
  // The bound of the smallest p is drawn at 1 - alpha / m.
  assert.ok(Math.abs(mixed[2].confidence - (1 - alpha / 2)) < 1e-15);
  assert.ok(Math.abs(mixed[1].confidence - (1 - alpha)) < 1e-15);
  // With 20 checks, one at p = 0.0005 is no regression (it needs 0.00005).
  const many = holmLevels([0.0005, ...Array(19).fill(0.5)], alpha);
  assert.equal(many[0].rejected, false);
});
