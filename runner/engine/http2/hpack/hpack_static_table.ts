/**
 * The HPACK static table (RFC 7541 Appendix A): 61 fields every peer knows, index 1 to 61.
 *
 * @module
 */

/**
 * The static table's fields in order; entry `i` is index `i + 1` (RFC 7541 §2.3.1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { STATIC_TABLE } from "./hpack_static_table.ts";
 * assert.deepEqual(STATIC_TABLE[8 - 1], [":status", "200"]);
 * assert.equal(STATIC_TABLE.length, 61);
 * ```
 */
export const STATIC_TABLE: ReadonlyArray<readonly [string, string]> = [
  [":authority", ""],
  [":method", "GET"],
  [":method", "POST"],
  [":path", "/"],
  [":path", "/index.html"],
  [":scheme", "http"],
  [":scheme", "https"],
  [":status", "200"],
  [":status", "204"],
  [":status", "206"],
  [":status", "304"],
  [":status", "400"],
  [":status", "404"],
  [":status", "500"],
  ["accept-charset", ""],
  ["accept-encoding", "gzip, deflate"],
  ["accept-language", ""],
  ["accept-ranges", ""],
  ["accept", ""],
  ["access-control-allow-origin", ""],
  ["age", ""],
  ["allow", ""],
  ["authorization", ""],
  ["cache-control", ""],
  ["content-disposition", ""],
  ["content-encoding", ""],
  ["content-language", ""],
  ["content-length", ""],
  ["content-location", ""],
  ["content-range", ""],
  ["content-type", ""],
  ["cookie", ""],
  ["date", ""],
  ["etag", ""],
  ["expect", ""],
  ["expires", ""],
  ["from", ""],
  ["host", ""],
  ["if-match", ""],
  ["if-modified-since", ""],
  ["if-none-match", ""],
  ["if-range", ""],
  ["if-unmodified-since", ""],
  ["last-modified", ""],
  ["link", ""],
  ["location", ""],
  ["max-forwards", ""],
  ["proxy-authenticate", ""],
  ["proxy-authorization", ""],
  ["range", ""],
  ["referer", ""],
  ["refresh", ""],
  ["retry-after", ""],
  ["server", ""],
  ["set-cookie", ""],
  ["strict-transport-security", ""],
  ["transfer-encoding", ""],
  ["user-agent", ""],
  ["vary", ""],
  ["via", ""],
  ["www-authenticate", ""],
];

/** Names of the static table, `STATIC_NAMES[i]` for index `i + 1` (the decoder's fast path). */
export const STATIC_NAMES: readonly string[] = STATIC_TABLE.map(([name]) => name);

/** Values of the static table, `STATIC_VALUES[i]` for index `i + 1`. */
export const STATIC_VALUES: readonly string[] = STATIC_TABLE.map(([, value]) => value);

const fieldIndex = new Map<string, number>();
const nameIndex = new Map<string, number>();
STATIC_TABLE.forEach(([name, value], i) => {
  fieldIndex.set(`${name}\n${value}`, i + 1);
  if (!nameIndex.has(name)) nameIndex.set(name, i + 1);
});

/**
 * The static index of the field `name: value`, or 0 when the table lacks it. A newline never
 * occurs in a valid name, so it separates name and value in the key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { staticFieldIndex } from "./hpack_static_table.ts";
 * assert.equal(staticFieldIndex(":method", "GET"), 2);
 * assert.equal(staticFieldIndex(":method", "PUT"), 0);
 * ```
 */
export function staticFieldIndex(name: string, value: string): number {
  return fieldIndex.get(`${name}\n${value}`) ?? 0;
}

/**
 * The first static index whose name is `name`, or 0 when the table lacks it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { staticNameIndex } from "./hpack_static_table.ts";
 * assert.equal(staticNameIndex(":status"), 8);
 * assert.equal(staticNameIndex("x-trace"), 0);
 * ```
 */
export function staticNameIndex(name: string): number {
  return nameIndex.get(name) ?? 0;
}
