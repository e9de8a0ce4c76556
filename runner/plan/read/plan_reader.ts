/**
 * A reader over the located YAML tree that collects every problem as a {@linkcode PlanIssue}
 * instead of stopping at the first: the validators are written with it.
 *
 * @module
 */
import type { SourcePos, YamlEntry, YamlNode } from "./_yaml.ts";
import type { PlanIssue } from "../types.ts";
import { didYouMean } from "./did_you_mean.ts";
import type { Result } from "../../model/mod.ts";

/** Where an issue points: a node, or a key of a mapping. */
export type IssueAt = YamlNode | { pos: SourcePos; length: number };

/**
 * Collects located issues while reading a plan tree.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PlanReader } from "./plan_reader.ts";
 * import { parseYaml } from "./_yaml.ts";
 * const reader = new PlanReader("plan.yaml");
 * const root = parseYaml("nmae: x\n").root!;
 * reader.fields(root, "", ["name"]);
 * assert.equal(reader.issues[0].hint, "did you mean `name`?");
 * ```
 */
export class PlanReader {
  readonly issues: PlanIssue[] = [];

  constructor(readonly file: string) {}

  /** Records an error at a node or key. */
  error(at: IssueAt, path: string, message: string, hint?: string, offsetInNode = 0): void {
    this.#add("error", at, path, message, hint, offsetInNode);
  }

  /** Records a warning at a node or key. */
  warn(at: IssueAt, path: string, message: string, hint?: string): void {
    this.#add("warning", at, path, message, hint, 0);
  }

  /** An error underlining `length` characters from `pos`. */
  errorAt(pos: SourcePos, length: number, path: string, message: string, hint?: string): void {
    this.error({ pos, length }, path, message, hint);
  }

  #add(
    severity: PlanIssue["severity"],
    at: IssueAt,
    path: string,
    message: string,
    hint: string | undefined,
    offsetInNode: number,
  ): void {
    const length = "kind" in at ? (at.kind === "scalar" ? at.length : 1) : at.length;
    this.issues.push({
      severity,
      file: this.file,
      path,
      line: at.pos.line,
      col: at.pos.col + offsetInNode,
      length: Math.max(1, length),
      message,
      ...(hint === undefined ? {} : { hint }),
    });
  }

  /**
   * Reads a mapping whose keys must be among `allowed`; each unknown key is an error with a
   * did-you-mean. Returns the entries by key, or undefined (with an error) when `node` is no mapping.
   */
  fields(
    node: YamlNode,
    path: string,
    allowed: readonly string[],
    synonyms: Readonly<Record<string, string>> = {},
    misplaced: Readonly<Record<string, string>> = {},
  ): Map<string, YamlEntry> | undefined {
    if (node.kind !== "map") {
      this.error(node, path, `${path || "the plan"} must be a mapping of keys to values`);
      return undefined;
    }
    const out = new Map<string, YamlEntry>();
    for (const entry of node.entries) {
      if (allowed.includes(entry.key)) {
        out.set(entry.key, entry);
        continue;
      }
      const guess = didYouMean(entry.key, allowed, synonyms);
      const where = path ? ` in \`${path}\`` : "";
      const hint = guess
        ? `did you mean \`${guess}\`?`
        : misplaced[entry.key] ?? `known keys: ${allowed.join(", ")}`;
      const message = `unknown key \`${entry.key}\`${where}`;
      this.errorAt(entry.keyPos, entry.key.length, join(path, entry.key), message, hint);
    }
    return out;
  }

  /** Reads a string scalar (numbers are accepted as their text when `coerce` is set). */
  string(node: YamlNode, path: string, coerce = false): string | undefined {
    if (node.kind === "scalar" && typeof node.value === "string") return node.value;
    if (coerce && node.kind === "scalar" && typeof node.value === "number") {
      return String(node.value);
    }
    this.error(node, path, `\`${path}\` must be text`, describe(node));
    return undefined;
  }

  /** Reads a number scalar within [min, max], optionally an integer. */
  number(
    node: YamlNode,
    path: string,
    opts: { min?: number; max?: number; integer?: boolean; above?: number } = {},
  ): number | undefined {
    if (node.kind !== "scalar" || typeof node.value !== "number") {
      this.error(node, path, `\`${path}\` must be a number`, describe(node));
      return undefined;
    }
    const v = node.value;
    // YAML reads `.inf`, and a 400-digit number, as Infinity: no setting of a plan is infinite.
    if (!Number.isFinite(v)) {
      this.error(node, path, `\`${path}\` must be a finite number, not ${v}`);
      return undefined;
    }
    if (opts.integer && !Number.isInteger(v)) {
      this.error(node, path, `\`${path}\` must be a whole number, not ${v}`);
    } else if (opts.above !== undefined && !(v > opts.above)) {
      this.error(node, path, `\`${path}\` must be above ${opts.above}, not ${v}`);
    } else if (opts.min !== undefined && v < opts.min) {
      this.error(node, path, `\`${path}\` must be at least ${opts.min}, not ${v}`);
    } else if (opts.max !== undefined && v > opts.max) {
      this.error(node, path, `\`${path}\` must be at most ${opts.max}, not ${v}`);
    } else {
      return v;
    }
    return undefined;
  }

  /** Reads a boolean scalar. */
  boolean(node: YamlNode, path: string): boolean | undefined {
    if (node.kind === "scalar" && typeof node.value === "boolean") return node.value;
    this.error(node, path, `\`${path}\` must be true or false`, describe(node));
    return undefined;
  }

  /** Reads a scalar with a unit parser (durations, rates); a failure becomes a located error. */
  unit(node: YamlNode, path: string, parse: (text: string | number) => Result<number>) {
    if (node.kind !== "scalar" || node.value === null || typeof node.value === "boolean") {
      this.error(node, path, `\`${path}\` is missing its value`, describe(node));
      return undefined;
    }
    const r = parse(node.value);
    if (r.ok) return r.value;
    this.error(node, path, r.problems[0].message, r.problems[0].hint);
    return undefined;
  }

  /** Reads a sequence's items. */
  list(node: YamlNode, path: string): YamlNode[] | undefined {
    if (node.kind === "seq") return node.items;
    this.error(
      node,
      path,
      `\`${path}\` must be a list (items starting with \`- \`)`,
      describe(node),
    );
    return undefined;
  }
}

/** Joins a YAML path and a key: `load` + `stages` → `load.stages`. */
export function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/** A scalar's value as text (`60s`, `20k/s`), for names and messages; `…` for collections. */
export function sourceText(node: YamlNode): string {
  return node.kind === "scalar" ? String(node.value) : "…";
}

function describe(node: YamlNode): string {
  if (node.kind === "map") return "found a mapping";
  if (node.kind === "seq") return "found a list";
  if (node.value === null) return "found nothing";
  return `found ${typeof node.value} \`${node.value}\``;
}
