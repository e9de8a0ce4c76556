/**
 * Reads a plan's data file (the `data:` section names CSV or JSON Lines files whose rows feed
 * request templates) into columns, checking its shape. Pure: the caller reads the bytes and
 * prefixes each problem with `file:line`.
 *
 * @module
 */
import { readCsvRecords } from "./_csv.ts";
import { err, ok, type Problem, type Result } from "../../model/mod.ts";

/** A data file read into columns. Values are column-major: text[c][r] is row r of column c. */
export interface DataTable {
  format: "csv" | "jsonl";
  columns: string[];
  rows: number;
  /** The text form of every value: CSV fields as written; JSONL strings as themselves, numbers/booleans as JSON text (a number as written: 1.50 stays 1.50), null as "", objects/arrays as JSON text. */
  text: string[][];
  /** JSONL only: each value's JSON text (JSON.stringify of the field; a top-level number as written, so integers past 2^53 stay exact), so a JSON body keeps its type. */
  json?: string[][];
}

/** Why a data file cannot be used: the 1-based line, what is wrong (never the file's name), a fix. */
export interface DataTableProblem extends Problem {
  line: number;
}

/** The most a data file may hold: bytes, data rows (the header excluded), columns, values. */
export const DATA_LIMITS = {
  maxFileBytes: 64 * 1024 * 1024,
  maxRows: 2_000_000,
  maxColumns: 256,
  maxCells: 4_000_000,
} as const;

/** The outcome of {@linkcode readDataTable}. */
export type DataTableRead = Result<DataTable, DataTableProblem>;

/**
 * Reads a data file's bytes: `.csv` (a header row, then rows of as many fields) or `.jsonl` /
 * `.ndjson` (one JSON object per line, each with the first object's keys). The name only picks
 * the format; the first problem found is returned.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readDataTable } from "./data_table.ts";
 * const read = readDataTable(new TextEncoder().encode('id,name\n1,"Smith, Jane"\n'), "users.csv");
 * assert.ok(read.ok, read.ok ? "" : `users.csv:${read.problems[0].line}: ${read.problems[0].message}`);
 * assert.equal(read.value.text[1][0], "Smith, Jane");
 * ```
 */
export function readDataTable(bytes: Uint8Array, fileName: string): DataTableRead {
  const ext = /\.[^./\\]*$/.exec(fileName)?.[0].toLowerCase() ?? "";
  const format = ext === ".csv" ? "csv" : ext === ".jsonl" || ext === ".ndjson" ? "jsonl" : null;
  const what = ext === "" ? "a name without an extension" : `"${ext}"`;
  if (format === null) return fail(1, `cannot tell the format from ${what}`, FORMATS);
  const size = `the file is ${count(bytes.length)} bytes; the limit is ${count(LIMIT)} (64 MiB)`;
  if (bytes.length > LIMIT) return fail(1, size, FEWER);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); // a byte-order mark is dropped
  } catch {
    return fail(1, "the file is not UTF-8 text", 'save it as UTF-8 (spreadsheets: "CSV UTF-8")');
  }
  return format === "csv" ? readCsv(text) : readJsonl(text);
}

const FORMATS = "write a .csv file (a header row, then rows) or a .jsonl file (one JSON object " +
  "per line; .ndjson works too)";
const LIMIT = DATA_LIMITS.maxFileBytes;
const FEWER = "keep only the rows and columns the test uses, or split the file";
const NO_ROWS = "the file has no rows";
const ONE_OBJECT = 'write one JSON object per line, like {"id": 1, "name": "Ann"}';

function fail(line: number, message: string, hint: string): DataTableRead {
  return err({ line, message, hint });
}

const count = (n: number) => n.toLocaleString("en-US");

/** Rows gathered column by column; past a limit they are only counted, so the count can be told. */
class Columns {
  rows = 0;
  /** The line of the first row past a limit. */
  overLine = 0;
  text: string[][];
  json?: string[][];
  constructor(readonly names: string[], jsonl: boolean) {
    this.text = names.map(() => []);
    if (jsonl) this.json = names.map(() => []);
  }
  add(line: number, text: string[], json?: string[]) {
    this.rows++;
    if (this.rows > DATA_LIMITS.maxRows || this.rows * this.names.length > DATA_LIMITS.maxCells) {
      if (this.overLine === 0) this.overLine = line;
      return;
    }
    for (let c = 0; c < text.length; c++) this.text[c].push(text[c]);
    json?.forEach((value, c) => this.json?.[c].push(value));
  }
  finish(format: "csv" | "jsonl", line: number, noRowsHint: string): DataTableRead {
    const { rows, names, overLine } = this;
    const { maxRows, maxCells } = DATA_LIMITS;
    if (rows === 0) return fail(line, NO_ROWS, noRowsHint);
    const many = `the file has ${count(rows)} rows`;
    if (rows > maxRows) return fail(overLine, `${many}; the limit is ${count(maxRows)}`, FEWER);
    const cells = rows * names.length;
    const values = `${many} of ${names.length} columns, ${count(cells)} values; the limit is ` +
      `${count(maxCells)} values`;
    if (cells > maxCells) return fail(overLine, values, FEWER);
    const table: DataTable = { format, columns: names, rows, text: this.text };
    if (this.json) table.json = this.json;
    return ok(table);
  }
}

