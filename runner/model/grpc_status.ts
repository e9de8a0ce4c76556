/**
 * gRPC status codes by name, and how a call's status travels with HTTP's: the engine records a
 * gRPC call's `grpc-status` n as the status `GRPC_STATUS_BASE + n`, beside HTTP's 100..599, so
 * one numeric field carries either; counts and reports key it by {@linkcode statusKey}, which
 * names a gRPC status (`UNAVAILABLE`) and leaves an HTTP status its number (`503`).
 *
 * @module
 */

/** Where gRPC statuses start in a numeric status: `GRPC_STATUS_BASE + code`. */
export const GRPC_STATUS_BASE = 1000;

/** The gRPC status codes' names, by code (grpc/doc/statuscodes.md). */
export const GRPC_STATUS_NAMES: readonly string[] = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
];

/** The highest numeric status a gRPC code can have (codes go up to 2^31 - 1 on the wire). */
const GRPC_STATUS_MAX = GRPC_STATUS_BASE + 0x7fffffff;

/**
 * Whether a numeric status is a gRPC call's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isGrpcStatus } from "./grpc_status.ts";
 * assert.equal(isGrpcStatus(1014), true);
 * assert.equal(isGrpcStatus(503), false);
 * ```
 */
export function isGrpcStatus(status: number): boolean {
  return Number.isInteger(status) && status >= GRPC_STATUS_BASE && status <= GRPC_STATUS_MAX;
}

/**
 * How a numeric status is counted and printed: a gRPC status by its name (`UNAVAILABLE`; a code
 * past the known ones as `GRPC_17`), an HTTP status as its number (`"503"`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statusKey } from "./grpc_status.ts";
 * assert.equal(statusKey(1000), "OK");
 * assert.equal(statusKey(1014), "UNAVAILABLE");
 * assert.equal(statusKey(1017), "GRPC_17");
 * assert.equal(statusKey(503), "503");
 * ```
 */
export function statusKey(status: number): string {
  if (!isGrpcStatus(status)) return String(status);
  const code = status - GRPC_STATUS_BASE;
  return GRPC_STATUS_NAMES[code] ?? `GRPC_${code}`;
}

/**
 * The numeric status a count's key stands for: the inverse of {@linkcode statusKey}; NaN for a
 * key that is neither a number nor a gRPC status's name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statusOfKey } from "./grpc_status.ts";
 * assert.equal(statusOfKey("UNAVAILABLE"), 1014);
 * assert.equal(statusOfKey("GRPC_17"), 1017);
 * assert.equal(statusOfKey("503"), 503);
 * assert.ok(Number.isNaN(statusOfKey("SOON")));
 * ```
 */
export function statusOfKey(key: string): number {
  if (/^\d+$/.test(key)) return Number(key);
  const named = GRPC_STATUS_NAMES.indexOf(key);
  if (named >= 0) return GRPC_STATUS_BASE + named;
  const past = /^GRPC_(\d{1,10})$/.exec(key);
  if (past) {
    const status = GRPC_STATUS_BASE + Number(past[1]);
    if (isGrpcStatus(status)) return status;
  }
  return NaN;
}
