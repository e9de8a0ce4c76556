/**
 * An engine run's requests, prepared once before it starts: body files read, every label's
 * request encoded (a templated plan's fixed parts through its renderer), requests that draw
 * values rendered ahead of the schedule, and the checks evaluated at completion.
 *
 * @module
 */
import type { RequestBasics, ResolvedPlan } from "../plan/mod.ts";
import type { ScheduleCursor } from "../schedule/mod.ts";
import { prepareRequest } from "../engine/mod.ts";
import { RenderAhead, RequestRenderer } from "../engine/mod.ts";
import { LabelChecks } from "../engine/mod.ts";
import { MAX_BODY_FILE_BYTES, type MixLabels } from "../plan/mod.ts";
import { keepBodyBytesOf } from "./journey_bodies.ts";
import type { PreparedRequest } from "../engine/mod.ts";
import { readRegularFile } from "../model/mod.ts";

/** What {@linkcode engineRequests} prepares. */
export interface EngineRequests {
  /** Every label's request (a templated label's fixed parts). */
  requests: PreparedRequest[];
  /** A templated plan's renderer. */
  renderer?: RequestRenderer;
  /** Requests that draw values, rendered ahead of the schedule into pooled buffers. */
  source?: RenderAhead;
  /** Per label, its checks (requests and journey steps), when any label has some. */
  checks?: (LabelChecks | undefined)[];
}

/**
 * The framed message (5-octet prefix and protobuf) of a gRPC request's fixed body (kind `grpc`),
 * by its label: what the plan's codec encodes from the body's JSON text.
 */
export type GrpcBody = (request: RequestBasics, labelIndex: number) => Uint8Array;

/**
 * Prepares `mix`'s requests for one engine; `cursor` walks its share of the schedule (asked
 * only when requests are rendered ahead). `grpcBody` frames a gRPC request's message; a `grpc`
 * body without it is a bug (`PrepareRequestError`).
 */
export async function engineRequests(
  plan: ResolvedPlan,
  mix: MixLabels,
  cursor: () => ScheduleCursor,
  grpcBody?: GrpcBody,
): Promise<EngineRequests> {
  const fileBodies = await Promise.all(
    mix.requests.map((r, i) => {
      if (r.body?.kind === "file") return readBodyFile(r.body.path);
      return r.body?.kind === "grpc" ? grpcBody?.(r, i) : undefined;
    }),
  );
  const renderer = mix.requests.some((r) => r.template !== undefined)
    ? new RequestRenderer(plan, fileBodies)
    : undefined;
  const requests = mix.requests.map((r, i) => {
    const prepared = prepareRequest({ ...r, weight: 1 }, i, fileBodies[i]);
    const keep = keepBodyBytesOf(mix.labels[i]);
    if (keep > 0) prepared.keepBodyBytes = keep;
    return renderer ? renderer.fixedRequest(i, prepared) : prepared;
  });
  const source = renderer?.drawsValues
    ? new RenderAhead(renderer, requests, cursor(), plan.data?.length ?? 0)
    : undefined;
  // Labels with checks: evaluated on the engine thread at completion, counted per check.
  const checks = mix.requests.map((r) =>
    r.checks?.length ? new LabelChecks(r.checks, r.expect) : undefined
  );
  return {
    requests,
    ...(renderer ? { renderer } : {}),
    ...(source ? { source } : {}),
    ...(checks.some((c) => c !== undefined) ? { checks } : {}),
  };
}

/**
 * A body file's bytes, read as the plan was checked: a regular file of at most
 * {@linkcode MAX_BODY_FILE_BYTES}, and never more than that read (it may have grown, or been
 * swapped for a device, since the plan was read).
 */
async function readBodyFile(path: string): Promise<Uint8Array> {
  const read = await readRegularFile(path, MAX_BODY_FILE_BYTES);
  if (!read.ok) throw new Error(`body file ${read.problems[0].message}`);
  return read.value;
}