/** The first problem with the column names found on `line` (the header, or the first object). */
function checkNames(names: string[], line: number, csv: boolean): DataTableProblem | undefined {
  const hint = `the ${csv ? "first row names" : "first object's keys name"} the columns: give ` +
    "each one a name";
  if (names.length === 0) return { line, message: "the first object has no keys", hint };
  if (names.length > DATA_LIMITS.maxColumns) {
    const message = `the file has ${names.length} columns; the limit is ${DATA_LIMITS.maxColumns}`;
    return { line, message, hint: FEWER };
  }
  const seen = new Map<string, number>();
  for (const [i, name] of names.entries()) {
    if (name.trim() === "") return { line, message: `column ${i + 1} has no name`, hint };
    const first = seen.get(name);
    if (first !== undefined) {
      const message = `the header names column "${name}" twice (columns ${first + 1} and ${i + 1})`;
      return { line, message, hint: "column names must be distinct: rename one of them" };
    }
    seen.set(name, i);
  }
  return undefined;
}

function readCsv(source: string): DataTableRead {
  let table: Columns | undefined;
  let problem: DataTableProblem | undefined;
  const syntax = readCsvRecords(source, (record, line) => {
    const want = table?.names.length ?? 0;
    if (table === undefined) {
      problem = checkNames(record, line, true);
      table = new Columns(record, false);
    } else if (record.length !== want) {
      const hint = record.length > want
        ? 'a value holding a comma must be quoted with double quotes: "Smith, Jane"'
        : "give every column a value; an empty one is nothing between two commas";
      const message = `this row has ${record.length} field${record.length === 1 ? "" : "s"}, ` +
        `the header has ${want}`;
      problem = { line, message, hint };
    } else {
      table.add(line, record);
    }
    return problem === undefined;
  });
  const found = syntax ?? problem;
  if (found) return err(found);
  const hint = "write a header row naming the columns, then one row per line";
  return table?.finish("csv", 1, "add rows below the header") ?? fail(1, NO_ROWS, hint);
}

function readJsonl(source: string): DataTableRead {
  let table: Columns | undefined;
  let names = new Set<string>();
  let first = 0;
  for (const [i, raw] of source.split("\n").entries()) {
    const line = i + 1;
    if (raw.trim() === "") continue;
    const parsed = parseObject(raw);
    if (typeof parsed === "string") return fail(line, parsed, ONE_OBJECT);
    const { object, exact } = parsed;
    const keys = Object.keys(object);
    if (table === undefined) {
      const problem = checkNames(keys, line, false);
      if (problem) return err(problem);
      [table, names, first] = [new Columns(keys, true), new Set(keys), line];
    }
    const missing = table.names.find((name) => !Object.hasOwn(object, name));
    const extra = keys.find((key) => !names.has(key));
    if (missing !== undefined || extra !== undefined) {
      const message = missing !== undefined
        ? `this object lacks the key "${missing}" that the first one (line ${first}) has`
        : `this object has a key "${extra}" that the first one (line ${first}) lacks`;
      const hint = "every object needs the first one's keys, no more, no fewer: write " +
        `"${missing ?? extra}": null where a value is missing`;
      return fail(line, message, hint);
    }
    const json = table.names.map((name) => exact.get(name) ?? JSON.stringify(object[name]));
    const text = table.names.map((name, c) => {
      const value = object[name];
      return typeof value === "string" ? value : value === null ? "" : json[c];
    });
    table.add(line, text, json);
  }
  return table?.finish("jsonl", first, ONE_OBJECT) ?? fail(1, NO_ROWS, ONE_OBJECT);
}

// 16 or more digits, an exponent, a fraction ending in 0 or starting .000000, -0. A miss only costs
// exactness; a hit inside a string only costs time.
const REWRITTEN = /(?:\d\.?){16}|\d[eE]|\.\d*0(?!\d)|\.0{6}|-0/;

/**
 * One line's JSON object, with the source text of each top-level number that JSON.stringify would
 * write differently (1.50, 1e3, integers past 2^53), so it reaches a request as written; or why
 * the line is not an object. Only a line that may hold such a number ({@linkcode REWRITTEN}) pays
 * for the reviver, which makes JSON.parse several times slower.
 */
function parseObject(
  raw: string,
): { object: Record<string, unknown>; exact: Map<string, string> } | string {
  const exact = new Map<object, Map<string, string>>();
  let value: unknown;
  try {
    value = JSON.parse(
      raw,
      !REWRITTEN.test(raw) ? undefined : function (this: object, k, v, at?: { source?: string }) {
        const source = at?.source;
        if (typeof v === "number" && source !== undefined && source !== JSON.stringify(v)) {
          exact.set(this, (exact.get(this) ?? new Map()).set(k, source));
        }
        return v;
      },
    );
  } catch (e) {
    const message = (e as Error).message
      .replace(/ at position (\d+)(?: \(line \d+ column \d+\))?/, (_, p) => ` at column ${+p + 1}`);
    return `this line is not JSON: ${message}`;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const kind = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
    return `this line holds ${kind}, not a JSON object`;
  }
  return { object: value as Record<string, unknown>, exact: exact.get(value) ?? new Map() };
}
