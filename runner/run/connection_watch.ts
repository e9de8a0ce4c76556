/**
 * What an engine run's connections tell it: the process out of file descriptors and a target
 * that speaks only HTTP/2 (each said once, as it happens, while requests fail as `other` and
 * `protocol`), the first body of each unexpected status; and the notice for initial connections
 * that did not open.
 *
 * @module
 */
import { HTTP2_REPLY_NOTE, OUT_OF_DESCRIPTORS_NOTE } from "../engine/mod.ts";
import { BodySampler } from "../engine/mod.ts";
import type { ErrorKind } from "../model/mod.ts";
import type { ConnectionHooks } from "./wiring/mod.ts";

/** The hooks every connection of a run shares; the flags go into the engine record. */
export class ConnectionWatch implements ConnectionHooks {
  readonly #onNotice: ((text: string) => void) | undefined;
  /** The first body of each unexpected status: every connection of the engine shares one. */
  readonly bodySampler: BodySampler = new BodySampler();
  /** Connects failed because the process ran out of file descriptors. */
  outOfDescriptors = false;
  /** The target answered requests with HTTP/2 frames. */
  http2Reply = false;

  constructor(onNotice: ((text: string) => void) | undefined) {
    this.#onNotice = onNotice;
  }

  /** Running out of descriptors fails requests as `other`: name the cause, once. */
  readonly onOutOfDescriptors = (): void => {
    if (this.outOfDescriptors) return;
    this.outOfDescriptors = true;
    this.#onNotice?.(OUT_OF_DESCRIPTORS_NOTE);
  };

  /** So does a target that speaks only HTTP/2: its frames fail requests as `protocol`. */
  readonly onHttp2Reply = (): void => {
    if (this.http2Reply) return;
    this.http2Reply = true;
    this.#onNotice?.(HTTP2_REPLY_NOTE);
  };

  /**
   * Says {@linkcode unopenedNotice} for the `unopened` of `connections` initial connections, the
   * dispatcher's `failures` counted per connection, not per stream slot (HTTP/2: `streams` slots
   * share one).
   */
  unopened(
    unopened: number,
    connections: number,
    origin: string,
    failures: ReadonlyMap<ErrorKind, number>,
    streams: number,
    timeoutMs: number,
  ): void {
    const perConnection = new Map([...failures].map(([kind, n]) => [kind, Math.ceil(n / streams)]));
    this.#onNotice?.(unopenedNotice(unopened, connections, origin, perConnection, timeoutMs));
  }
}

/**
 * The notice for initial connections that did not open: those that failed, by kind (a `tls`
 * failure most often an untrusted certificate), apart from those still pending at the timeout.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unopenedNotice } from "./connection_watch.ts";
 * assert.equal(
 *   unopenedNotice(2, 4, "http://127.0.0.1:8080", new Map([["refused", 1]]), 5000),
 *   "1 of 4 connections to http://127.0.0.1:8080 failed to open (refused: 1); 1 of 4 " +
 *     "connections to http://127.0.0.1:8080 did not open within 5 s; starting anyway (each " +
 *     "connects on first use, within its request's timeout)",
 * );
 * ```
 */
export function unopenedNotice(
  unopened: number,
  connections: number,
  origin: string,
  failures: ReadonlyMap<ErrorKind, number>,
  timeoutMs: number,
): string {
  const failed = [...failures.values()].reduce((a, b) => a + b, 0);
  const parts: string[] = [];
  if (failed > 0) {
    const kinds = [...failures].map(([kind, n]) => `${kind}: ${n}`).join(", ");
    parts.push(
      `${failed} of ${connections} connections to ${origin} failed to open (${kinds})` +
        (failures.has("tls") ? ": an untrusted certificate? pass --ca-cert FILE" : ""),
    );
  }
  if (unopened > failed) {
    parts.push(
      `${unopened - failed} of ${connections} connections to ${origin} did not open within ` +
        `${timeoutMs / 1000} s`,
    );
  }
  return `${parts.join("; ")}; starting anyway (each connects on first use, within its ` +
    "request's timeout)";
}
