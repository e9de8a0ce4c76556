/**
 * The only importer of `npm:yaml`. Turns YAML text into a small located tree ({@linkcode YamlNode})
 * so the rest of the plan code never sees the library's types.
 *
 * @module
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node as LibNode,
  parseAllDocuments,
  Scalar,
  visit,
} from "npm:yaml@2.9.1";

/** A 1-based line and column in the source text. */
export interface SourcePos {
  line: number;
  col: number;
}

/** A YAML node with its source position; `offset` is the 0-based character offset. */
export type YamlNode = YamlMap | YamlSeq | YamlScalar;

/** A mapping with its entries in source order. */
export interface YamlMap {
  kind: "map";
  pos: SourcePos;
  offset: number;
  entries: YamlEntry[];
}

/** One `key: value` of a mapping. A missing value (`key:`) is a null scalar. */
export interface YamlEntry {
  key: string;
  keyPos: SourcePos;
  value: YamlNode;
}

/** A sequence. */
export interface YamlSeq {
  kind: "seq";
  pos: SourcePos;
  offset: number;
  items: YamlNode[];
}

/** A scalar: string, number, boolean or null, as YAML's core schema reads it. */
export interface YamlScalar {
  kind: "scalar";
  pos: SourcePos;
  offset: number;
  value: string | number | boolean | null;
  /** Offset of the scalar's first content character (after an opening quote). */
  contentOffset: number;
  /** True when the scalar was written in quotes, so offsets inside it may be shifted by escapes. */
  quoted: boolean;
  /** Length of the scalar's source text, quotes included. */
  length: number;
}

/** A syntax problem reported by the YAML parser. */
export interface YamlSyntaxIssue {
  pos: SourcePos;
  message: string;
  code: string;
  /** How to fix it, when this module knows better than the parser's message. */
  hint?: string;
}

/** The outcome of {@linkcode parseYaml}: a root node (absent when the text is empty) and syntax issues. */
export interface YamlParse {
  root: YamlNode | undefined;
  issues: YamlSyntaxIssue[];
  /** Converts a 0-based offset into a 1-based line and column. */
  posAt(offset: number): SourcePos;
}

/**
 * Parses YAML text into a located tree, collecting every syntax issue (duplicate keys included).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseYaml } from "./_yaml.ts";
 * const { root } = parseYaml("name: demo\n");
 * assert.equal(root?.kind, "map");
 * if (root?.kind === "map") assert.equal(root.entries[0].key, "name");
 * ```
 */
export function parseYaml(text: string): YamlParse {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const posAt = (offset: number): SourcePos => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, col: p.col };
  };
  const issues: YamlSyntaxIssue[] = [];
  const list = Array.isArray(docs) ? docs : [];
  for (const doc of list) {
    for (const e of [...doc.errors, ...doc.warnings]) {
      // The YAML reader runs out of stack on a few thousand nested brackets: say what that means.
      const tooDeep = /Maximum call stack size exceeded/.test(e.message);
      const unclosed = /end with an? ([\]}])/.exec(e.message)?.[1];
      const opener = unclosed === undefined ? undefined : unclosedOpener(text, e.pos[0], unclosed);
      if (opener !== undefined) {
        const where = posAt(e.pos[0]);
        issues.push({
          pos: posAt(opener),
          message: `this \`${text[opener]}\` is never closed`,
          code: "UNCLOSED_FLOW",
          hint: `close it with \`${unclosed}\` before line ${where.line}, where the plan goes on`,
        });
        continue;
      }
      issues.push({
        pos: posAt(e.pos[0]),
        message: tooDeep
          ? `the plan nests too deeply to read (thousands of levels of \`[\` or \`{\`); a plan ` +
            `needs a handful: write it flatter`
          : cleanMessage(e.message),
        code: tooDeep ? "TOO_DEEP" : e.code,
      });
    }
  }
  if (list.length > 1) {
    const second = list[1].range[0];
    issues.push({
      pos: posAt(second),
      message: "a plan file holds one YAML document; remove the second `---` and what follows it",
      code: "MULTIPLE_DOCS",
    });
  }
  const doc = list[0];
  // Duplicate keys leave a sound tree, so validation goes on and reports the plan's other problems.
  const broken = issues.some((i) => i.code !== "DUPLICATE_KEY");
  if (doc === undefined || doc.contents === null || broken) {
    return { root: undefined, issues, posAt };
  }
  const budget = { nodes: MAX_NODES };
  try {
    const root = convert(doc.contents as LibNode, posAt, anchorTargets(doc), 0, budget);
    return { root, issues, posAt };
  } catch (e) {
    if (!(e instanceof TreeTooLarge)) throw e;
    const message =
      `the plan expands to more than ${MAX_NODES} YAML nodes or ${MAX_DEPTH} levels ` +
      "(through aliases?); write it out plainly";
    return { root: undefined, issues: [{ pos: posAt(0), message, code: "TOO_LARGE" }], posAt };
  }
}

