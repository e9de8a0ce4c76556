/**
 * A gRPC run's result for result and reporter tests, made by hand where no gRPC plan can be parsed
 * yet: plan "greeter" over h2c, a unary call (`Greeter/SayHello`) and a server stream
 * (`RouteGuide/ListFeatures`), recorded through the recorder as the engine would hand it a gRPC
 * call's outcome (its `grpc-status` n as the status 1000 + n, its messages read).
 *
 * @module
 */
import type { PlanGrpcCall, PlanRequest, ResolvedPlan } from "../../runner/plan/types.ts";
import type { Completion } from "../../runner/recorder/recorder.ts";
import { buildResult, type RunRecord } from "../../runner/result/build_result.ts";
import { computeRunVerdict } from "../../runner/gates/run_verdict.ts";
import { judge } from "../../runner/api/judge.ts";
import type { RunResult } from "../../runner/model/run_result.ts";
import { GRPC_STATUS_BASE } from "../../runner/model/grpc_status.ts";
import { parseText } from "./plan_fixtures.ts";
import { ENVIRONMENT, scheduleAndRecorder } from "./result_fixtures.ts";

/** The calls UNAVAILABLE answers, all of `Greeter/SayHello` in the main stage. */
export const UNAVAILABLE_CALLS = 12;

/** Each `RouteGuide/ListFeatures` stream's messages. */
export const STREAM_MESSAGES = 64;

/** The plan's text before its requests become gRPC calls: what the HTTP/2 plan layer reads. */
const GREETER_PLAN = `name: greeter
target: http://127.0.0.1:50051
requests:
  - name: Greeter/SayHello
    method: POST
    path: /helloworld.Greeter/SayHello
  - name: RouteGuide/ListFeatures
    method: POST
    path: /routeguide.RouteGuide/ListFeatures
load:
  http: 2
  max_streams: 8
  stages:
    - { name: warm, rate: 10/s, duration: 1s, warmup: true }
    - { name: main, rate: 20/s, duration: 2s }
slo:
  - p99 < 50ms
`;

const CALLS: Array<{ grpc: PlanGrpcCall; message: string }> = [
  {
    grpc: {
      service: "helloworld.Greeter",
      method: "SayHello",
      path: "/helloworld.Greeter/SayHello",
      requestType: "helloworld.HelloRequest",
      responseType: "helloworld.HelloReply",
      serverStreaming: false,
      deadlineMs: 500,
    },
    message: '{"name":"user-1"}',
  },
  {
    grpc: {
      service: "routeguide.RouteGuide",
      method: "ListFeatures",
      path: "/routeguide.RouteGuide/ListFeatures",
      requestType: "routeguide.Rectangle",
      responseType: "routeguide.Feature",
      serverStreaming: true,
    },
    message: '{"lo":{"latitude":400000000,"longitude":-750000000}}',
  },
];

/**
 * Plan "greeter" resolved as the plan layer resolves `grpc://127.0.0.1:50051` calls: POST to the
 * call's path with `content-type: application/grpc` and `te: trailers`, the message as the body,
 * OK expected, and the schema of its two `.proto` files.
 *
 * @example
 * ```ts
 * import { grpcPlan } from "./grpc_result_fixtures.ts";
 * grpcPlan().requests[0].grpc?.method; // "SayHello"
 * ```
 */
export function grpcPlan(): ResolvedPlan {
  const { plan, issues } = parseText(GREETER_PLAN);
  if (!plan) throw new Error(`fixture plan is invalid: ${JSON.stringify(issues)}`);
  plan.requests = plan.requests.map((r, i): PlanRequest => ({
    ...r,
    headers: [
      ...r.headers,
      {
        name: "content-type",
        value: "application/grpc",
        template: "application/grpc",
        secret: false,
      },
      { name: "te", value: "trailers", template: "trailers", secret: false },
    ],
    body: { kind: "grpc", text: CALLS[i].message },
    expect: { codes: [GRPC_STATUS_BASE], classes: [] },
    grpc: CALLS[i].grpc,
  }));
  plan.grpc = {
    files: ["protos/helloworld.proto", "protos/route_guide.proto"],
    descriptor: {},
    tls: false,
  };
  return plan;
}

