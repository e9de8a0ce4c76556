import assert from "node:assert/strict";
import {
  DATA_LIMITS,
  type DataTable,
  type DataTableProblem,
  readDataTable,
} from "../../../../runner/plan/traffic/data_table.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);

function table(text: string, fileName = "users.csv"): DataTable {
  const read = readDataTable(utf8(text), fileName);
  if (!read.ok) {
    throw new Error(`expected a table, got ${read.problems[0].line}: ${read.problems[0].message}`);
  }
  return read.value;
}

function problem(text: string | Uint8Array, fileName = "users.csv"): DataTableProblem {
  const read = readDataTable(typeof text === "string" ? utf8(text) : text, fileName);
  if (read.ok) throw new Error(`expected a problem, got ${read.value.rows} rows`);
  assert.ok(!read.problems[0].message.includes(fileName), "the caller names the file");
  return read.problems[0];
}

Deno.test("a CSV is read into columns: text[c][r] is row r of column c", () => {
  const t = table("id,name\n1,Ann\n2,Bob\n");
  assert.deepEqual(t, {
    format: "csv",
    columns: ["id", "name"],
    rows: 2,
    text: [["1", "2"], ["Ann", "Bob"]],
  });
});

Deno.test("a quoted CSV field keeps its commas, doubled quotes and newlines", () => {
  const t = table('id,note\n1,"Smith, Jane"\n2,"say ""hi"""\n3,"two\nlines"\n4,""\n');
  assert.deepEqual(t.text[1], ["Smith, Jane", 'say "hi"', "two\nlines", ""]);
  assert.equal(t.rows, 4);
});

Deno.test("a CSV's byte-order mark is dropped, not read into the first column's name", () => {
  const t = table("\uFEFFid,name\n1,Ann\n");
  assert.deepEqual(t.columns, ["id", "name"]);
});

Deno.test("CRLF and LF line ends read alike, mixed too, and empty lines are skipped", () => {
  const crlf = table("id,name\r\n1,Ann\r\n\r\n2,Bob\r\n");
  const lf = table("id,name\n1,Ann\n\n2,Bob");
  const mixed = table("id,name\r\n1,Ann\n2,Bob\r\n");
  assert.deepEqual(crlf, lf);
  assert.deepEqual(mixed, lf);
  assert.deepEqual(table('id,note\r\n1,"a\r\nb"\r\n').text[1], ["a\r\nb"]);
});

Deno.test("a CSV row with the wrong field count is named by the line it starts on", () => {
  // The multi-line quoted field (with a CRLF inside it) moves the bad row to line 6.
  const p = problem('id,note\r\n1,"two\r\nlines"\r\n\r\n2,ok\r\n3,x,y\r\n4,z\r\n');
  assert.equal(p.line, 6);
  assert.equal(p.message, "this row has 3 fields, the header has 2");
  assert.match(p.hint!, /quoted with double quotes/);
  const fewer = problem('id,note\n1,"a\nb\nc"\n2\n');
  assert.equal(fewer.line, 5);
  assert.equal(fewer.message, "this row has 1 field, the header has 2");
});

Deno.test("an unclosed CSV quote is a problem at the row where the quote opens", () => {
  const p = problem('id,note\n1,ok\n\n2,"never closed\n3,x\n');
  assert.equal(p.line, 4);
  assert.match(p.message, /never closed/);
  assert.match(p.hint!, /double quote/);
});

Deno.test("a quote inside an unquoted CSV field names the field and how to quote it", () => {
  const p = problem('id,note\n1,say "hi"\n');
  assert.equal(p.line, 2);
  assert.equal(p.message, "field 2 has a double quote inside unquoted text");
  assert.match(p.hint!, /"say ""hi"""/);
});

Deno.test("CSV column names must be distinct and not empty", () => {
  const twice = problem("id,name,id\n1,a,2\n");
  assert.equal(twice.line, 1);
  assert.equal(twice.message, 'the header names column "id" twice (columns 1 and 3)');
  assert.match(twice.hint!, /distinct/);
  const blank = problem("id, ,name\n1,2,3\n");
  assert.equal(blank.line, 1);
  assert.equal(blank.message, "column 2 has no name");
  assert.match(blank.hint!, /first row names the columns/);
});

Deno.test("an empty CSV and a header without rows have no rows", () => {
  for (const text of ["", "\n\n", "\uFEFF"]) {
    const p = problem(text);
    assert.deepEqual([p.line, p.message], [1, "the file has no rows"]);
  }
  const headerOnly = problem("id,name\n");
  assert.deepEqual([headerOnly.line, headerOnly.message], [1, "the file has no rows"]);
  assert.match(headerOnly.hint!, /add rows below the header/);
});

Deno.test("JSONL values keep their JSON type in json and their text form in text", () => {
  const t = table(
    '{"id": 7, "name": "Ann", "vip": true, "note": null, "tags": ["a"], "price": 1.50}\n' +
      '{"id": 12345678901234567890, "name": "B \\"Q\\"", "vip": false, "note": "x", ' +
      '"tags": {"k": 1}, "price": 2}\n',
    "users.jsonl",
  );
  assert.equal(t.format, "jsonl");
  assert.deepEqual(t.columns, ["id", "name", "vip", "note", "tags", "price"]);
  assert.equal(t.rows, 2);
  assert.deepEqual(t.json, [
    ["7", "12345678901234567890"],
    ['"Ann"', '"B \\"Q\\""'],
    ["true", "false"],
    ["null", '"x"'],
    ['["a"]', '{"k":1}'],
    ["1.50", "2"],
  ]);
  assert.deepEqual(t.text, [
    ["7", "12345678901234567890"],
    ["Ann", 'B "Q"'],
    ["true", "false"],
    ["", "x"],
    ['["a"]', '{"k":1}'],
    ["1.50", "2"],
  ]);
});

