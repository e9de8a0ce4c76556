/**
 * Before a gRPC run, once the target passed the HTTP/2 checks (h2c's preface, or TLS with ALPN
 * `h2`): is it a gRPC server? One call of the standard health service,
 * `grpc.health.v1.Health/Check` with an empty request, on a connection of its own: any
 * `grpc-status` in its answer proves gRPC (a server without the health service answers
 * UNIMPLEMENTED, as grpc-go's greeter does). A plain HTTP/2 server answers without one (a 404):
 * that is a clear sentence naming the fix. The method under test is never called.
 *
 * @module
 */
import { H2DenoTransport, H2RequestEncoder, H2Session } from "../http2/mod.ts";
import { PERFORMANCE_CLOCK } from "../types.ts";
import { caUsedAsEndEntity } from "../tls_problem.ts";

/** The call the check makes: the health service's, which touches no method under test. */
export const HEALTH_CHECK_PATH = "/grpc.health.v1.Health/Check";

/** What came back of the health call. */
export interface HealthAnswer {
  /** HTTP `:status` (0: none came). */
  httpStatus: number;
  /** Its `grpc-status` ("" when none came). */
  grpcStatus: string;
  /** The stream's RST_STREAM or GOAWAY code when it did not end cleanly; 0 when it did. */
  rstCode: number;
  /** The session went down under the call. */
  gone: boolean;
}

/**
 * Whether `url`'s origin answers gRPC: undefined when it does, else one sentence saying what it
 * answered and what to do. `caCerts` are trusted as for the run (`--ca-cert`).
 */
export async function checkGrpcTarget(
  url: URL,
  caCerts: readonly string[] = [],
  timeoutMs = 3000,
): Promise<string | undefined> {
  const origin = new URL(url.origin);
  const transport = new H2DenoTransport(origin, PERFORMANCE_CLOCK, caCerts);
  let failure = "";
  const session = new H2Session(transport, { windowBytes: 65_535, clock: PERFORMANCE_CLOCK }, {
    onSettings: () => {},
    onGoaway: () => {},
    onError: (error) => failure = error instanceof Error ? error.message : String(error),
    onClose: () => {},
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) =>
    timer = setTimeout(() => resolve("late"), timeoutMs)
  );
  try {
    const connected = await Promise.race([session.connected.then(() => "up" as const), late]);
    if (connected === "late") {
      return `${url.origin} did not open an HTTP/2 connection for a gRPC health check within ` +
        `${timeoutMs} ms`;
    }
    const answer = await Promise.race([healthCall(session, origin), late]);
    if (answer === "late") {
      return `${url.origin} did not answer a gRPC health check (${HEALTH_CHECK_PATH}) within ` +
        `${timeoutMs} ms: is it a gRPC server?`;
    }
    return notGrpc(url, answer, failure);
  } catch (error) {
    const why = failure || (error instanceof Error ? error.message : String(error));
    // A certificate Deno's TLS takes for a CA's passed checkTarget by OpenSSL, as the run's
    // native connections check it: this check cannot be made on Deno's TLS, so it is not.
    if (caUsedAsEndEntity(why)) return undefined;
    return `${url.origin}: the connection for a gRPC health check failed: ${why}`;
  } finally {
    clearTimeout(timer);
    session.close();
  }
}

/** The health call on `session`: an empty HealthCheckRequest, its answer when its stream ends. */
function healthCall(session: H2Session, origin: URL): Promise<HealthAnswer> {
  const empty = Uint8Array.of(0, 0, 0, 0, 0);
  const head = `POST ${HEALTH_CHECK_PATH} HTTP/1.1\r\nhost: ${origin.host}\r\n` +
    `content-type: application/grpc\r\nte: trailers\r\ncontent-length: ${empty.length}\r\n\r\n`;
  const headBytes = new TextEncoder().encode(head);
  const bytes = new Uint8Array(headBytes.length + empty.length);
  bytes.set(headBytes);
  bytes.set(empty, headBytes.length);
  const request = new H2RequestEncoder(origin.protocol.slice(0, -1)).encode(bytes);
  return new Promise((resolve) => {
    const answer: HealthAnswer = { httpStatus: 0, grpcStatus: "", rstCode: 0, gone: false };
    session.request(request.block, request.body, {
      grpc: true,
      onResponse: (status) => answer.httpStatus = status,
      onData: () => {},
      onTrailers: (grpcStatus) => answer.grpcStatus = grpcStatus,
      onClose: (rstCode, _id, gone) => resolve({ ...answer, rstCode, gone }),
    });
  });
}

/**
 * The sentence for an answer that does not prove gRPC, or undefined for one that does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notGrpc } from "./grpc_target_check.ts";
 * const url = new URL("http://127.0.0.1:8080");
 * const unimplemented = { httpStatus: 200, grpcStatus: "12", rstCode: 0, gone: false };
 * assert.equal(notGrpc(url, unimplemented, ""), undefined);
 * const plain = { httpStatus: 404, grpcStatus: "", rstCode: 0, gone: false };
 * assert.match(notGrpc(url, plain, "")!, /HTTP 404 without grpc-status/);
 * ```
 */
export function notGrpc(url: URL, answer: HealthAnswer, failure: string): string | undefined {
  if (answer.grpcStatus !== "") return undefined;
  if (answer.httpStatus !== 0 && answer.rstCode === 0 && !answer.gone) {
    return `${url.origin} answers HTTP/2 but not gRPC (HTTP ${answer.httpStatus} without ` +
      `grpc-status to a ${HEALTH_CHECK_PATH} call): point the target at the gRPC server's port`;
  }
  const why = answer.gone
    ? `the connection closed${failure ? ` (${failure})` : ""}`
    : `the stream was reset (HTTP/2 error code ${answer.rstCode})`;
  return `${url.origin} did not answer a gRPC health check (${HEALTH_CHECK_PATH}): ${why}; ` +
    "is it a gRPC server?";
}
