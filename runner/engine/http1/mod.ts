/**
 * HTTP/1.1 on the wire, whatever the sockets: request bytes prepared once, the incremental
 * response parser, chunked bodies, the shared read side and how errors are classified.
 *
 * @module
 */
export {
  ConnectFailure,
  OUT_OF_DESCRIPTORS_NOTE,
  outOfDescriptors,
  socketErrorKind,
} from "./http1_errors.ts";
export {
  headLayout,
  prepareRequest,
  traceLines,
  TRACEPARENT_PREFIX,
  USER_AGENT_LINE,
} from "./http1_request.ts";
export { ResponseReader } from "./response_reader.ts";
export {
  HTTP2_REPLY_NOTE,
  http2OpeningFrame,
  mayBeHttp2FrameStart,
  TLS_HTTP1,
} from "./http2_only.ts";
