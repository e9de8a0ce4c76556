/**
 * The result's `unexpectedBodies`: the first body of each status a request label did not expect,
 * as the engine kept it (runner/engine/body_sample.ts), stored with its label's name, as text, every
 * secret blotted out (runner/session's `maskedBody`: the plan's `${env.X}` values and what setup
 * captured); merged over shards, first on the merged clock; and checked when a result is read.
 * Added in format 3 without a bump: a result without them predates them, or every status was
 * expected.
 *
 * @module
 */
import type { ResolvedPlan } from "../plan/mod.ts";
import type { UnexpectedBody } from "../model/mod.ts";
import { GRPC_STATUS_BASE, isGrpcStatus } from "../model/mod.ts";
import { statusExpected } from "../plan/mod.ts";
import { BODY_SAMPLE_BYTES, MAX_BODY_SAMPLES, type RawBodySample } from "../engine/mod.ts";
import { maskedBody, secretForms } from "../session/mod.ts";

/**
 * The longest `body` a run stores, in UTF-16 code units: {@linkcode BODY_SAMPLE_BYTES} bytes decode
 * to as many at most, and each secret blotted out (`***`) may at most triple its length.
 */
export const MAX_BODY_CHARS = 4 * BODY_SAMPLE_BYTES;

/**
 * The engine's samples as the result stores them, in the plan's label order then by code, each
 * body masked with every form of `secrets`; undefined when there is none.
 */
export function unexpectedBodies(
  plan: Pick<ResolvedPlan, "requests">,
  samples: readonly RawBodySample[] | undefined,
  secrets: readonly string[],
): UnexpectedBody[] | undefined {
  if (!samples?.length) return undefined;
  const forms = secretForms(secrets);
  // A journey step's label (after the single requests') keeps none yet: its label is not a
  // request of the stored plan.
  return samples.filter((s) => s.labelIndex < plan.requests.length)
    .sort((a, b) => a.labelIndex - b.labelIndex || a.status - b.status)
    .map((s) => {
      const cut = s.bodyBytes > s.bytes.length;
      return {
        label: plan.requests[s.labelIndex].label,
        status: s.status,
        atMs: Math.round(s.atMs * 1000) / 1000,
        body: maskedBody(s.bytes, forms, cut),
        bodyBytes: s.bodyBytes,
        ...(cut ? { cut: true as const } : {}),
      };
    });
}

/**
 * The shards' bodies merged (`tailgate merge`): per label and code the first on the merged run's
 * clock (each shard's `offsetMs` after its start), a tie going to the earlier shard; in the plan's
 * label order (`labels`) then by code, at most {@linkcode MAX_BODY_SAMPLES}, the first in time.
 */
export function mergedUnexpectedBodies(
  labels: readonly string[],
  parts: ReadonlyArray<{ bodies: readonly UnexpectedBody[] | undefined; offsetMs: number }>,
): UnexpectedBody[] | undefined {
  const all = parts.flatMap((p, i) =>
    (p.bodies ?? []).map((b) => ({ b: { ...b, atMs: b.atMs + p.offsetMs }, i }))
  );
  all.sort((x, y) => x.b.atMs - y.b.atMs || x.i - y.i);
  const first = new Map<string, UnexpectedBody>();
  for (const { b } of all) {
    const key = `${b.status} ${b.label}`;
    if (!first.has(key) && first.size < MAX_BODY_SAMPLES) first.set(key, b);
  }
  if (first.size === 0) return undefined;
  return [...first.values()].sort((x, y) =>
    labels.indexOf(x.label) - labels.indexOf(y.label) || x.status - y.status
  );
}

/**
 * What is wrong with a stored `unexpectedBodies` (absent is fine), as a sentence starting with its
 * JSON path: each a label of the plan with a status it does not expect (HTTP's 100 to 999, or,
 * on a gRPC call's label, a gRPC status as it travels, 1000 + code: runner/model/grpc_status.ts),
 * once, a time from 0, a body of text no longer than a run stores, its length a count, `cut` true
 * or absent; at most {@linkcode MAX_BODY_SAMPLES}.
 */
export function unexpectedBodiesProblem(value: unknown, plan: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return "unexpectedBodies is not a list";
  if (value.length > MAX_BODY_SAMPLES) {
    return `unexpectedBodies has ${value.length} entries: a run keeps at most ${MAX_BODY_SAMPLES}`;
  }
  const requests = isObject(plan) && Array.isArray(plan.requests) ? plan.requests : [];
  const seen = new Set<string>();
  for (const [i, b] of value.entries()) {
    const path = `unexpectedBodies[${i}]`;
    const problem = bodyProblem(b, path, requests);
    if (problem !== undefined) return problem;
    const { label, status } = b as UnexpectedBody;
    const key = `${status} ${label}`;
    if (seen.has(key)) {
      return `${path} repeats label ${JSON.stringify(label)} and status ${status}`;
    }
    seen.add(key);
  }
  return undefined;
}

function bodyProblem(b: unknown, path: string, requests: unknown[]): string | undefined {
  if (!isObject(b)) return `${path} is not an object`;
  const request = requests.find((r) => isObject(r) && r.label === b.label);
  if (!isObject(request)) {
    return `${path}.label is ${shown(b.label)}: not a label of the plan`;
  }
  const status = b.status;
  const http = Number.isSafeInteger(status) && (status as number) >= 100 &&
    (status as number) <= 999;
  // A gRPC call's label may get an HTTP status too (a proxy's 503 without grpc-status).
  const grpc = request.grpc !== undefined;
  if (!http && !(grpc && typeof status === "number" && isGrpcStatus(status))) {
    return `${path}.status is ${shown(status)}: a status is a whole number from 100 to 999` +
      (grpc ? `, or a gRPC status from ${GRPC_STATUS_BASE}` : "");
  }
  const expect = request.expect as Parameters<typeof statusExpected>[0] | undefined;
  if (isObject(expect) && Array.isArray(expect.codes) && Array.isArray(expect.classes)) {
    if (statusExpected(expect, status as number)) {
      return `${path}.status is ${status}: the label expects it`;
    }
  }
  const atMs = b.atMs;
  if (typeof atMs !== "number" || !Number.isFinite(atMs) || atMs < 0) {
    return `${path}.atMs is ${shown(atMs)}: it must be a finite number from 0`;
  }
  if (typeof b.body !== "string") return `${path}.body is not a string`;
  if (b.body.length > MAX_BODY_CHARS) {
    return `${path}.body is ${b.body.length} characters long: at most ${MAX_BODY_CHARS}`;
  }
  if (!Number.isSafeInteger(b.bodyBytes) || (b.bodyBytes as number) < 0) {
    return `${path}.bodyBytes is ${shown(b.bodyBytes)}: a count is a whole number from 0 to 2^53`;
  }
  if (b.cut !== undefined && b.cut !== true) {
    return `${path}.cut is ${shown(b.cut)}: it is true or absent`;
  }
  return undefined;
}

function shown(value: unknown): string {
  return value === undefined ? "missing" : JSON.stringify(value);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
