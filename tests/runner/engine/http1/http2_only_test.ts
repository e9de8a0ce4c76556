import assert from "node:assert/strict";
import {
  HTTP2_FRAME_HEADER_BYTES,
  http2OpeningFrame,
  mayBeHttp2FrameStart,
} from "../../../../runner/engine/http1/http2_only.ts";
import { NGINX_H2C_REPLY, NODE_H2C_REPLY } from "../../../_helpers/http2_servers.ts";

const frame = (length: number, type: number, flags: number, streamId: number) =>
  new Uint8Array([
    length >> 16,
    (length >> 8) & 0xff,
    length & 0xff,
    type,
    flags,
    streamId >>> 24,
    (streamId >> 16) & 0xff,
    (streamId >> 8) & 0xff,
    streamId & 0xff,
  ]);
const whole = (bytes: Uint8Array) => http2OpeningFrame(bytes, 0, bytes.length);

Deno.test("the replies node:http2 and nginx give an HTTP/1.1 request open with SETTINGS", () => {
  assert.equal(whole(NODE_H2C_REPLY), "SETTINGS");
  assert.equal(whole(NGINX_H2C_REPLY), "SETTINGS");
  // Read at an offset, as from a connection's buffer.
  const shifted = new Uint8Array([72, ...NGINX_H2C_REPLY]);
  assert.equal(http2OpeningFrame(shifted, 1, shifted.length), "SETTINGS");
});

Deno.test("a GOAWAY first is HTTP/2 too; other frames, streams and sizes are not taken for it", () => {
  assert.equal(whole(NODE_H2C_REPLY.subarray(HTTP2_FRAME_HEADER_BYTES)), "GOAWAY");
  assert.equal(whole(frame(0, 4, 1, 0)), "SETTINGS", "an empty SETTINGS ACK");
  assert.equal(whole(frame(6, 4, 1, 0)), undefined, "an ACK carries no settings");
  assert.equal(whole(frame(7, 4, 0, 0)), undefined, "settings come 6 bytes each");
  assert.equal(whole(frame(0, 4, 0, 1)), undefined, "SETTINGS belong to stream 0");
  assert.equal(whole(frame(4, 7, 0, 0)), undefined, "a GOAWAY holds at least 8 bytes");
  assert.equal(
    whole(frame(4, 8, 0, 0)),
    undefined,
    "a server opens with SETTINGS, not WINDOW_UPDATE",
  );
  const http1 = new TextEncoder().encode("HTTP/1.1 200 OK\r\n\r\n");
  assert.equal(whole(http1), undefined);
  assert.equal(whole(NODE_H2C_REPLY.subarray(0, 8)), undefined, "too short to tell");
});

Deno.test("mayBeHttp2FrameStart() waits on a short start of 0, never on HTTP/", () => {
  for (let n = 1; n < HTTP2_FRAME_HEADER_BYTES; n++) {
    assert.equal(mayBeHttp2FrameStart(NGINX_H2C_REPLY, 0, n), true, `${n} bytes`);
  }
  assert.equal(mayBeHttp2FrameStart(NGINX_H2C_REPLY, 0, HTTP2_FRAME_HEADER_BYTES), false);
  assert.equal(mayBeHttp2FrameStart(NGINX_H2C_REPLY, 0, 0), false, "nothing yet");
  assert.equal(mayBeHttp2FrameStart(new TextEncoder().encode("HTT"), 0, 3), false);
});

Deno.test("mayBeHttp2FrameStart() stops waiting once a type or stream id rules a frame out", () => {
  assert.equal(mayBeHttp2FrameStart(new Uint8Array([0, 0xff, 0x74, 0x61]), 0, 4), false);
  assert.equal(mayBeHttp2FrameStart(new Uint8Array([0, 0, 0, 4, 0, 0, 0, 1]), 0, 8), false);
  assert.equal(mayBeHttp2FrameStart(new Uint8Array([0, 0, 8, 7, 0, 0, 0, 0]), 0, 8), true);
});
