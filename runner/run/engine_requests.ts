/**
 * An engine run's requests, prepared once before it starts: body files read, every label's
 * request encoded (a templated plan's fixed parts through its renderer), requests that draw
 * values rendered ahead of the schedule, and the checks evaluated at completion.
 *
 * @module
 */
import type { GrpcCodec, ResolvedPlan } from "../plan/mod.ts";
import type { ScheduleCursor } from "../schedule/mod.ts";
import { prepareRequest } from "../engine/mod.ts";
import { RenderAhead, RequestRenderer } from "../engine/mod.ts";
import { LabelChecks, type MessageDecoder } from "../engine/mod.ts";
import type { MixLabels } from "../plan/mod.ts";
import { MAX_BODY_FILE_BYTES } from "../plan/runtime/mod.ts";
import { keepBodyBytesOf } from "./journey_bodies.ts";
import type { PreparedRequest } from "../engine/mod.ts";
import { readRegularFile } from "../model/mod.ts";

/** A gRPC message of no fields, framed: uncompressed, length 0. */
const EMPTY_GRPC_MESSAGE = new Uint8Array(5);

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
  /** Per label, a gRPC call's response decoder (checks and captures read its JSON form). */
  decoders?: (MessageDecoder | undefined)[];
}

/**
 * Prepares `mix`'s requests for one engine; `cursor` walks its share of the schedule (asked
 * only when requests are rendered ahead). A gRPC plan's messages are encoded by `codec` (its
 * `plan.grpc` schema's): a fixed one once here, a rendered one by the renderer, once per distinct
 * text; a `grpc` body without a codec is a bug (`PrepareRequestError`).
 */
export async function engineRequests(
  plan: ResolvedPlan,
  mix: MixLabels,
  cursor: () => ScheduleCursor,
  codec?: GrpcCodec,
): Promise<EngineRequests> {
  const fileBodies = await Promise.all(
    mix.requests.map((r) => {
      if (r.body?.kind === "file") return readBodyFile(r.body.path);
      // A fixed message is framed once; a rendered one (a template's body) at each render.
      if (r.body?.kind !== "grpc" || r.template?.body !== undefined) return undefined;
      return codec?.frame(r.grpc!.requestType, r.body.text);
    }),
  );
  const encodeBody = codec
    ? (label: number, json: Uint8Array, length: number) =>
      codec.encodeBody(mix.requests[label].grpc!.requestType, json, length)
    : undefined;
  const renderer = mix.requests.some((r) => r.template !== undefined)
    ? new RequestRenderer(plan, fileBodies, encodeBody)
    : undefined;
  const requests = mix.requests.map((r, i) => {
    // A rendered gRPC message's bytes come from the renderer at each send: an empty message
    // stands in for them in the request prepared once, which is never sent as it is.
    const body = fileBodies[i] ?? (r.body?.kind === "grpc" ? EMPTY_GRPC_MESSAGE : undefined);
    const prepared = prepareRequest({ ...r, weight: 1 }, i, body, plan.trace);
    const keep = keepBodyBytesOf(mix.labels[i]);
    if (keep > 0) prepared.keepBodyBytes = keep;
    return renderer ? renderer.fixedRequest(i, prepared) : prepared;
  });
  const source = renderer?.drawsValues
    ? new RenderAhead(renderer, requests, cursor(), plan.data?.length ?? 0)
    : undefined;
  const decoders = mix.requests.map((r) =>
    r.grpc && codec ? codec.decoder(r.grpc.responseType) : undefined
  );
  // Labels with checks: evaluated on the engine thread at completion, counted per check.
  const checks = mix.requests.map((r, i) =>
    r.checks?.length ? new LabelChecks(r.checks, r.expect, decoders[i]) : undefined
  );
  return {
    requests,
    ...(renderer ? { renderer } : {}),
    ...(source ? { source } : {}),
    ...(checks.some((c) => c !== undefined) ? { checks } : {}),
    ...(decoders.some((d) => d !== undefined) ? { decoders } : {}),
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
