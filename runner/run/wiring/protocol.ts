/**
 * A run's protocol, chosen once by the plan's `load.http`: what the dispatcher's "connections"
 * are over the run's transport (transport.ts). HTTP/1.1: one connection carries one request at
 * a time; HTTP/2: each is a stream slot, and `streams` of them share one connection. Which one a
 * run takes: protocol_choice.ts.
 *
 * @module
 */
import type { Clock, Connection, PreparedRequest } from "../../engine/mod.ts";
import type { BodySampler } from "../../engine/mod.ts";
import type { ResolvedPlan } from "../../plan/mod.ts";
import type { Transport } from "./transport.ts";

/** What a protocol is wired from. */
export interface ProtocolOptions {
  transport: Transport;
  origin: URL;
  clock: Clock;
  plan: ResolvedPlan;
  /** This engine's share of the plan's connections. */
  connections: number;
  requests: readonly PreparedRequest[];
  caCerts?: string[];
  /** Keeps the first body of each unexpected status, per label and code (the transport's too). */
  bodySampler: BodySampler;
  /** How long the first connection may take to open (HTTP/2 waits for the server's SETTINGS). */
  connectTimeoutMs: number;
  onNotice?: (text: string) => void;
}

/** A protocol wired over its transport, for the dispatcher and the engine's record. */
export interface WiredProtocol {
  /** Dispatcher connections per connection (HTTP/2: stream slots sharing one). */
  readonly streams: number;
  /** A new dispatcher connection to the run's origin. */
  connect(): Connection;
  /** Connections made at most, when the protocol counts them (HTTP/2's pool); else undefined. */
  peakConnections(): number | undefined;
  /** The protocol's part of the engine record (HTTP/2: `http2`). */
  record(): {
    http2?: { streamsPerConnection: number; serverMaxStreams?: number; windowBytes: number };
  };
}

/** Wires a protocol over a transport; HTTP/2 connects its first connection meanwhile. */
export type Protocol = (o: ProtocolOptions) => Promise<WiredProtocol>;
