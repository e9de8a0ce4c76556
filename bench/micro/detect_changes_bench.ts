/**
 * Cost of the history gate's change-point search on a long history: 500 runs of a p99 with
 * three steps and a creep, log-normal noise of a shared runner's spread (0.08), seeded. The
 * gate runs it once per judged metric on every run, so it must stay well under a second. Run
 * with `deno bench bench/micro/detect_changes_bench.ts`.
 *
 * @module
 */
import { detectChanges } from "../../runner/gates/history/mod.ts";

function noisyLevels(seed: number): number[] {
  let state = seed >>> 0;
  const uniform = () => { // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: 500 }, (_, i) => {
    const level = i < 100
      ? 1
      : i < 200
      ? 1.3
      : i < 300
      ? 1.3 + 0.3 * (i - 200) / 100
      : i < 400
      ? 1
      : 1.5;
    const normal = Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
    return 12_000 * level * Math.exp(0.08 * normal);
  });
}

const VALUES = noisyLevels(11);

Deno.bench("detect changes in 500 runs", () => {
  detectChanges(VALUES);
});
