/**
 * The length-prefixed messages of a gRPC response, read from its DATA as it arrives: each message
 * is a compressed flag (1 octet), its length (4 octets, big-endian) and that many octets of
 * protobuf, cut across DATA frames anywhere. The reader counts the messages, says when the first
 * one completed (a unary call's reply; a server stream's first message), keeps that first
 * message's bytes when the request keeps its response, and tells broken framing apart.
 *
 * @module
 */
import type { KeptResponse } from "../kept_response.ts";

/** The largest message taken: grpc's default receive limit, 4 MiB. */
export const GRPC_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Octets of a message's prefix: the compressed flag and the length. */
const PREFIX_BYTES = 5;

/**
 * Reads one response's messages at a time ({@linkcode GrpcMessageReader.reset} between them);
 * nothing is allocated per message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GrpcMessageReader } from "./grpc_message_reader.ts";
 * const reader = new GrpcMessageReader();
 * // One message of 2 octets, cut after its third octet, then a second one of 0 octets.
 * const data = Uint8Array.of(0, 0, 0, 0, 2, 0x08, 0x01, 0, 0, 0, 0, 0);
 * assert.equal(reader.feed(data, 0, 3), false);
 * assert.equal(reader.feed(data, 3, data.length), true); // the first message completed here
 * assert.equal(reader.end(), true);
 * assert.equal(reader.messages, 2);
 * ```
 */
export class GrpcMessageReader {
  /** Messages read whole so far. */
  messages = 0;
  /** What broke the framing ("" while nothing did); nothing more is read then. */
  broken = "";
  readonly #limitBytes: number;
  /** Prefix octets of the message being read (0..5). */
  #prefixBytes = 0;
  #lengthBytes = 0;
  /** Octets of the message being read still to come, once its prefix is whole. */
  #remainingBytes = 0;
  #kept: KeptResponse | undefined;

  /** A reader refusing a message longer than `limitBytes`. */
  constructor(limitBytes = GRPC_MAX_MESSAGE_BYTES) {
    this.#limitBytes = limitBytes;
  }

  /** Starts a response; its first message's bytes go into `kept` when given. */
  reset(kept: KeptResponse | undefined): void {
    this.messages = 0;
    this.broken = "";
    this.#prefixBytes = 0;
    this.#lengthBytes = 0;
    this.#remainingBytes = 0;
    this.#kept = kept;
  }

  /**
   * Reads `data[from, to)` (a DATA frame's payload, valid during the call only); true when the
   * response's first message completed in it.
   */
  feed(data: Uint8Array, from: number, to: number): boolean {
    let firstDone = false;
    let at = from;
    while (at < to && this.broken === "") {
      if (this.#prefixBytes < PREFIX_BYTES) {
        const octet = data[at++];
        if (this.#prefixBytes++ === 0) {
          this.#lengthBytes = 0;
          if (octet !== 0) {
            // No grpc-accept-encoding is sent, so a server may not compress (and flags are 0/1).
            this.broken = octet === 1
              ? "a compressed message, though this client accepts no grpc-encoding"
              : `a message flag of ${octet}`;
          }
          continue;
        }
        this.#lengthBytes = this.#lengthBytes * 256 + octet;
        if (this.#prefixBytes < PREFIX_BYTES) continue;
        if (this.#lengthBytes > this.#limitBytes) {
          this.broken = `a message of ${this.#lengthBytes} octets, over the limit of ` +
            `${this.#limitBytes}`;
          continue;
        }
        this.#remainingBytes = this.#lengthBytes;
        if (this.#remainingBytes === 0 && this.#done()) firstDone = true;
        continue;
      }
      const n = Math.min(this.#remainingBytes, to - at);
      if (this.messages === 0 && this.#kept !== undefined) this.#kept.add(data, at, at + n);
      at += n;
      this.#remainingBytes -= n;
      if (this.#remainingBytes === 0 && this.#done()) firstDone = true;
    }
    return firstDone;
  }

  /** The response ended: false, with `broken` set, when its framing broke or a message was cut. */
  end(): boolean {
    if (this.broken === "" && this.#prefixBytes > 0) {
      this.broken = this.#prefixBytes < PREFIX_BYTES
        ? `a message prefix cut after ${this.#prefixBytes} of 5 octets`
        : `a message cut ${this.#remainingBytes} octets short of its ${this.#lengthBytes}`;
    }
    return this.broken === "";
  }

  /** A message is whole; true when it was the first. */
  #done(): boolean {
    this.#prefixBytes = 0;
    return ++this.messages === 1;
  }
}