function cleanMessage(message: string): string {
  return message.replace(/ at line \d+, column \d+.*$/s, "").trim();
}

const MAX_NODES = 100_000;
const MAX_DEPTH = 64;
class TreeTooLarge extends Error {}

/**
 * Every alias's target, found in one pass over the document: an alias names the nearest anchor
 * before it. (The library's `Alias.resolve` searches the whole document for each alias, which
 * made 40,000 aliases take minutes.)
 */
function anchorTargets(doc: Parameters<typeof visit>[0]): Map<LibNode, LibNode> {
  const anchors = new Map<string, LibNode>();
  const targets = new Map<LibNode, LibNode>();
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target) targets.set(node as LibNode, target);
    } else if (node && typeof node === "object" && "anchor" in node && node.anchor) {
      anchors.set(node.anchor as string, node as LibNode);
    }
  });
  return targets;
}

function convert(
  node: LibNode,
  posAt: (offset: number) => SourcePos,
  aliases: Map<LibNode, LibNode>,
  depth: number,
  budget: { nodes: number },
): YamlNode {
  if (depth > MAX_DEPTH || --budget.nodes < 0) throw new TreeTooLarge();
  if (isAlias(node)) {
    const target = aliases.get(node);
    if (target) return convert(target, posAt, aliases, depth + 1, budget);
  }
  const offset = node.range?.[0] ?? 0;
  const pos = posAt(offset);
  if (isMap(node)) {
    const entries: YamlEntry[] = [];
    for (const pair of node.items) {
      const keyNode = pair.key as LibNode | null;
      const keyOffset = keyNode?.range?.[0] ?? offset;
      const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode ?? "");
      const valueNode = pair.value as LibNode | null;
      const value: YamlNode = valueNode
        ? convert(valueNode, posAt, aliases, depth + 1, budget)
        : nullScalar(keyNode?.range?.[1] ?? keyOffset, posAt);
      entries.push({ key, keyPos: posAt(keyOffset), value });
    }
    return { kind: "map", pos, offset, entries };
  }
  if (isSeq(node)) {
    const items = node.items.map((item) =>
      item ? convert(item as LibNode, posAt, aliases, depth + 1, budget) : nullScalar(offset, posAt)
    );
    return { kind: "seq", pos, offset, items };
  }
  const scalar = node as Scalar;
  const quoted = scalar.type === Scalar.QUOTE_DOUBLE || scalar.type === Scalar.QUOTE_SINGLE;
  const raw = scalar.value;
  const value = typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean"
    ? raw
    : raw === null || raw === undefined
    ? null
    : String(raw);
  const length = Math.max(1, (node.range?.[1] ?? offset + 1) - offset);
  return {
    kind: "scalar",
    pos,
    offset,
    value,
    contentOffset: offset + (quoted ? 1 : 0),
    quoted,
    length,
  };
}

function nullScalar(offset: number, posAt: (o: number) => SourcePos): YamlScalar {
  return {
    kind: "scalar",
    pos: posAt(offset),
    offset,
    value: null,
    contentOffset: offset,
    quoted: false,
    length: 1,
  };
}

/**
 * The offset of the last `[` (for `]`) or `{` (for `}`) before `end` that no bracket closes,
 * skipping quoted text and comments; undefined when there is none.
 */
function unclosedOpener(text: string, end: number, closer: string): number | undefined {
  const open: number[] = [];
  for (let i = 0; i < end && i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      for (i++; i < end && text[i] !== c; i++) if (c === '"' && text[i] === "\\") i++;
    } else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]))) {
      while (i < end && text[i] !== "\n") i++;
    } else if (c === "[" || c === "{") {
      open.push(i);
    } else if (c === "]" || c === "}") {
      open.pop();
    }
  }
  const want = closer === "]" ? "[" : "{";
  for (let k = open.length - 1; k >= 0; k--) if (text[open[k]] === want) return open[k];
  return undefined;
}
