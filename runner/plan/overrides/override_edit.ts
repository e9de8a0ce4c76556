/**
 * An override's edit of the plan: the value it changed or added, written back into the text by
 * `overriddenText()` and named in the issues it caused.
 *
 * @module
 */
import type { SourcePos, YamlMap, YamlScalar } from "../read/mod.ts";

/** One value an override changed or added: where, the new text, and the flag it came from. */
export interface OverrideEdit {
  /** YAML path of the value (`load.stages[1].rate`). */
  path: string;
  /** The value as plan text. */
  text: string;
  /** The flag it came from (`--rate-scale 0.25`). */
  flag: string;
  /** The scalar replaced; absent when the key was added (`parent` then holds the mapping). */
  replaced?: YamlScalar;
  /** The mapping a new key was added to. */
  parent?: YamlMap;
  /** Where in the text the added key goes: before the mapping's first key as written. */
  anchor?: SourcePos;
}
