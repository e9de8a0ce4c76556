/**
 * An HTTP/1.1 server on 127.0.0.1 that records every request exactly as it arrived (request line,
 * headers in order, body bytes) and answers each `200 ok`, keeping the connection open.
 *
 * @module
 */
import { tcpServer } from "./tcp_server.ts";

/** One request as it arrived on the wire. */
export interface RecordedRequest {
  /** `GET /users/7?region=eu HTTP/1.1` */
  line: string;
  method: string;
  /** The request-target (`/users/7?region=eu`). */
  target: string;
  /** Header lines in order, names as sent. */
  headers: Array<[string, string]>;
  body: string;
}

const decoder = new TextDecoder();
const OK = new TextEncoder().encode("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");

/** Starts a recording server; `requests` fills as requests arrive. */
export function recordingServer() {
  const requests: RecordedRequest[] = [];
  const server = tcpServer(async (conn) => {
    let pending = new Uint8Array(0);
    const buf = new Uint8Array(65536);
    while (true) {
      const n = await conn.read(buf);
      if (n === null) return;
      const joined = new Uint8Array(pending.length + n);
      joined.set(pending);
      joined.set(buf.subarray(0, n), pending.length);
      pending = joined;
      while (true) {
        const text = decoder.decode(pending);
        const end = text.indexOf("\r\n\r\n");
        if (end < 0) break;
        const [line, ...rest] = text.slice(0, end).split("\r\n");
        const headers = rest.map((h): [string, string] => {
          const i = h.indexOf(":");
          return [h.slice(0, i), h.slice(i + 1).trim()];
        });
        const length = Number(
          headers.find(([k]) => k.toLowerCase() === "content-length")?.[1] ?? 0,
        );
        const headBytes = new TextEncoder().encode(text.slice(0, end + 4)).length;
        if (pending.length < headBytes + length) break;
        const body = decoder.decode(pending.subarray(headBytes, headBytes + length));
        pending = pending.slice(headBytes + length);
        const [method, target] = line.split(" ");
        requests.push({ line, method, target, headers, body });
        await conn.write(OK);
      }
    }
  });
  return {
    url: server.url.replace(/\/$/, ""),
    requests,
    [Symbol.asyncDispose]: () => server[Symbol.asyncDispose](),
  };
}

/** A recorded request's header value (first of that name, any case). */
export function headerOf(r: RecordedRequest, name: string): string | undefined {
  return r.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
}
