/**
 * Which labels keep their response's body: a journey step that captures from its response or
 * checks more than its status reads it; every other response's body is counted and dropped.
 *
 * @module
 */
import type { MixLabel } from "../plan/mod.ts";
import { KEEP_BODY_BYTES } from "../engine/mod.ts";

/**
 * The bytes of body `label`'s responses keep: `KEEP_BODY_BYTES` (engine/kept_response.ts) for a step with a
 * capture or a check beyond `status`, else 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keepBodyBytesOf } from "./journey_bodies.ts";
 * const step = (captures: unknown[]) => ({ kind: "step", journey: 0, step: 0, request: { captures } }) as never;
 * assert.equal(keepBodyBytesOf(step([{ name: "id", from: { kind: "json", pointer: "/id" } }])), 1024 * 1024);
 * assert.equal(keepBodyBytesOf(step([])), 0);
 * ```
 */
export function keepBodyBytesOf(label: MixLabel): number {
  if (label.kind !== "step") return 0;
  const { captures, checks } = label.request;
  const reads = captures.length > 0 || (checks ?? []).some((c) => c.kind !== "status");
  return reads ? KEEP_BODY_BYTES : 0;
}
