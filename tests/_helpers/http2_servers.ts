/**
 * Servers that speak only HTTP/2, in-process on 127.0.0.1 and a free port (node:http2), for the
 * tests that tailgate names them; and the bytes two real h2c servers answered an HTTP/1.1
 * `GET / HTTP/1.1` with, as captured.
 *
 * @module
 */
import http2 from "node:http2";

const TLS_DIR = new URL("../testdata/tls/", import.meta.url);
/** The self-signed certificate the TLS servers present (valid for localhost and 127.0.0.1). */
export const H2_CERT = Deno.readTextFileSync(new URL("cert.pem", TLS_DIR));
const KEY = Deno.readTextFileSync(new URL("key.pem", TLS_DIR));

/**
 * node:http2 `createServer()` (Node 22, Deno 2.9): an empty SETTINGS on connect, then a GOAWAY
 * (last stream 0, INTERNAL_ERROR) on the bytes of an HTTP/1.1 request, then the close.
 */
export const NODE_H2C_REPLY = new Uint8Array([
  ...[0, 0, 0, 4, 0, 0, 0, 0, 0],
  ...[0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2],
]);

/**
 * nginx 1.22.1 `listen 127.0.0.1:PORT http2;`: nothing on connect; on the request's first 24
 * bytes, SETTINGS (MAX_CONCURRENT_STREAMS 128, INITIAL_WINDOW_SIZE 65536, MAX_FRAME_SIZE
 * 16777215), a WINDOW_UPDATE on stream 0, a GOAWAY (PROTOCOL_ERROR), then the close.
 */
export const NGINX_H2C_REPLY = new Uint8Array([
  ...[0, 0, 18, 4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 128, 0, 4, 0, 1, 0, 0, 0, 5, 0, 255, 255, 255],
  ...[0, 0, 4, 8, 0, 0, 0, 0, 0, 127, 255, 0, 0],
  ...[0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
]);

/** A started node:http2 server: its URL; stopped when the test's scope ends. */
export interface Http2Server extends AsyncDisposable {
  readonly url: string;
  /** Requests it answered, over either protocol. */
  readonly requests: () => number;
}

/**
 * Cleartext HTTP/2 with prior knowledge only (h2c): node:http2 has no HTTP/1 fallback without
 * TLS, so it answers an HTTP/1.1 request with its SETTINGS and a GOAWAY.
 */
export function h2cServer(): Promise<Http2Server> {
  return started(http2.createServer(), "http");
}

/**
 * HTTP/2 over TLS, offering ALPN `h2` only (`allowHTTP1: false`, refusing a client offering
 * `http/1.1` alone), or `http/1.1` too (`allowHTTP1: true`).
 */
export function h2TlsServer(allowHTTP1: boolean): Promise<Http2Server> {
  const server = http2.createSecureServer({ cert: H2_CERT, key: KEY, allowHTTP1 });
  return started(server, "https");
}

async function started(
  server: http2.Http2Server | http2.Http2SecureServer,
  scheme: string,
): Promise<Http2Server> {
  let requests = 0;
  server.on("request", (_request: unknown, response: http2.Http2ServerResponse) => {
    requests++;
    response.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `${scheme}://127.0.0.1:${port}/`,
    requests: () => requests,
    async [Symbol.asyncDispose]() {
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
