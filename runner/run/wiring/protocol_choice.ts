/**
 * Which protocol a run takes, by the plan's `load.http`, or gRPC for a plan with `grpc`: a new
 * protocol is one more entry of {@linkcode PROTOCOLS} and a file of its own.
 *
 * @module
 */
import type { ResolvedPlan } from "../../plan/mod.ts";
import type { Protocol } from "./protocol.ts";
import { http1Protocol } from "./http1_protocol.ts";
import { http2Protocol } from "./http2_protocol.ts";
import { grpcProtocol } from "./grpc_protocol.ts";

/** The protocols, by the plan's `load.http` (absent: 1.1), and `grpc` for a gRPC plan's. */
export const PROTOCOLS: Readonly<Record<"1.1" | "2" | "grpc", Protocol>> = {
  "1.1": http1Protocol,
  "2": http2Protocol,
  grpc: grpcProtocol,
};

/**
 * The run's protocol: gRPC for a plan with `grpc`, else its `load.http`'s, except that a test's
 * own connections (`injected`) are driven as HTTP/1.1 connections are, whatever the plan says.
 */
export function protocolOf(plan: ResolvedPlan, injected: boolean): Protocol {
  if (injected) return http1Protocol;
  return plan.grpc !== undefined ? PROTOCOLS.grpc : PROTOCOLS[plan.load.http ?? "1.1"];
}