Deno.test("JSONL skips blank lines, reads CRLF, and .ndjson names JSON Lines too", () => {
  const t = table('\n{"a": 1}\r\n  \r\n{"a": 2}\r\n', "rows.NDJSON");
  assert.deepEqual([t.format, t.rows, t.text], ["jsonl", 2, [["1", "2"]]]);
});

Deno.test("a JSONL object missing or adding a key is named with its line", () => {
  const missing = problem('{"id": 1, "name": "a"}\n\n{"id": 2}\n', "u.jsonl");
  assert.equal(missing.line, 3);
  assert.equal(missing.message, 'this object lacks the key "name" that the first one (line 1) has');
  assert.match(missing.hint!, /"name": null/);
  const extra = problem('{"id": 1}\n{"id": 2}\n{"email": "e", "id": 3}\n', "u.jsonl");
  assert.equal(extra.line, 3);
  assert.equal(extra.message, 'this object has a key "email" that the first one (line 1) lacks');
  assert.deepEqual(table('{"a": 1, "b": 2}\n{"b": 3, "a": 4}\n', "u.jsonl").text, [
    ["1", "4"],
    ["2", "3"],
  ]);
});

Deno.test("a malformed JSONL line is a problem at that line with JSON.parse's message", () => {
  const p = problem('{"id": 1}\n{"id": 2,}\n', "u.jsonl");
  assert.equal(p.line, 2);
  assert.match(p.message, /^this line is not JSON: /);
  assert.ok(p.message.length > "this line is not JSON: ".length);
  assert.match(p.hint!, /one JSON object per line/);
});

Deno.test("a JSONL line that is not an object is a problem naming what it holds", () => {
  const holds = (line: string) => problem(`${line}\n`, "u.jsonl").message;
  assert.equal(holds("[1, 2]"), "this line holds an array, not a JSON object");
  assert.equal(holds('"text"'), "this line holds a string, not a JSON object");
  assert.equal(holds("42"), "this line holds a number, not a JSON object");
  assert.equal(holds("null"), "this line holds null, not a JSON object");
  assert.equal(problem('{"a": 1}\n[1]\n', "u.jsonl").line, 2);
  assert.equal(problem("{}\n", "u.jsonl").message, "the first object has no keys");
  assert.equal(problem("\n\n", "u.jsonl").message, "the file has no rows");
});

Deno.test("a file name other than .csv, .jsonl or .ndjson is a problem at line 1", () => {
  for (const name of ["users.txt", "users", "users.json", "data.csv.gz"]) {
    const p = problem("id\n1\n", name);
    assert.equal(p.line, 1);
    assert.match(p.message, /cannot tell the format/);
    assert.match(p.hint!, /\.csv .*\.jsonl/);
  }
  assert.equal(table("id\n1\n", "dir.v2/USERS.CSV").rows, 1);
});

Deno.test("bytes that are not UTF-8 are a problem at line 1", () => {
  const latin1 = Uint8Array.of(...utf8("id,name\n1,Ren"), 0xe9, 0x0a); // "René" in Latin-1
  const p = problem(latin1);
  assert.deepEqual([p.line, p.message], [1, "the file is not UTF-8 text"]);
  assert.match(p.hint!, /UTF-8/);
});

Deno.test("a file over a limit is a problem naming the limit and the count", () => {
  const wide = Array.from({ length: DATA_LIMITS.maxColumns + 1 }, (_, i) => `c${i}`).join(",");
  const columns = problem(`${wide}\n${wide}\n`);
  assert.equal(columns.line, 1);
  assert.equal(columns.message, "the file has 257 columns; the limit is 256");
  const jsonl = problem(`{${wide.split(",").map((c) => `"${c}": 1`).join(",")}}\n`, "u.jsonl");
  assert.equal(jsonl.message, "the file has 257 columns; the limit is 256");
  // The size is checked before a byte is read, so a claimed length stands in for 64 MiB.
  const big = Object.defineProperty(new Uint8Array(8), "length", {
    value: DATA_LIMITS.maxFileBytes + 1,
  });
  assert.deepEqual([problem(big).line, problem(big).message], [
    1,
    "the file is 67,108,865 bytes; the limit is 67,108,864 (64 MiB)",
  ]);
});

Deno.test("rows past the values limit are counted, and the first one's line is named", () => {
  // 256 columns: the 15,626th row brings the values past 4,000,000.
  const header = Array.from({ length: 256 }, (_, i) => `c${i}`).join(",");
  const row = ",".repeat(255);
  const rows = 15_630;
  const p = problem(`${header}\n${`${row}\n`.repeat(rows)}`);
  assert.equal(p.line, 1 + 15_626);
  assert.equal(
    p.message,
    "the file has 15,630 rows of 256 columns, 4,001,280 values; the limit is 4,000,000 values",
  );
});
