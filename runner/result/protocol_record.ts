/**
 * The protocol a result records (`run.protocol`, `run.maxStreams`), from the plan: its
 * `load.http` and the scheme of its one origin. HTTP/2 over `https://` is h2 (by ALPN, no fallback),
 * over `http://` h2c (prior knowledge); `maxStreams` is the plan's `load.max_streams`, absent when
 * the server's SETTINGS decide. A plan of gRPC calls (`grpc:`) runs over HTTP/2 too, and says so
 * beside its protocol (`grpc: true`). Pure.
 *
 * @module
 */
import type { ResolvedPlan } from "../plan/mod.ts";
import type { RunResult } from "../model/mod.ts";

/**
 * The run's protocol and streams per connection, as the result stores them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protocolRecord } from "./protocol_record.ts";
 * const load = { http: "2" as const, maxStreams: 8 };
 * assert.deepEqual(
 *   protocolRecord({ load, requests: [{ url: "http://127.0.0.1:8080/" }] }),
 *   { protocol: "h2c", maxStreams: 8 },
 * );
 * const grpc = { files: ["helloworld.proto"], descriptor: {}, tls: false };
 * assert.deepEqual(
 *   protocolRecord({ load, grpc, requests: [{ url: "http://127.0.0.1:50051/a.B/C" }] }),
 *   { protocol: "h2c", grpc: true, maxStreams: 8 },
 * );
 * ```
 */
export function protocolRecord(
  plan: {
    load: Pick<ResolvedPlan["load"], "http" | "maxStreams">;
    requests: readonly Pick<ResolvedPlan["requests"][number], "url">[];
    journeys?: ReadonlyArray<{ steps: readonly { url: string }[] }>;
    grpc?: ResolvedPlan["grpc"];
  },
): Pick<RunResult["run"], "protocol" | "grpc" | "maxStreams"> {
  if (plan.load.http !== "2") return { protocol: "http/1.1" };
  // One plan drives one origin (validate_requests.ts): its first request's scheme is the plan's.
  const tls = /^https:/i.test(
    plan.requests[0]?.url ?? plan.journeys?.[0]?.steps[0]?.url ?? "",
  );
  const { maxStreams } = plan.load;
  return {
    protocol: tls ? "h2" : "h2c",
    ...(plan.grpc === undefined ? {} : { grpc: true }),
    ...(maxStreams === undefined ? {} : { maxStreams }),
  };
}