/**
 * Records every call of {@linkcode grpcPlan}'s schedule: written 0.5 ms late, answered 1.5 ms
 * after its fire time (a stream's first message at 1 ms) with OK, except the first
 * {@linkcode UNAVAILABLE_CALLS} `SayHello` calls of the main stage (UNAVAILABLE, trailers only,
 * no message); a unary OK brings 1 message, a stream {@linkcode STREAM_MESSAGES}.
 *
 * @example
 * ```ts
 * import { grpcPlan, recordGrpcPlan } from "./grpc_result_fixtures.ts";
 * recordGrpcPlan(grpcPlan()).scheduled; // 50
 * ```
 */
export function recordGrpcPlan(plan: ResolvedPlan): RunRecord {
  const { schedule, rec } = scheduleAndRecorder(plan);
  let unavailable = 0;
  const cursor = schedule.cursor();
  for (; !cursor.done; cursor.advance()) {
    const { fireMs, stageIndex, labelIndex } = cursor;
    rec.scheduled(fireMs, stageIndex, labelIndex);
    const failed = labelIndex === 0 && stageIndex === 1 && unavailable < UNAVAILABLE_CALLS;
    if (failed) unavailable++;
    const c: Completion = {
      stageIndex,
      labelIndex,
      fireMs,
      writtenMs: fireMs + 0.5,
      completedMs: fireMs + 1.5,
      status: GRPC_STATUS_BASE + (failed ? 14 : 0),
      bytesSent: 40,
      bytesReceived: failed ? 30 : labelIndex === 0 ? 60 : 60 * STREAM_MESSAGES,
      firstByteMs: failed ? NaN : fireMs + 1,
      messages: failed ? 0 : labelIndex === 0 ? 1 : STREAM_MESSAGES,
    };
    rec.sendLag(0.5, stageIndex);
    rec.complete(c);
  }
  if (unavailable !== UNAVAILABLE_CALLS) throw new Error(`only ${unavailable} UNAVAILABLE calls`);
  return {
    recorded: rec.finish(schedule.durationMs),
    complete: true,
    startedAt: new Date("2025-01-02T03:04:05.000Z"),
    durationMs: schedule.durationMs + 10,
    scheduleDurationMs: schedule.durationMs,
    scheduled: schedule.totalCount,
    cpu: { userMs: 300, systemMs: 100 },
    connections: { opened: 2, peak: 2 },
    timerSlackSet: true,
  };
}

/**
 * The result of {@linkcode recordGrpcPlan} on {@linkcode grpcPlan} as `tailgate run` writes it:
 * its run verdict stored.
 *
 * @example
 * ```ts
 * import { grpcResult } from "./grpc_result_fixtures.ts";
 * grpcResult().run.grpc; // true
 * ```
 */
export function grpcResult(): RunResult {
  const plan = grpcPlan();
  const result = buildResult(plan, recordGrpcPlan(plan), ENVIRONMENT);
  result.verdict = computeRunVerdict(result);
  return result;
}

/**
 * {@linkcode grpcResult} judged by `judge`, as reports show it: its SLO (p99 < 50ms) and the
 * implicit error gate both fail, on the main stage's {@linkcode UNAVAILABLE_CALLS} UNAVAILABLE
 * calls.
 *
 * @example
 * ```ts
 * import { judgedGrpcResult } from "./grpc_result_fixtures.ts";
 * // (await judgedGrpcResult()).verdict?.status === "fail"
 * ```
 */
export async function judgedGrpcResult(): Promise<RunResult> {
  return (await judge(grpcResult())).result;
}
