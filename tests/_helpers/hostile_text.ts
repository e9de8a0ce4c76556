/**
 * Hostile text for the output fuzzers: random names made of the pieces that break logs and
 * terminals (line breaks, workflow-command marks, the runner's escapes, leading whitespace,
 * Unicode separators and zero-width characters), and a YAML quoting that puts them in a plan
 * exactly.
 *
 * @module
 */
import { printable } from "../../runner/plan/printable.ts";

/** Pieces a hostile name is made of; none holds `/` or NUL, so each can be in a file name. */
const PIECES = [
  "\n",
  "\r",
  "\r\n",
  "::",
  "::error::forged",
  "::error title=INJECTED::x",
  "::stop-commands::pwn",
  "::pwn::",
  "##[",
  "##[error]legacy",
  "##[set-output name=x;]y",
  "#",
  "]",
  "%",
  "%0A",
  "%25",
  ",",
  ":",
  "=",
  " ",
  "  ",
  "\t",
  "\u000b",
  "\u000c",
  "\u0085",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\u2028",
  "\u2029",
  "\u200b",
  "\u2060",
  "\ufeff",
  "\u001b[2J",
  "\u001b]0;title\u0007",
  "\u202e",
  "\u007f",
  "é",
  "注文",
  "a",
  "x",
];

/** Those of {@linkcode PIECES} that {@linkcode printable} leaves as they are. */
const PRINTABLE_PIECES = PIECES.filter((p) => printable(p) === p);

/**
 * A random hostile text of one to six pieces, often starting with whitespace; with `printableOnly`
 * only pieces that {@linkcode printable} leaves as they are (a plan file name the action accepts).
 *
 * @example
 * ```ts
 * import { hostileText } from "./hostile_text.ts";
 * import { mulberry32 } from "./seeded_random.ts";
 * hostileText(mulberry32(1)); // e.g. " \u2028::error::forged%0A"
 * ```
 */
export function hostileText(next: () => number, printableOnly = false): string {
  const pieces = printableOnly ? PRINTABLE_PIECES : PIECES;
  const pick = () => pieces[Math.floor(next() * pieces.length)];
  let text = next() < 0.5 ? pick() : "";
  const count = 1 + Math.floor(next() * 6);
  for (let i = 0; i < count; i++) text += pick();
  return text;
}

/**
 * `text` as a YAML double-quoted scalar that reads back as exactly `text`: `"`, `\` and the
 * characters YAML does not allow raw (C0 controls but tab, DEL, C1 controls but NEL) written as
 * `\uXXXX`, everything else (Unicode separators, zero-width characters) left raw.
 *
 * @example
 * ```ts
 * import { yamlQuoted } from "./hostile_text.ts";
 * yamlQuoted('a"\n\u2028'); // '"a\\u0022\\u000a\u2028"' (the separator raw)
 * ```
 */
export function yamlQuoted(text: string): string {
  let out = '"';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    const raw = c !== '"' && c !== "\\" &&
      (code === 0x09 || (code >= 0x20 && code < 0x7f) || code === 0x85 || code >= 0xa0);
    out += raw ? c : `\\u${code.toString(16).padStart(4, "0")}`;
  }
  return `${out}"`;
}
