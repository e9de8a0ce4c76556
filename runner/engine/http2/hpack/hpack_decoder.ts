/**
 * The receiving half of HPACK (RFC 7541): one decoder per connection, its dynamic table carried
 * from one header block to the next.
 *
 * @module
 */
import { HpackError } from "./hpack_error.ts";
import { huffmanDecode } from "./hpack_huffman.ts";
import { latin1String } from "./hpack_latin1.ts";
import { STATIC_NAMES, STATIC_VALUES } from "./hpack_static_table.ts";

/** RFC 7541 §4.1: an entry's size is its name and value octets plus 32. */
const ENTRY_OVERHEAD_BYTES = 32;
const STATIC_LENGTH = STATIC_NAMES.length;
/** Integers stop at 2^31 - 1 (RFC 7541 §5.1 lets a decoder set this limit). */
const MAX_INTEGER = 0x7fffffff;
/** Ring slots allocated up front: 4096 octets hold 128 entries of the minimum size. */
const INITIAL_SLOTS = 128;

/**
 * Decodes the header blocks of one HTTP/2 connection, in order. The dynamic table is a ring of
 * names and values (128 slots, doubled when full up to `maxTableBytes / 32`); decoding allocates
 * only the strings.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HpackDecoder } from "./hpack_decoder.ts";
 * const decoder = new HpackDecoder();
 * const fields: string[] = [];
 * // :status 200 (static), then a literal "server: x" added to the dynamic table
 * decoder.decode(Uint8Array.of(0x88, 0x40 | 54, 0x01, 0x78), (name, value) => {
 *   fields.push(`${name}: ${value}`);
 * });
 * decoder.decode(Uint8Array.of(0xbe), (name, value) => fields.push(`${name}: ${value}`));
 * assert.deepEqual(fields, [":status: 200", "server: x", "server: x"]);
 * ```
 */
export class HpackDecoder {
  /** The largest table size a size update may set: our SETTINGS_HEADER_TABLE_SIZE. */
  readonly maxTableBytes: number;
  #capacityBytes: number;
  #sizeBytes = 0;
  #maxSlots: number;
  #names: string[];
  #values: string[];
  /** Slot of the newest entry (dynamic index 62). */
  #newest = 0;
  #length = 0;
  #pos = 0;
  /** The `:status` {@linkcode status} found so far in its block. */
  #status = "";
  /** Whether that status is a 429 or 503, whose `retry-after` {@linkcode status} keeps. */
  #readRetryAfter = false;
  #retryAfter = "";
  /** Whether {@linkcode status} keeps `grpc-status` and `grpc-message` (a gRPC stream's block). */
  #readGrpc = false;
  #grpcStatus = "";
  #grpcMessage = "";

