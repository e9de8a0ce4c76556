/**
 * Drawn values written as their place needs them (plan/types.ts `TemplateEncoding`): raw, percent-
 * encoded for a path or query, escaped inside a JSON string, or as a JSON value. A data column is
 * encoded once before the run into one byte block per encoding it is used with, so a request only
 * copies bytes.
 *
 * @module
 */
import type { TemplateEncoding } from "../../plan/types.ts";

const encoder = new TextEncoder();

/**
 * Text as written where `encoding` puts it; `jsonText` is the value's JSON when it has a type of
 * its own (a number, a JSONL field), used for `json_value`.
 *
 * @example
 * ```ts
 * import { encodeText } from "./encoded_values.ts";
 * encodeText("a b/c", "percent"); // "a%20b%2Fc"
 * encodeText('say "hi"', "json_string"); // 'say \\"hi\\"'
 * encodeText("42", "json_value", "42"); // "42"
 * ```
 */
export function encodeText(text: string, encoding: TemplateEncoding, jsonText?: string): string {
  switch (encoding) {
    case "raw":
      return text;
    case "percent":
      return encodeURIComponent(text);
    case "json_string":
      return JSON.stringify(text).slice(1, -1);
    case "json_value":
      return jsonText ?? JSON.stringify(text);
  }
}

/**
 * One column's values in one encoding: every row's bytes in one block, with offsets.
 *
 * @example
 * ```ts
 * import { EncodedColumn } from "./encoded_values.ts";
 * const c = new EncodedColumn(["a b", "c"], undefined, "percent");
 * new TextDecoder().decode(c.bytes.subarray(c.starts[0], c.starts[1])); // "a%20b"
 * ```
 */
export class EncodedColumn {
  readonly bytes: Uint8Array;
  /** Row r's bytes are `bytes[starts[r]]` to `bytes[starts[r + 1]]`. */
  readonly starts: Uint32Array;

  constructor(
    text: readonly string[],
    json: readonly string[] | undefined,
    encoding: TemplateEncoding,
  ) {
    const parts = text.map((t, r) => encoder.encode(encodeText(t, encoding, json?.[r])));
    this.starts = new Uint32Array(parts.length + 1);
    let total = 0;
    parts.forEach((p, r) => {
      this.starts[r] = total;
      total += p.length;
    });
    this.starts[parts.length] = total;
    this.bytes = new Uint8Array(total);
    parts.forEach((p, r) => this.bytes.set(p, this.starts[r]));
  }

  /** Row `r`'s bytes (a view). */
  row(r: number): Uint8Array {
    return this.bytes.subarray(this.starts[r], this.starts[r + 1]);
  }
}
