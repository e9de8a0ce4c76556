/**
 * The plan as a result stores it: every secret header value replaced by its template, so a
 * result file or baseline can be shared without leaking tokens.
 *
 * @module
 */
import type { PlanGrpcCall, RequestBasics, ResolvedPlan } from "../plan/mod.ts";
import type { PlanRecord } from "../model/mod.ts";
import { carrySlos } from "./read/mod.ts";

/**
 * Converts a resolved plan into its stored form.
 */
export function planRecord(plan: ResolvedPlan): PlanRecord {
  return {
    name: plan.name,
    ...(plan.description === undefined ? {} : { description: plan.description }),
    file: plan.file,
    ...(plan.target === undefined ? {} : { target: plan.target }),
    requests: plan.requests.map((r) => {
      const { timeoutMs, expect, ...rest } = storedRequest(r);
      return { ...rest, weight: r.weight, timeoutMs, expect };
    }),
    ...(plan.journeys?.length
      ? {
        journeys: plan.journeys.map((j) => ({
          name: j.name,
          weight: j.weight,
          steps: j.steps.map((s) => ({
            ...storedRequest(s),
            ...(s.think ? { think: { minMs: s.think.minMs, maxMs: s.think.maxMs } } : {}),
          })),
        })),
      }
      : {}),
    load: {
      connections: plan.load.connections,
      maxConnections: plan.load.maxConnections,
      arrival: plan.load.arrival,
      seed: plan.load.seed,
      ...(plan.load.seedPerRun ? { seedPerRun: true } : {}),
      workers: plan.load.workers,
      stages: plan.load.stages.map((s) => ({
        index: s.index,
        name: s.name,
        kind: s.kind,
        fromPerSec: s.kind === "constant" ? s.ratePerSec : s.fromPerSec,
        toPerSec: s.kind === "constant" ? s.ratePerSec : s.toPerSec,
        durationMs: s.durationMs,
        warmup: s.warmup,
        line: s.line,
      })),
    },
    // Stored as written; the plan's parsed SLOs travel beside them (read/stored_slos.ts).
    slos: carrySlos(plan.slos.map((s) => ({ text: s.text, line: s.line })), plan.slos),
    ...(plan.allowErrors ? { allowErrors: true } : {}),
    ...(plan.trace === undefined ? {} : { trace: { ...plan.trace } }),
    ...(plan.regression === undefined ? {} : { regression: plan.regression }),
    ...(plan.overrides?.length ? { overrides: [...plan.overrides] } : {}),
  };
}

/** A request or step as stored: a secret header by its template, never its value. */
function storedRequest(r: RequestBasics): Omit<PlanRecord["requests"][number], "weight"> {
  return {
    label: r.label,
    method: r.method,
    url: r.url,
    headers: r.headers.map((h) => ({
      name: h.name,
      value: h.secret ? h.template : h.value,
      secret: h.secret,
    })),
    ...(r.body === undefined ? {} : { body: r.body }),
    timeoutMs: r.timeoutMs,
    expect: r.expect,
    ...(r.grpc === undefined ? {} : { grpc: grpcCallRecord(r.grpc) }),
  };
}

/**
 * A gRPC call as stored: the method as a plan names it, its deadline when it has one, and whether
 * the server answers with a stream (reports then show its messages per stream).
 */
function grpcCallRecord(call: PlanGrpcCall): NonNullable<PlanRecord["requests"][number]["grpc"]> {
  return {
    call: `${call.service}/${call.method}`,
    ...(call.deadlineMs === undefined ? {} : { deadlineMs: call.deadlineMs }),
    ...(call.serverStreaming ? { serverStreaming: true } : {}),
  };
}
