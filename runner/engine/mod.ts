/**
 * The engine, what sends the requests: the dispatcher and its wire protocols (HTTP/1.1, HTTP/2),
 * sockets (Deno's and the native path), request rendering, response reading, journeys, timing and
 * contention sampling. Code outside this folder imports it only through this file.
 *
 * @module
 */
export type { Clock, Completion, Connection, PreparedRequest, RecordSink, Waker } from "./types.ts";
export {
  createAtomicsWaker,
  hiccupMeterOn,
  setShortSlice,
  startHiccupProbe,
} from "./timing/mod.ts";
export { PERFORMANCE_CLOCK } from "./types.ts";
export { CA_AS_END_ENTITY, caUsedAsEndEntity, tlsProblem } from "./tls_problem.ts";
export type { CapturedValue, StepResponse } from "./response/mod.ts";
export { type EncodeBody, encodeText, RenderAhead, RequestRenderer } from "./render/mod.ts";
export {
  captureSourceText,
  captureValue,
  LabelChecks,
  type MessageDecoder,
} from "./response/mod.ts";
export { lowerThreadPriority } from "./low_priority.ts";
export type { JourneyEnd, JourneySink } from "./journeys/mod.ts";
export type { ContentionSample } from "./contention/mod.ts";
export {
  BODY_SAMPLE_BYTES,
  BodySampler,
  firstBodySamples,
  MAX_BODY_SAMPLES,
} from "./body_sample.ts";
export type { RawBodySample } from "./body_sample.ts";
export { HTTP2_REPLY_NOTE, OUT_OF_DESCRIPTORS_NOTE, prepareRequest } from "./http1/mod.ts";
export {
  collectGarbage,
  ENGINE_V8_FLAGS,
  MAIN_THREAD_GC_PERIOD_MS,
  youngGenerationMb,
  youngGenerationWarning,
} from "./v8_flags.ts";
export { checkReachable, checkTarget, descriptorProblem, openFilesLimit } from "./preflight.ts";
export type { HiccupMeter, HiccupProbe } from "./timing/mod.ts";
export { CONNECT_TIMEOUT_MS, Dispatcher } from "./dispatcher.ts";
export { TraceStamp } from "./trace_stamp.ts";
export { JourneyRunner } from "./journeys/mod.ts";
export { clockTicksPerSec, CounterSampler } from "./contention/mod.ts";
export {
  EpollLoop,
  ioChoice,
  NativeConnection,
  NativeH2Transport,
  nativeTarget,
  nativeTls,
} from "./native/mod.ts";
export { Http1Connection } from "./socket/mod.ts";
export type { H2Transport } from "./http2/mod.ts";
export { H2Pool, type H2PoolOptions } from "./http2/mod.ts";
export { checkGrpcTarget, GrpcStreamSlot } from "./grpc/mod.ts";
export { KEEP_BODY_BYTES } from "./kept_response.ts";
