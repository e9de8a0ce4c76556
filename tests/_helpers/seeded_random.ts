/**
 * A small seeded pseudo-random generator (mulberry32) for tests that draw random cases: the same
 * seed gives the same sequence, so a failure names its seed and replays. The A/B comparison's
 * round order uses the same generator.
 *
 * @module
 */
export { mulberry32 } from "../../runner/ab/round_order.ts";