  /**
   * A decoder whose peer may grow the dynamic table up to `maxTableBytes` (the
   * SETTINGS_HEADER_TABLE_SIZE we announce; 4096 by default, RFC 7540 §6.5.2).
   */
  constructor(maxTableBytes = 4096) {
    if (!Number.isInteger(maxTableBytes) || maxTableBytes < 0 || maxTableBytes > MAX_INTEGER) {
      throw new RangeError(`maxTableBytes must be an integer in [0, 2^31), got ${maxTableBytes}`);
    }
    this.maxTableBytes = maxTableBytes;
    this.#capacityBytes = maxTableBytes;
    // Entries take at least 32 octets: the ring never needs more slots than this.
    this.#maxSlots = Math.max(1, Math.floor(maxTableBytes / ENTRY_OVERHEAD_BYTES));
    const slots = Math.min(this.#maxSlots, INITIAL_SLOTS);
    this.#names = new Array<string>(slots).fill("");
    this.#values = new Array<string>(slots).fill("");
  }

  /** The dynamic table's size by RFC 7541 §4.1, in octets. */
  get tableBytes(): number {
    return this.#sizeBytes;
  }

  /** Entries in the dynamic table. */
  get tableLength(): number {
    return this.#length;
  }

  /**
   * Decodes ONE complete header block, calling `onField` for each field in order. Throws
   * {@linkcode HpackError} on malformed input; the connection is then unusable (RFC 7540 §4.3).
   */
  decode(block: Uint8Array, onField: (name: string, value: string) => void): void {
    this.#walk(block, onField);
  }

  /**
   * Decodes ONE complete response header block as {@linkcode decode} does, table updates and all,
   * but returns only its `:status` (0 when it has none): a string is built only where the table
   * keeps it or where it is the status, and the other literals are skipped over. The engine's
   * hot path: one per response. `grpc`: a gRPC stream's block, whose `grpc-status` and
   * `grpc-message` are kept too ({@linkcode grpcStatus}). Throws {@linkcode HpackError} on
   * malformed input.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { HpackDecoder } from "./hpack_decoder.ts";
   * // :status 200 (static entry 8), then `date` as a literal without indexing.
   * const block = new Uint8Array([0x88, 0x0f, 0x12, 0x03, 0x4d, 0x6f, 0x6e]);
   * assert.equal(new HpackDecoder().status(block), 200);
   * ```
   */
  status(block: Uint8Array, grpc = false): number {
    this.#status = "";
    this.#readRetryAfter = false;
    this.#retryAfter = "";
    this.#readGrpc = grpc;
    if (grpc) this.#grpcStatus = this.#grpcMessage = "";
    this.#walk(block, undefined);
    // RFC 9113 §8.3.2: exactly three digits; anything else (`2e2`, ` 200`, `0xc8`) is malformed.
    return /^[0-9]{3}$/.test(this.#status) ? Number(this.#status) : 0;
  }

  /**
   * The `retry-after` value of the last block {@linkcode status} read, when its status was 429 or
   * 503 (a `retry-after` after the status; pseudo-headers come first); "" otherwise.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { HpackDecoder } from "./hpack_decoder.ts";
   * // :status 429 (literal, static name 8), then retry-after (static name 53) "7".
   * const block = Uint8Array.of(0x08, 0x03, 0x34, 0x32, 0x39, 0x0f, 0x26, 0x01, 0x37);
   * const decoder = new HpackDecoder();
   * assert.equal(decoder.status(block), 429);
   * assert.equal(decoder.retryAfter, "7");
   * ```
   */
  get retryAfter(): string {
    return this.#retryAfter;
  }

  /**
   * The `grpc-status` of the last block {@linkcode status} read with `grpc` set, as sent (a
   * decimal code); "" when it had none.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { HpackDecoder } from "./hpack_decoder.ts";
   * // Trailers: grpc-status "14" and grpc-message "down", literals with new names, no indexing.
   * const text = (s: string) => [s.length, ...new TextEncoder().encode(s)];
   * const block = Uint8Array.of(
   *   0x00, ...text("grpc-status"), ...text("14"),
   *   0x00, ...text("grpc-message"), ...text("down"),
   * );
   * const decoder = new HpackDecoder();
   * assert.equal(decoder.status(block, true), 0);
   * assert.equal(decoder.grpcStatus, "14");
   * assert.equal(decoder.grpcMessage, "down");
   * ```
   */
  get grpcStatus(): string {
    return this.#grpcStatus;
  }

  /** The `grpc-message` of the last block read as {@linkcode grpcStatus} says ("" when none). */
  get grpcMessage(): string {
    return this.#grpcMessage;
  }

  /** Keeps a gRPC trailer's value, when `name` is one of the two kept. */
  #keepGrpc(name: string, value: string): void {
    if (name === "grpc-status") this.#grpcStatus = value;
    else if (name === "grpc-message") this.#grpcMessage = value;
  }

  #keepStatus(value: string): void {
    this.#status = value;
    this.#readRetryAfter = value === "429" || value === "503";
  }

