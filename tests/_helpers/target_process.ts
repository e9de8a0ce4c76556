/**
 * The built-in target in its own process, for the truth tests (see runner/target/spawn_target.ts).
 *
 * @module
 */
export {
  spawnTarget as startTargetProcess,
  type TargetProcess,
} from "../../runner/target/spawn_target.ts";
