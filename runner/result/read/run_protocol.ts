/**
 * The HTTP a run spoke, as every reader needs it: a result written before `run.protocol` existed
 * spoke HTTP/1.1; the protocol in words, with the streams per connection of an HTTP/2 run; and what
 * a request that found no free capacity waited for (a connection over HTTP/1.1, a stream over
 * HTTP/2), the name the tool-health figures give the recorder's queue wait.
 *
 * @module
 */
import { type RunProtocol, type RunResult, SERVER_STREAMS_CAP } from "../../model/mod.ts";

/** The part of a result this module reads. */
export type ProtocolOf = { run: Pick<RunResult["run"], "protocol" | "maxStreams" | "grpc"> };

/**
 * The run's protocol; `http/1.1` for a result without one (written before HTTP/2).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runProtocol } from "./run_protocol.ts";
 * assert.equal(runProtocol({ run: {} }), "http/1.1");
 * assert.equal(runProtocol({ run: { protocol: "h2c" } }), "h2c");
 * ```
 */
export function runProtocol(result: ProtocolOf): RunProtocol {
  return result.run.protocol ?? "http/1.1";
}

/**
 * Whether the run spoke HTTP/2 (h2 or h2c).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isHttp2 } from "./run_protocol.ts";
 * assert.equal(isHttp2({ run: { protocol: "h2" } }), true);
 * ```
 */
export function isHttp2(result: ProtocolOf): boolean {
  return runProtocol(result) !== "http/1.1";
}

/**
 * The protocol in words, with the streams per connection of an HTTP/2 run; a run of gRPC calls
 * says so first (`gRPC over h2c`, `gRPC over TLS`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protocolText } from "./run_protocol.ts";
 * assert.equal(protocolText({ run: {} }), "HTTP/1.1");
 * assert.equal(
 *   protocolText({ run: { protocol: "h2c", maxStreams: 8 } }),
 *   "HTTP/2 cleartext (h2c), up to 8 streams per connection",
 * );
 * assert.equal(
 *   protocolText({ run: { protocol: "h2c", grpc: true, maxStreams: 8 } }),
 *   "gRPC over h2c, HTTP/2 cleartext (h2c), up to 8 streams per connection",
 * );
 * ```
 */
export function protocolText(result: ProtocolOf): string {
  const protocol = runProtocol(result);
  if (protocol === "http/1.1") return "HTTP/1.1";
  const name = protocol === "h2" ? "HTTP/2 over TLS (h2)" : "HTTP/2 cleartext (h2c)";
  const grpc = result.run.grpc ? `gRPC over ${protocol === "h2" ? "TLS" : "h2c"}, ` : "";
  return `${grpc}${name}, ${streamsText(result.run.maxStreams)}`;
}

/**
 * The streams per connection in words: the plan's, or the server's up to the cap.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { streamsText } from "./run_protocol.ts";
 * assert.equal(streamsText(1), "up to 1 stream per connection");
 * ```
 */
export function streamsText(maxStreams: number | undefined): string {
  if (maxStreams === undefined) {
    return `streams per connection as the server's SETTINGS allow, at most ${SERVER_STREAMS_CAP}`;
  }
  return `up to ${maxStreams} stream${maxStreams === 1 ? "" : "s"} per connection`;
}

/**
 * What a request that found no free capacity waited for: `a free stream` over HTTP/2, `a
 * connection` over HTTP/1.1 (the recorder's queue wait, `health.queueWait`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { waitedFor } from "./run_protocol.ts";
 * assert.equal(waitedFor({ run: { protocol: "h2" } }), "a free stream");
 * ```
 */
export function waitedFor(result: ProtocolOf): string {
  return isHttp2(result) ? "a free stream" : "a connection";
}
