/**
 * Text that may hold a secret, made safe to store and show: the plan's secrets (`${env.X}` values)
 * and the values setup captured, in each form a message or a body may carry them (as they are,
 * percent-encoded, JSON-escaped), replaced by `***`. One rule for every body tailgate shows: a
 * failed setup or teardown step's, and the first body of each unexpected status a run keeps.
 *
 * @module
 */
import { printable } from "../plan/mod.ts";

/** How much of a failed step's body a message shows. */
const BODY_SHOWN_CHARS = 200;

/**
 * Each secret as it is, and as a path (percent-encoded) and a JSON string (escaped) carry it: the
 * forms a message quoting a request or a body may hold.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { secretForms } from "./masked_text.ts";
 * assert.deepEqual(secretForms(["a b"]), ["a b", "a%20b"]);
 * ```
 */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = secrets.filter((s) => s !== "").flatMap((s) => [
    s,
    encodeURIComponent(s),
    JSON.stringify(s).slice(1, -1),
  ]);
  return [...new Set(forms)];
}

/**
 * `text` with every secret (each form of {@linkcode secretForms}) replaced by `***`, longest first
 * (a secret holding another goes whole).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blotSecrets } from "./masked_text.ts";
 * assert.equal(blotSecrets("token=abc123", ["abc123"]), "token=***");
 * ```
 */
export function blotSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of longestFirst(secrets)) out = out.replaceAll(s, "***");
  return out;
}

/**
 * The first 200 characters of a body, every secret in it blotted out first (so no secret is cut
 * in half and shown in part), control characters shown escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shownBody } from "./masked_text.ts";
 * assert.equal(shownBody('{"error":"bad password hunter2"}', ["hunter2"]), JSON.stringify('{"error":"bad password ***"}'));
 * ```
 */
export function shownBody(text: string, secrets: readonly string[]): string {
  const shown = blotSecrets(text, secrets);
  if (shown === "") return "(empty)";
  const cut = shown.length > BODY_SHOWN_CHARS ? `${shown.slice(0, BODY_SHOWN_CHARS)}…` : shown;
  return JSON.stringify(printable(cut));
}

/**
 * The first bytes of a body (`cut`: the body went on beyond them) as text, UTF-8 (an invalid byte
 * shown as U+FFFD, a character the cut split left out), every secret blotted out: whole, and, when
 * the body was cut, a secret's beginning at the very end, where the cut may have split one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { maskedBody } from "./masked_text.ts";
 * const bytes = new TextEncoder().encode('{"token":"abc123","next":"abc1');
 * assert.equal(maskedBody(bytes, ["abc123"], true), '{"token":"***","next":"***');
 * ```
 */
export function maskedBody(bytes: Uint8Array, secrets: readonly string[], cut: boolean): string {
  // Streaming, a decoder keeps an unfinished character back instead of showing it as U+FFFD.
  const text = new TextDecoder().decode(bytes, { stream: cut });
  const blotted = blotSecrets(text, secrets);
  if (!cut) return blotted;
  for (const s of longestFirst(secrets)) {
    for (let n = s.length - 1; n > 0; n--) {
      if (blotted.endsWith(s.slice(0, n))) return `${blotted.slice(0, -n)}***`;
    }
  }
  return blotted;
}

function longestFirst(secrets: readonly string[]): string[] {
  return [...secrets].filter((s) => s !== "").sort((a, b) => b.length - a.length);
}
