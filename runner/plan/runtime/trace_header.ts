/**
 * The trace context headers `trace` sends itself: named once, for the plan's checks and the
 * engine's writer (runner/plan/runtime/mod.ts).
 *
 * @module
 */

/**
 * Whether `name` is a trace context header, which `trace` sends itself (replacing a plan's own).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isTraceHeader } from "./trace_header.ts";
 * assert.ok(isTraceHeader("TraceParent") && isTraceHeader("tracestate"));
 * assert.ok(!isTraceHeader("x-trace-id"));
 * ```
 */
export function isTraceHeader(name: string): boolean {
  return /^trace(parent|state)$/i.test(name);
}
