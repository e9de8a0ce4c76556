/**
 * Plan-controlled text made safe for a terminal or a CI log: the plan layer's `check` messages and
 * every reporter print plan values through {@linkcode printable}.
 *
 * @module
 */

/**
 * Plan-controlled text made safe to print: control characters, line breaks and bidirectional
 * overrides are written as escapes (`\n`, `\u001b`), so a name cannot break a row, move the
 * cursor or change colours.
 *
 * @example
 * ```ts
 * import { printable } from "./printable.ts";
 * printable("a\nb\u001b[2J"); // "a\\nb\\u001b[2J"
 * ```
 */
export function printable(text: string): string {
  let out = "";
  for (const c of text) {
    const code = c.codePointAt(0)!;
    const unsafe = code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 ||
      code === 0x2029 || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
    out += !unsafe ? c : (SHORT_ESCAPES[c] ?? `\\u${code.toString(16).padStart(4, "0")}`);
  }
  return out;
}

const SHORT_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Text that may carry plan values, made inert line by line for a terminal or a CI log: control
 * characters escaped in each line (the line breaks between them kept), and a line that would start
 * with `::` (a GitHub Actions workflow command) indented by a space.
 *
 * @example
 * ```ts
 * import { inertLines } from "./printable.ts";
 * inertLines("::error::forged\nok \u001b[2J"); // " ::error::forged\nok \\u001b[2J"
 * ```
 */
export function inertLines(text: string): string {
  return noWorkflowCommands(text.split("\n").map(printable).join("\n"));
}

/**
 * `text` with every line that starts with `::` indented by a space, so a CI runner does not read
 * it as a workflow command; everything else (colours included) is left as it is.
 *
 * @example
 * ```ts
 * import { noWorkflowCommands } from "./printable.ts";
 * noWorkflowCommands("a\n::stop-commands::x"); // "a\n ::stop-commands::x"
 * ```
 */
export function noWorkflowCommands(text: string): string {
  return text.replace(/^::/gm, " ::");
}
