/**
 * A minimal HTTP/1.x request-head parser for the target's raw-TCP transport: request line,
 * headers, `Content-Length` bodies and keep-alive. Chunked request bodies are refused (501).
 *
 * @module
 */

/** Longest request head accepted (request line and headers). */
export const MAX_HEAD_BYTES = 16 * 1024;
/** Longest request body accepted. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The outcome of reading the start of a connection's buffer. */
export type RequestHead =
  | { kind: "incomplete" }
  | { kind: "invalid"; status: 400 | 413 | 431 | 501 | 505; reason: string }
  | {
    kind: "request";
    method: string;
    target: string;
    /** Bytes of the head, blank line included: the body starts here. */
    headBytes: number;
    contentLength: number;
    /** Whether the connection stays open after the response. */
    keepAlive: boolean;
  };

const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/(\d)\.(\d)$/;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;
const latin1 = new TextDecoder("latin1");

/**
 * Parses the request head at the start of `bytes`, or says more bytes are needed.
 */
export function parseRequestHead(bytes: Uint8Array): RequestHead {
  const end = indexOfBlankLine(bytes);
  if (end < 0 || end > MAX_HEAD_BYTES) {
    return end > MAX_HEAD_BYTES || bytes.length > MAX_HEAD_BYTES
      ? { kind: "invalid", status: 431, reason: "request head too large" }
      : { kind: "incomplete" };
  }
  const lines = latin1.decode(bytes.subarray(0, end)).split("\r\n");
  const request = REQUEST_LINE.exec(lines[0]);
  if (!request) return { kind: "invalid", status: 400, reason: "malformed request line" };
  const [, method, target, major, minor] = request;
  if (major !== "1") return { kind: "invalid", status: 505, reason: "only HTTP/1.x is served" };
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const header = HEADER_LINE.exec(line);
    if (!header) return { kind: "invalid", status: 400, reason: "malformed header line" };
    const name = header[1].toLowerCase();
    const previous = headers.get(name);
    headers.set(name, previous === undefined ? header[2] : `${previous}, ${header[2]}`);
  }
  if (headers.has("transfer-encoding")) {
    return { kind: "invalid", status: 501, reason: "chunked request bodies are not supported" };
  }
  const length = headers.get("content-length") ?? "0";
  if (!/^\d+$/.test(length)) return { kind: "invalid", status: 400, reason: "bad content-length" };
  const contentLength = Number(length);
  if (contentLength > MAX_BODY_BYTES) {
    return { kind: "invalid", status: 413, reason: "request body too large" };
  }
  const connection = (headers.get("connection") ?? "").toLowerCase().split(/\s*,\s*/);
  const keepAlive = minor === "0"
    ? connection.includes("keep-alive")
    : !connection.includes("close");
  return { kind: "request", method, target, headBytes: end + 4, contentLength, keepAlive };
}

function indexOfBlankLine(bytes: Uint8Array): number {
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      return i;
    }
  }
  return -1;
}
