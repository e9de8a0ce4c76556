/**
 * Which protocol a run takes, by the plan's `load.http`: a new protocol is one more entry of
 * {@linkcode PROTOCOLS} and a file of its own.
 *
 * @module
 */
import type { ResolvedPlan } from "../../plan/mod.ts";
import type { Protocol } from "./protocol.ts";
import { http1Protocol } from "./http1_protocol.ts";
import { http2Protocol } from "./http2_protocol.ts";

/** The protocols, by the plan's `load.http` (absent: 1.1). */
export const PROTOCOLS: Readonly<Record<"1.1" | "2", Protocol>> = {
  "1.1": http1Protocol,
  "2": http2Protocol,
};

/**
 * The run's protocol: the plan's, except that a test's own connections (`injected`) are
 * driven as HTTP/1.1 connections are, whatever the plan says.
 */
export function protocolOf(plan: ResolvedPlan, injected: boolean): Protocol {
  return injected ? http1Protocol : PROTOCOLS[plan.load.http ?? "1.1"];
}
