/**
 * A run's HTTP/2 connections and their stream slots. The dispatcher knows connections that carry
 * one request at a time; here each is a stream slot, and `streams` slots share one HTTP/2
 * connection. The run's first `connections × streams` slots are spread over its connections in
 * turn (slot k on connection k mod connections), so light traffic uses every connection; slots
 * the dispatcher adds later (up to `max_connections × streams`) fill new connections in blocks.
 *
 * Streams per connection: the plan's `max_streams`, else the server's
 * SETTINGS_MAX_CONCURRENT_STREAMS capped at {@linkcode MAX_STREAMS_DEFAULT}; never more than
 * the server allows, since the extra streams would wait inside the HTTP/2 library, unseen.
 *
 * @module
 */
import { DEFAULT_WINDOW_MIB } from "../../model/mod.ts";
import type { Clock, Connection, PreparedRequest, Waker } from "../types.ts";
import { H2DenoTransport } from "./h2_deno_transport.ts";
import type { H2Transport } from "./h2_transport.ts";
import { H2Connection } from "./h2_connection.ts";
import { type H2Request, H2RequestEncoder } from "./h2_request.ts";
import { H2StreamSlot } from "./h2_stream_slot.ts";
import type { H2SlotOptions } from "./h2_slot_base.ts";
import type { BodySampler } from "../body_sample.ts";

/** Streams per connection when neither the plan nor the server says (and the most SETTINGS give). */
export const MAX_STREAMS_DEFAULT = 100;

/** The flow-control window offered per stream and per connection unless the plan says: 16 MiB. */
export const H2_WINDOW_BYTES = DEFAULT_WINDOW_MIB * 1024 * 1024;

/** What an {@linkcode H2Pool} needs. */
export interface H2PoolOptions {
  /** The target's scheme, host and port. */
  origin: URL;
  /** The engine's clock (stream times). */
  clock: Clock;
  /** Connections the run opens first (the dispatcher's `connections`). */
  connections: number;
  /** The plan's `max_streams`, if it set one. */
  maxStreams?: number;
  /** PEM certificates trusted besides the system's (https). */
  caCerts?: readonly string[];
  /** The plan's fixed requests, converted once. */
  requests: readonly PreparedRequest[];
  /** The flow-control window offered (bytes; default {@linkcode H2_WINDOW_BYTES}). */
  windowBytes?: number;
  /** A new socket for each session (default Deno's, to `origin`). */
  transport?: () => H2Transport;
  /** Keeps the first body of each unexpected status, per label and code. */
  bodySampler?: BodySampler;
  /**
   * Makes each stream slot (default HTTP's `H2StreamSlot`; gRPC's reads messages and trailers):
   * the one thing a protocol over HTTP/2 changes.
   */
  slot?: (options: H2SlotOptions) => Connection;
}

/**
 * Streams per connection: the plan's (`planMax`) or {@linkcode MAX_STREAMS_DEFAULT}, never more
 * than the server's SETTINGS allow (`serverMax`, undefined when it set no limit).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { streamsPerConnection } from "./h2_pool.ts";
 * assert.equal(streamsPerConnection(undefined, 128), 100);
 * assert.equal(streamsPerConnection(8, 128), 8);
 * assert.equal(streamsPerConnection(200, 1), 1);
 * ```
 */
export function streamsPerConnection(
  planMax: number | undefined,
  serverMax: number | undefined,
): number {
  const wanted = planMax ?? MAX_STREAMS_DEFAULT;
  return Math.max(1, Math.min(wanted, serverMax ?? wanted));
}

/** The connections of one run and the slots on them. */
export class H2Pool {
  readonly #o: H2PoolOptions;
  readonly #connections: H2Connection[] = [];
  readonly #converted = new Map<PreparedRequest, H2Request>();
  readonly #encoder: H2RequestEncoder;
  #slots = 0;
  #serverMax: number | undefined;
  #settled: (() => void) | undefined;
  /** The first connection opened and the server's SETTINGS had not come `settle`'s ms later. */
  #silentMs: number | undefined;
  /** Streams per connection, known after {@linkcode settle}. */
  streams = 1;

  readonly #transport: () => H2Transport;

  /** Converts the fixed requests; connects nothing yet. */
  constructor(options: H2PoolOptions) {
    this.#o = options;
    this.#transport = options.transport ??
      (() => new H2DenoTransport(options.origin, options.clock, options.caCerts));
    this.#encoder = new H2RequestEncoder(options.origin.protocol.slice(0, -1));
    for (const r of options.requests) this.#converted.set(r, this.#encoder.encode(r.bytes));
  }

