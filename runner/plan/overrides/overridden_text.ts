/**
 * The plan text as command-line overrides make it (`--print-plan`): each replaced value written in
 * its place, so every line keeps its number; an added key gets a place of its own. Pure.
 *
 * @module
 */
import type { OverrideEdit } from "./override_edit.ts";

/**
 * The plan text with the edits written in: what `--print-plan` shows. Replaced values keep their
 * lines; an added key (`connections`, `seed`) gets a line (or a place in a flow mapping) of its
 * own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseYaml } from "../read/mod.ts";
 * import { applyOverrides } from "./plan_overrides.ts";
 * import { overriddenText } from "./overridden_text.ts";
 * const text = "load:\n  stages: [{ rate: 20k/s, duration: 60s }]\n";
 * const { edits } = applyOverrides(parseYaml(text).root!, { rateScale: 0.5 }, "p.yaml");
 * assert.equal(overriddenText(text, edits), "load:\n  stages: [{ rate: 10k/s, duration: 60s }]\n");
 * ```
 */
export function overriddenText(text: string, edits: OverrideEdit[]): string {
  const patches: Array<{ at: number; end: number; insert: string }> = [];
  for (const e of edits) {
    if (e.replaced) {
      const plain = /^[\w./%<>=()-][\w ./%<>=():-]*$/.test(e.text) && !/: /.test(e.text);
      const quoted = e.replaced.quoted || !plain;
      patches.push({
        at: e.replaced.offset,
        end: e.replaced.offset + e.replaced.length,
        insert: quoted ? JSON.stringify(e.text) : e.text,
      });
    } else if (e.parent && e.anchor) {
      const first = e.anchor;
      const key = e.path.slice(e.path.lastIndexOf(".") + 1);
      const lines = text.split("\n");
      const at = lines.slice(0, first.line - 1).reduce((n, l) => n + l.length + 1, 0) +
        first.col - 1;
      const flow = /[{,]\s*$/.test(text.slice(0, at));
      const indent = " ".repeat(first.col - 1);
      patches.push({
        at,
        end: at,
        insert: flow ? `${key}: ${e.text}, ` : `${key}: ${e.text}\n${indent}`,
      });
    }
  }
  let out = text;
  // From the end, so offsets hold; keys added at one place keep the flags' order.
  const order = patches.map((p, i) => ({ ...p, i })).sort((a, b) => b.at - a.at || b.i - a.i);
  for (const p of order) {
    out = out.slice(0, p.at) + p.insert + out.slice(p.end);
  }
  return out;
}
