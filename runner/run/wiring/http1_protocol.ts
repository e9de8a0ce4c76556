/**
 * HTTP/1.1 over a run's transport: each dispatcher connection is one of the transport's HTTP/1.1
 * connections, carrying one request at a time.
 *
 * @module
 */
import type { Protocol } from "./protocol.ts";

/** The dispatcher's connections are the transport's own; nothing connects until it asks. */
export const http1Protocol: Protocol = ({ transport, origin, clock }) =>
  Promise.resolve({
    streams: 1,
    connect: () => transport.http1(origin, clock),
    peakConnections: () => undefined,
    record: () => ({}),
  });
