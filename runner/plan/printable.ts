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
 * import assert from "node:assert/strict";
 * import { printable } from "./printable.ts";
 * assert.equal(printable("a\nb\u001b[2J"), "a\\nb\\u001b[2J");
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
 * characters escaped in each line (the line breaks between them kept), and workflow commands
 * broken as {@linkcode noWorkflowCommands} does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inertLines } from "./printable.ts";
 * assert.equal(inertLines("::error::forged\nok \u001b[2J"), ":\\:error::forged\nok \\u001b[2J");
 * ```
 */
export function inertLines(text: string): string {
  return text.split("\n").map(inertLine).join("\n");
}

/**
 * One line of plan-controlled text made inert: {@linkcode printable}, so it stays one line, then
 * {@linkcode noWorkflowCommands}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inertLine } from "./printable.ts";
 * assert.equal(inertLine("a\n::error::b ##[warning]c"), "a\\n::error::b #\\#[warning]c");
 * ```
 */
export function inertLine(text: string): string {
  return noWorkflowCommands(printable(text));
}

// What a GitHub Actions runner takes for a workflow command (actions/runner:
// src/Runner.Common/ActionCommand.cs, src/Runner.Worker/Handlers/OutputManager.cs). It reads a
// step's output line by line (`StreamReader.ReadLine`: a line ends at CR, LF or CRLF);
// `ActionCommand.TryParseV2` trims the line's leading whitespace (`TrimStart()`) and takes a `::`
// prefix; failing that, `ActionCommand.TryParse` takes the legacy `##[` ANYWHERE in the line. Both
// match with culture-sensitive `StartsWith`/`IndexOf` (ICU on Linux), which skip characters of no
// collation weight (zero-width and other format characters, controls): those may stand between
// the marks, so a zero-width character cannot break them; a backslash does.
const SKIPPED = String.raw`[\p{Default_Ignorable_Code_Point}\p{Cc}]*`;
const COMMAND_PREFIX = new RegExp(
  String.raw`^([\s\u0085\p{Default_Ignorable_Code_Point}\p{Cc}]*:)(${SKIPPED}:)`,
  "gmu",
);
const LEGACY_COMMAND = new RegExp(String.raw`#(${SKIPPED}#${SKIPPED}\[)`, "gu");

/**
 * `text` with every workflow command a GitHub Actions runner would find in it broken by a
 * backslash, visible and read as an escape: a line whose first characters after leading whitespace
 * are `::` gets one between them (`:\:error::…`), and every legacy `##[` becomes `#\#[`. Everything
 * else (colours included) is left as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { noWorkflowCommands } from "./printable.ts";
 * assert.equal(
 *   noWorkflowCommands("a\n  ::stop-commands::x ##[error]y"),
 *   "a\n  :\\:stop-commands::x #\\#[error]y",
 * );
 * ```
 */
export function noWorkflowCommands(text: string): string {
  return text.replace(COMMAND_PREFIX, "$1\\$2").replace(LEGACY_COMMAND, "#\\$1");
}