  /** The flow-control window each stream and connection is offered (octets). */
  get windowBytes(): number {
    return this.#o.windowBytes ?? H2_WINDOW_BYTES;
  }

  /** HTTP/2 connections made so far (each reconnects on its own). */
  get connectionsMade(): number {
    return this.#connections.length;
  }

  /** The server's SETTINGS_MAX_CONCURRENT_STREAMS as first seen (undefined: none or not yet). */
  get serverMaxStreams(): number | undefined {
    return this.#serverMax;
  }

  /**
   * Opens the first connection and waits, at most `timeoutMs`, for the server's SETTINGS, then
   * fixes the streams per connection. A server that does not answer in time leaves the plan's
   * number (or the default), and {@linkcode settingsNotice} says so; its connection failing is
   * left to the run to report.
   */
  async settle(timeoutMs: number, waker?: Waker): Promise<number> {
    const first = this.#connection(0);
    let settled = false;
    let connected = false;
    let sawSettings = false;
    let done = () => {};
    const settings = new Promise<void>((resolve) => done = resolve);
    const settle = () => {
      settled = true;
      done();
    };
    this.#settled = () => {
      sawSettings = true;
      settle();
    };
    const timer = setTimeout(settle, timeoutMs);
    void first.open().then((kind) => {
      connected = kind === undefined;
      if (kind !== undefined) settle();
    });
    if (waker?.blocking) {
      // A blocking waker's loop sees the connect and the SETTINGS only while it polls: drive it,
      // a few ms at a time, letting the thread's timers in between (the dispatcher does the same).
      while (!settled) {
        await waker.sleepUntil(this.#o.clock.nowMs() + 5);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
    await settings;
    clearTimeout(timer);
    this.#settled = undefined;
    this.streams = streamsPerConnection(this.#o.maxStreams, this.#serverMax);
    if (connected && !sawSettings) this.#silentMs = timeoutMs;
    return this.streams;
  }

  /**
   * After {@linkcode settle}: a notice when the server sent no SETTINGS in time (RFC 9113 §3.4
   * makes them its first frame), or when the plan's `max_streams` is more than the server allows
   * (each connection then carries what the server allows); else undefined.
   */
  settingsNotice(): string | undefined {
    if (this.#silentMs !== undefined) {
      return `${this.#o.origin.origin} sent no SETTINGS within ${this.#silentMs} ms of the ` +
        "HTTP/2 connection preface (RFC 9113 §3.4 makes them a server's first frame): the load " +
        `started after that wait, with ${this.streams} streams per connection; a server that ` +
        "never sends them is not speaking HTTP/2 (is this port HTTP/1.1?)";
    }
    const planMax = this.#o.maxStreams;
    const serverMax = this.#serverMax;
    if (planMax === undefined || serverMax === undefined || serverMax >= planMax) return undefined;
    return `load.max_streams is ${planMax}, but ${this.#o.origin.origin} allows ${serverMax} ` +
      `concurrent streams per connection (its SETTINGS): each connection carries ${serverMax}; ` +
      "raise load.connections for more in flight";
  }

  /** The next slot, for the dispatcher's `connect`. */
  slot(): Connection {
    const k = this.#slots++;
    const { connections } = this.#o;
    const initial = connections * this.streams;
    const index = k < initial
      ? k % connections
      : connections + Math.floor((k - initial) / this.streams);
    const countsSockets = k < initial ? k < connections : (k - initial) % this.streams === 0;
    const options: H2SlotOptions = {
      connection: this.#connection(index),
      clock: this.#o.clock,
      encoder: this.#encoder,
      converted: this.#converted,
      countsSockets,
      ...(this.#o.bodySampler ? { bodySampler: this.#o.bodySampler } : {}),
    };
    return this.#o.slot ? this.#o.slot(options) : new H2StreamSlot(options);
  }

  #connection(index: number): H2Connection {
    while (this.#connections.length <= index) {
      this.#connections.push(
        new H2Connection({
          origin: this.#o.origin,
          clock: this.#o.clock,
          transport: this.#transport,
          windowBytes: this.windowBytes,
          onSettings: (max) => {
            if (this.#serverMax === undefined && max !== undefined) {
              this.#serverMax = max;
            }
            this.#settled?.();
          },
        }),
      );
    }
    return this.#connections[index];
  }
}
