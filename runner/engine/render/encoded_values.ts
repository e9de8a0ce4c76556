/**
 * Drawn values written as their place needs them (plan/types.ts `TemplateEncoding`): raw, percent-
 * encoded for a path or query, escaped inside a JSON string, or as a JSON value. A data column is
 * encoded once before the run into one byte block per encoding it is used with, so a request only
 * copies bytes.
 *
 * @module
 */
import type { ColumnValues, TemplateEncoding } from "../../plan/mod.ts";
import { valueAt } from "../../plan/runtime/mod.ts";

const encoder = new TextEncoder();

/**
 * Text as written where `encoding` puts it; `jsonText` is the value's JSON when it has a type of
 * its own (a number, a JSONL field), used for `json_value`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeText } from "./encoded_values.ts";
 * assert.equal(encodeText("a b/c", "percent"), "a%20b%2Fc");
 * assert.equal(encodeText('say "hi"', "json_string"), 'say \\"hi\\"');
 * assert.equal(encodeText("42", "json_value", "42"), "42");
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
 * One column's values in one encoding: every row's bytes in one block, with offsets. Rows are
 * encoded straight into the block, so building it leaves no per-row objects behind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EncodedColumn } from "./encoded_values.ts";
 * import { columnValues } from "../../plan/traffic/mod.ts";
 * const c = new EncodedColumn(columnValues(["a b", "c"]), undefined, "percent");
 * assert.equal(new TextDecoder().decode(c.bytes.subarray(c.starts[0], c.starts[1])), "a%20b");
 * ```
 */
export class EncodedColumn {
  readonly bytes: Uint8Array;
  /** Row r's bytes are `bytes[starts[r]]` to `bytes[starts[r + 1]]`. */
  readonly starts: Uint32Array;

  constructor(text: ColumnValues, json: ColumnValues | undefined, encoding: TemplateEncoding) {
    const rows = text.starts.length - 1;
    this.starts = new Uint32Array(rows + 1);
    let bytes = new Uint8Array(Math.max(64, text.text.length * 2));
    let at = 0;
    for (let r = 0; r < rows; r++) {
      this.starts[r] = at;
      const value = encodeText(valueAt(text, r), encoding, json && valueAt(json, r));
      if (at + value.length * 3 > bytes.length) {
        const grown = new Uint8Array(Math.max(bytes.length * 2, at + value.length * 3));
        grown.set(bytes.subarray(0, at));
        bytes = grown;
      }
      at += encoder.encodeInto(value, bytes.subarray(at)).written;
    }
    this.starts[rows] = at;
    this.bytes = bytes.slice(0, at);
  }
}
