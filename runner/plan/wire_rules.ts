/**
 * What a plan may put on the wire, stated once: the characters a header value or a URL cannot
 * hold, and the headers that frame a request, which tailgate writes itself. The plan's validators
 * (and through them the ad-hoc flags) and the engine apply these rules; nothing restates them.
 *
 * @module
 */
import { printable } from "./printable.ts";

/** Where a text goes on the wire. */
export type WirePlace = "header_value" | "url";

/**
 * The characters each place cannot hold. A header value: every control character but the tab, and
 * DEL (RFC 9110 `field-value` is visible characters, obs-text, spaces and tabs). A URL: every
 * control character and DEL (the URL parser would drop a tab or a line break without a word, and
 * a request line holds none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NOT_ON_THE_WIRE } from "./wire_rules.ts";
 * assert.equal(NOT_ON_THE_WIRE.header_value.test("a\tb"), false);
 * assert.equal(NOT_ON_THE_WIRE.url.test("/a\tb"), true);
 * ```
 */
export const NOT_ON_THE_WIRE: Readonly<Record<WirePlace, RegExp>> = {
  // deno-lint-ignore no-control-regex -- the control characters refused are the point
  header_value: /[\u0000-\u0008\u000a-\u001f\u007f]/,
  // deno-lint-ignore no-control-regex -- the control characters refused are the point
  url: /[\u0000-\u001f\u007f]/,
};

/** A character a place cannot hold: where it is, its name, and the message and hint to show. */
export interface WireTextProblem {
  /** Its index in the text. */
  index: number;
  /** Its name and escape: "a carriage return (`\r`)". */
  char: string;
  /** "a path cannot hold a carriage return (`\r`)". */
  message: string;
  /** How to fix it. */
  hint: string;
}

/**
 * The first character of `text` that `place` cannot hold, or undefined when there is none.
 * `subject` names the text in the message (default "a URL" or "a header value").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wireTextProblem } from "./wire_rules.ts";
 * assert.equal(
 *   wireTextProblem("/x\r\nX-Injected: 1", "url", "a path")?.message,
 *   "a path cannot hold a carriage return (`\\r`)",
 * );
 * assert.equal(wireTextProblem("Bearer abc", "header_value"), undefined);
 * ```
 */
export function wireTextProblem(
  text: string,
  place: WirePlace,
  subject: string = place === "url" ? "a URL" : "a header value",
): WireTextProblem | undefined {
  const found = NOT_ON_THE_WIRE[place].exec(text);
  if (found === null) return undefined;
  const c = found[0];
  const char = `${CHAR_NAMES[c] ?? "a control character"} (\`${printable(c)}\`)`;
  const code = c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0");
  return {
    index: found.index,
    char,
    message: `${subject} cannot hold ${char}`,
    hint: place === "url"
      ? `remove it, or percent-encode it (\`%${code}\`)`
      : "a header value is visible characters, spaces and tabs (RFC 9110): remove it",
  };
}

const CHAR_NAMES: Readonly<Record<string, string>> = {
  "\0": "NUL",
  "\t": "a tab",
  "\n": "a line feed",
  "\v": "a vertical tab",
  "\f": "a form feed",
  "\r": "a carriage return",
  "\u001b": "ESC",
  "\u007f": "DEL",
};

/**
 * The headers that frame a request or manage its connection (lower case). tailgate writes
 * `Content-Length` (the body's true length) and keeps its connections open, so a plan sets none of
 * them: a plan's own would contradict tailgate's (`Transfer-Encoding: chunked` beside
 * `Content-Length: 40`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FRAMING_HEADERS } from "./wire_rules.ts";
 * assert.ok(FRAMING_HEADERS.includes("transfer-encoding"));
 * ```
 */
export const FRAMING_HEADERS: readonly string[] = [
  "connection",
  "content-length",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/**
 * Why a plan cannot set the header `name`, or undefined when it can: the framing headers are
 * tailgate's. The engine never sends one, and the plan's validator refuses one with this message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { framingProblem } from "./wire_rules.ts";
 * assert.equal(
 *   framingProblem("Transfer-Encoding")?.message,
 *   "`Transfer-Encoding` frames the request, which tailgate does itself",
 * );
 * assert.equal(framingProblem("Host"), undefined); // a plan's Host replaces tailgate's
 * ```
 */
export function framingProblem(name: string): { message: string; hint: string } | undefined {
  if (!FRAMING_HEADERS.includes(name.toLowerCase())) return undefined;
  return {
    message: `\`${printable(name)}\` frames the request, which tailgate does itself`,
    hint: "remove it: tailgate sends `Content-Length` (the body's true length) and keeps its " +
      "connections open",
  };
}