  /**
   * The one walk over a block: each field to `onField`, or, without it, only `:status` kept (in
   * `#status`) and the literals the table does not keep stepped over undecoded.
   */
  #walk(block: Uint8Array, onField: ((name: string, value: string) => void) | undefined): void {
    const end = block.length;
    this.#pos = 0;
    let fieldSeen = false;
    while (this.#pos < end) {
      const first = block[this.#pos];
      if (first & 0x80) { // §6.1 indexed field
        const index = this.#integer(block, 7);
        const name = this.#name(index);
        if (onField) onField(name, this.#value(index));
        else if (name === ":status") this.#keepStatus(this.#value(index));
        else if (this.#readRetryAfter && name === "retry-after") {
          this.#retryAfter = this.#value(index);
        } else if (this.#readGrpc) this.#keepGrpc(name, this.#value(index));
        fieldSeen = true;
      } else if (first & 0x40) { // §6.2.1 literal with incremental indexing: the table keeps it
        const index = this.#integer(block, 6);
        const name = index === 0 ? this.#string(block) : this.#name(index);
        const value = this.#string(block);
        this.#insert(name, value);
        if (onField) onField(name, value);
        else if (name === ":status") this.#keepStatus(value);
        else if (this.#readRetryAfter && name === "retry-after") this.#retryAfter = value;
        else if (this.#readGrpc) this.#keepGrpc(name, value);
        fieldSeen = true;
      } else if (first & 0x20) { // §6.3 dynamic table size update
        // §4.2: only at the start of a block.
        if (fieldSeen) throw new HpackError("dynamic table size update after a field");
        const sizeBytes = this.#integer(block, 5);
        if (sizeBytes > this.maxTableBytes) {
          throw new HpackError(`table size update to ${sizeBytes} above ${this.maxTableBytes}`);
        }
        this.#capacityBytes = sizeBytes;
        this.#evictTo(sizeBytes);
      } else { // §6.2.2 without indexing, §6.2.3 never indexed: nothing kept
        const index = this.#integer(block, 4);
        const name = index === 0 ? this.#string(block) : this.#name(index);
        if (onField) onField(name, this.#string(block));
        else if (name === ":status") this.#keepStatus(this.#string(block));
        else if (this.#readRetryAfter && name === "retry-after") {
          this.#retryAfter = this.#string(block);
        } else if (this.#readGrpc && (name === "grpc-status" || name === "grpc-message")) {
          this.#keepGrpc(name, this.#string(block));
        } else this.#skipString(block);
        fieldSeen = true;
      }
    }
  }

  /** Steps over the string literal at `#pos` (§5.2) without decoding it. */
  #skipString(block: Uint8Array): void {
    if (this.#pos >= block.length) throw new HpackError("string missing at the block's end");
    const length = this.#integer(block, 7);
    if (this.#pos + length > block.length) throw new HpackError("string runs past the block");
    this.#pos += length;
  }

  /** The integer at `#pos` with a `prefixBits`-bit prefix (§5.1); `#pos` is inside the block. */
  #integer(block: Uint8Array, prefixBits: number): number {
    const prefixMax = (1 << prefixBits) - 1;
    let value = block[this.#pos++] & prefixMax;
    if (value < prefixMax) return value;
    for (let shift = 0;; shift += 7) {
      if (this.#pos >= block.length) throw new HpackError("integer runs past the block");
      const octet = block[this.#pos++];
      value += (octet & 0x7f) * 2 ** shift;
      if (value > MAX_INTEGER || shift > 28) throw new HpackError("integer overflow");
      if ((octet & 0x80) === 0) return value;
    }
  }

  /** The string literal at `#pos` (§5.2), raw or Huffman-coded. */
  #string(block: Uint8Array): string {
    if (this.#pos >= block.length) throw new HpackError("string missing at the block's end");
    const huffman = (block[this.#pos] & 0x80) !== 0;
    const length = this.#integer(block, 7);
    const start = this.#pos;
    const stop = start + length;
    if (stop > block.length) throw new HpackError("string runs past the block");
    this.#pos = stop;
    return huffman ? huffmanDecode(block, start, stop) : latin1String(block, start, stop);
  }

  /** Slot of `index` (§2.3.3: static first, then dynamic from the newest), or throws. */
  #slot(index: number): number {
    const age = index - STATIC_LENGTH - 1;
    if (index === 0 || age >= this.#length) throw new HpackError(`invalid index ${index}`);
    const slots = this.#names.length;
    return (this.#newest - age + slots) % slots;
  }

  #name(index: number): string {
    return index <= STATIC_LENGTH && index > 0
      ? STATIC_NAMES[index - 1]
      : this.#names[this.#slot(index)];
  }

  #value(index: number): string {
    return index <= STATIC_LENGTH && index > 0
      ? STATIC_VALUES[index - 1]
      : this.#values[this.#slot(index)];
  }

  /** §4.4: evicts to make room, or empties the table when the entry alone is too large. */
  #insert(name: string, value: string): void {
    const entryBytes = name.length + value.length + ENTRY_OVERHEAD_BYTES;
    if (entryBytes > this.#capacityBytes) {
      this.#evictTo(0);
      return;
    }
    this.#evictTo(this.#capacityBytes - entryBytes);
    if (this.#length === this.#names.length) this.#grow();
    const slots = this.#names.length;
    this.#newest = (this.#newest + 1) % slots;
    this.#names[this.#newest] = name;
    this.#values[this.#newest] = value;
    this.#length++;
    this.#sizeBytes += entryBytes;
  }

  /** Doubles the ring (within `#maxSlots`), oldest entry first in slot 0. */
  #grow(): void {
    const slots = this.#names.length;
    const grown = Math.min(this.#maxSlots, 2 * slots);
    const names = new Array<string>(grown).fill("");
    const values = new Array<string>(grown).fill("");
    for (let age = this.#length - 1, at = 0; age >= 0; age--, at++) {
      const slot = (this.#newest - age + slots) % slots;
      names[at] = this.#names[slot];
      values[at] = this.#values[slot];
    }
    this.#names = names;
    this.#values = values;
    this.#newest = this.#length - 1;
  }

  /** §4.3: drops the oldest entries until the table takes at most `limitBytes`. */
  #evictTo(limitBytes: number): void {
    const slots = this.#names.length;
    while (this.#sizeBytes > limitBytes) {
      const oldest = (this.#newest - this.#length + 1 + slots) % slots;
      this.#sizeBytes -= this.#names[oldest].length + this.#values[oldest].length +
        ENTRY_OVERHEAD_BYTES;
      this.#names[oldest] = "";
      this.#values[oldest] = "";
      this.#length--;
    }
  }
}
