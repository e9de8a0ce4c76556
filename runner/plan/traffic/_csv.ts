/**
 * The only importer of `npm:csv-parse`. Reads CSV text (RFC 4180 quoting, a byte-order mark
 * stripped, CRLF, LF or CR line ends, empty lines skipped) record by record, with the line each
 * record starts on, so the rest of the plan code never sees the library's types.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { CsvError, parse } from "npm:csv-parse@7.0.3/sync";

/** A CSV syntax error: the 1-based line where the broken record starts, and what is wrong. */
export interface CsvSyntaxError {
  line: number;
  message: string;
  /** How to fix it. */
  hint?: string;
}

/**
 * Reads CSV text, calling `onRecord` with each record's fields (as written: no trimming, no type
 * conversion) and the 1-based line the record starts on; `onRecord` returning `false` stops the
 * reading. Records may have any number of fields: the caller checks them.
 *
 * @returns The syntax error that ended the reading early, or undefined.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readCsvRecords } from "./_csv.ts";
 * const rows: string[][] = [];
 * const error = readCsvRecords('id,note\n1,"a, b"\n', (fields) => {
 *   rows.push(fields);
 * });
 * assert.equal(error, undefined);
 * assert.deepEqual(rows, [["id", "note"], ["1", "a, b"]]);
 * ```
 */
export function readCsvRecords(
  text: string,
  onRecord: (fields: string[], line: number) => boolean | void,
): CsvSyntaxError | undefined {
  // The library's own line count is where a record ends (and counts a CRLF inside quotes twice),
  // so lines are counted here: a record starts after the previous one and the empty lines skipped.
  let next = 1;
  let skipped = 0;
  try {
    parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      record_delimiter: LINE_ENDS,
      on_record: (fields: string[], info) => {
        const line = next + info.empty_lines - skipped;
        skipped = info.empty_lines;
        next = line + 1 + fields.reduce((n, field) => n + lineBreaks(field), 0);
        if (onRecord(fields, line) === false) throw STOP;
        return null; // nothing is kept by the library
      },
    });
  } catch (e) {
    if (e === STOP) return undefined;
    if (!(e instanceof CsvError)) throw e;
    const emptyLines = typeof e.empty_lines === "number" ? e.empty_lines : skipped;
    return syntaxError(e, next + emptyLines - skipped);
  }
  return undefined;
}

const LINE_ENDS = ["\r\n", "\n", "\r"].map((end) => Buffer.from(end));
const STOP = new Error("stop reading");

function lineBreaks(field: string): number {
  if (!field.includes("\n") && !field.includes("\r")) return 0;
  return field.match(/\r\n|\r|\n/g)?.length ?? 0;
}

const QUOTE_HINT = 'quote the whole field and write each quote inside it twice: "say ""hi"""';

function syntaxError(e: CsvError, line: number): CsvSyntaxError {
  const field = typeof e.column === "number" ? `field ${e.column + 1}` : "a field";
  switch (e.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return {
        line,
        message: "a quoted field that starts in this row is never closed",
        hint: 'end it with a double quote; a quote inside a quoted field is written twice ("")',
      };
    case "INVALID_OPENING_QUOTE":
      return {
        line,
        message: `${field} has a double quote inside unquoted text`,
        hint: QUOTE_HINT,
      };
    case "CSV_INVALID_CLOSING_QUOTE":
      return {
        line,
        message: `${field} has text after its closing double quote`,
        hint: QUOTE_HINT,
      };
    default:
      return { line, message: e.message.replace(/\s*(?:at|on) line \d+/g, "") };
  }
}
