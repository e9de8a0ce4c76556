import assert from "node:assert/strict";
import {
  H2ClientProtocol,
  type H2StreamEvents,
  MALFORMED_RESPONSE,
} from "../../../../runner/engine/http2/h2_client_protocol.ts";
import {
  CLIENT_PREFACE,
  concatBytes,
  FLAG,
  FRAME,
  frame,
  H2_CODE,
  SETTING,
  settingsFrame,
  windowUpdateFrame,
} from "../../../../runner/engine/http2/h2_frame.ts";

/** HPACK `:status: 200` and `:status: 404` (static table entries 8 and 13). */
const STATUS_200 = new Uint8Array([0x88]);
const STATUS_404 = new Uint8Array([0x8d]);
/** `:status: 100`: a literal without indexing, the name from static entry 8. */
const STATUS_100 = new Uint8Array([0x08, 0x03, 0x31, 0x30, 0x30]);

interface Frame {
  type: number;
  flags: number;
  streamId: number;
  payload: Uint8Array;
}

/** The frames in `bytes` (after the preface, if it starts with one). */
function framesOf(bytes: Uint8Array): Frame[] {
  let at = startsWith(bytes, CLIENT_PREFACE) ? CLIENT_PREFACE.length : 0;
  const out: Frame[] = [];
  while (at < bytes.length) {
    const length = (bytes[at] << 16) | (bytes[at + 1] << 8) | bytes[at + 2];
    out.push({
      type: bytes[at + 3],
      flags: bytes[at + 4],
      streamId: new DataView(bytes.buffer, bytes.byteOffset + at + 5, 4).getUint32(0) & 0x7fffffff,
      payload: bytes.slice(at + 9, at + 9 + length),
    });
    at += 9 + length;
  }
  return out;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/** A protocol with its writes and events recorded. */
function client(windowBytes = 16 * 1024 * 1024) {
  const written: Uint8Array[] = [];
  const log: string[] = [];
  let backlogBytes = 0;
  const protocol = new H2ClientProtocol(windowBytes, {
    write: (b) => {
      written.push(b);
      return backlogBytes;
    },
    onSettings: (max) => log.push(`settings ${max}`),
    onGoaway: (code, last) => log.push(`goaway ${code} ${last}`),
    onConnectionError: (code, reason) => log.push(`error ${code} ${reason}`),
  });
  const stream = (name: string): H2StreamEvents => ({
    onResponse: (status, octets) => log.push(`${name} response ${status} ${octets}`),
    onData: (n) => log.push(`${name} data ${n}`),
    onClose: (code, id, gone) => log.push(`${name} close ${code} ${id}${gone ? " gone" : ""}`),
  });
  const receive = (...frames: Uint8Array[]) => {
    const bytes = concatBytes(frames);
    return protocol.receive(bytes, 0, bytes.length);
  };
  const sent = () => framesOf(concatBytes(written.splice(0)));
  /** Octets the transport still holds after each write from now on (0: everything left). */
  const backlog = (bytes: number) => backlogBytes = bytes;
  return { protocol, log, stream, receive, sent, written, backlog };
}

Deno.test("start sends the preface, SETTINGS without push at the window asked, and the connection's window", () => {
  const c = client(1_000_000);
  c.protocol.start();
  const bytes = concatBytes(c.written);
  assert.ok(startsWith(bytes, CLIENT_PREFACE));
  const [settings, window] = framesOf(bytes);
  assert.equal(settings.type, FRAME.settings);
  assert.deepEqual([...settings.payload], [0, 2, 0, 0, 0, 0, 0, 4, 0, 0x0f, 0x42, 0x40]);
  assert.equal(window.type, FRAME.windowUpdate);
  assert.equal(new DataView(window.payload.buffer).getUint32(0), 1_000_000 - 65_535);
});

Deno.test("a response's HEADERS and DATA reach its stream, which closes on END_STREAM", () => {
  const c = client();
  const id = c.protocol.request(new Uint8Array([0x82]), undefined, c.stream("a"));
  assert.equal(id, 1);
  const [headers] = c.sent();
  assert.deepEqual([headers.type, headers.flags, headers.streamId], [FRAME.headers, 5, 1]);
  c.receive(
    frame(FRAME.headers, FLAG.endHeaders, 1, STATUS_200),
    frame(FRAME.data, 0, 1, new Uint8Array(3)),
    frame(FRAME.data, FLAG.endStream, 1, new Uint8Array(2)),
  );
  assert.deepEqual(c.log, ["a response 200 1", "a data 3", "a data 2", "a close 0 1"]);
  assert.equal(c.protocol.openStreams, 0);
  assert.equal(c.protocol.request(new Uint8Array([0x82]), undefined, c.stream("b")), 3);
});

Deno.test("a frame cut across reads is taken once it is whole", () => {
  const c = client();
  c.protocol.request(new Uint8Array([0x82]), undefined, c.stream("a"));
  const bytes = frame(FRAME.headers, FLAG.endHeaders | FLAG.endStream, 1, STATUS_404);
  assert.equal(c.protocol.receive(bytes, 0, 6), 0);
  assert.equal(c.protocol.receive(bytes, 0, bytes.length - 1), 0);
  assert.equal(c.protocol.receive(bytes, 0, bytes.length), bytes.length);
  assert.deepEqual(c.log, ["a response 404 1", "a close 0 1"]);
});

Deno.test("an interim 1xx is not the answer; a block without a status is reset as malformed", () => {
  const c = client();
  c.protocol.request(new Uint8Array([0x82]), undefined, c.stream("a"));
  c.protocol.request(new Uint8Array([0x82]), undefined, c.stream("b"));
  c.sent();
  c.receive(
    frame(FRAME.headers, FLAG.endHeaders, 1, STATUS_100),
    frame(FRAME.headers, FLAG.endHeaders | FLAG.endStream, 1, STATUS_200),
    frame(FRAME.headers, FLAG.endHeaders, 3, new Uint8Array([0x82])), // :method GET, no :status
  );
  assert.deepEqual(c.log, ["a response 200 1", "a close 0 1", `b close ${MALFORMED_RESPONSE} 3`]);
  const [rst] = c.sent();
  assert.deepEqual([rst.type, rst.streamId, rst.payload[3]], [FRAME.rstStream, 3, 1]);
});

Deno.test("SETTINGS are acknowledged and their stream limit reported; PING is answered", () => {
  const c = client();
  c.receive(
    settingsFrame([[SETTING.maxConcurrentStreams, 128], [SETTING.maxFrameSize, 20_000]]),
    frame(FRAME.ping, 0, 0, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])),
  );
  assert.deepEqual(c.log, ["settings 128"]);
  const [ack, pong] = c.sent();
  assert.deepEqual([ack.type, ack.flags, ack.payload.length], [FRAME.settings, FLAG.ack, 0]);
  assert.deepEqual([pong.type, pong.flags, [...pong.payload]], [FRAME.ping, FLAG.ack, [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
  ]]);
});

Deno.test("GOAWAY closes the streams above its last id with its code and takes no new stream", () => {
  const c = client();
  for (const name of ["a", "b", "c"]) c.protocol.request(STATUS_200, undefined, c.stream(name));
  const goaway = new Uint8Array(8);
  new DataView(goaway.buffer).setUint32(0, 1);
  c.receive(frame(FRAME.goaway, 0, 0, goaway));
  assert.deepEqual(c.log, ["goaway 0 1", "b close 0 3", "c close 0 5"]);
  assert.equal(c.protocol.closed, true);
  assert.throws(() => c.protocol.request(STATUS_200, undefined, c.stream("d")), RangeError);
  c.receive(frame(FRAME.headers, FLAG.endHeaders | FLAG.endStream, 1, STATUS_200));
  assert.deepEqual(c.log.slice(3), ["a response 200 1", "a close 0 1"]);
});

Deno.test("RST_STREAM closes its stream with its code; a cancelled stream's frames are dropped", () => {
  const c = client();
  c.protocol.request(STATUS_200, undefined, c.stream("a"));
  const b = c.protocol.request(STATUS_200, undefined, c.stream("b"));
  c.sent();
  c.receive(frame(FRAME.rstStream, 0, 1, new Uint8Array([0, 0, 0, H2_CODE.refusedStream])));
  c.protocol.cancel(b);
  const [cancel] = c.sent();
  assert.deepEqual([cancel.type, cancel.streamId, cancel.payload[3]], [FRAME.rstStream, 3, 8]);
  // The cancelled stream's response still goes through the decoder, and reaches no one.
  c.receive(frame(FRAME.headers, FLAG.endHeaders | FLAG.endStream, 3, STATUS_200));
  assert.deepEqual(c.log, ["a close 7 1"]);
});

Deno.test("a body beyond the server's windows waits for WINDOW_UPDATE, then ends the stream", () => {
  const c = client();
  c.protocol.request(STATUS_200, new Uint8Array(100_000), c.stream("a"));
  const first = c.sent();
  assert.equal(first[0].flags & FLAG.endStream, 0);
  const sent = (frames: Frame[]) =>
    frames.filter((f) => f.type === FRAME.data).reduce((n, f) => n + f.payload.length, 0);
  assert.equal(sent(first), 65_535);
  assert.ok(first.every((f) => f.payload.length <= 16_384));
  c.receive(windowUpdateFrame(0, 50_000));
  assert.equal(sent(c.sent()), 0, "the stream's own window is still shut");
  c.receive(windowUpdateFrame(1, 50_000));
  const rest = c.sent();
  assert.equal(sent(rest), 100_000 - 65_535);
  assert.equal(rest.at(-1)!.flags & FLAG.endStream, FLAG.endStream);
});

Deno.test("half a window of DATA received opens the connection's and the stream's windows again", () => {
  const c = client(65_535);
  c.protocol.request(STATUS_200, undefined, c.stream("a"));
  c.sent();
  c.receive(
    frame(FRAME.headers, FLAG.endHeaders, 1, STATUS_200),
    frame(FRAME.data, 0, 1, new Uint8Array(16_384)),
    frame(FRAME.data, 0, 1, new Uint8Array(16_384)),
  );
  const updates = c.sent().filter((f) => f.type === FRAME.windowUpdate);
  assert.deepEqual(
    updates.map((f) => [f.streamId, new DataView(f.payload.buffer).getUint32(0)]),
    [[0, 32_768], [1, 32_768]],
  );
});

Deno.test("a connection error writes GOAWAY with its code, is reported, and ends reading", () => {
  for (
    const [bytes, code] of [
      [frame(FRAME.pushPromise, FLAG.endHeaders, 1, new Uint8Array(4)), H2_CODE.protocolError],
      [frame(FRAME.data, 0, 1, new Uint8Array(16_385)), H2_CODE.frameSizeError],
      [frame(FRAME.headers, FLAG.endHeaders, 1, new Uint8Array([0x80])), H2_CODE.compressionError],
      [frame(FRAME.continuation, FLAG.endHeaders, 1, STATUS_200), H2_CODE.protocolError],
      [frame(FRAME.headers, 0, 1, STATUS_200), H2_CODE.protocolError], // then a PING cuts it
    ] as const
  ) {
    const c = client();
    c.protocol.request(STATUS_200, undefined, c.stream("a"));
    c.sent();
    c.receive(bytes, frame(FRAME.ping, 0, 0, new Uint8Array(8)));
    const sent = c.sent();
    assert.deepEqual(sent.map((f) => f.type), [FRAME.goaway], c.log.join());
    assert.equal(new DataView(sent[0].payload.buffer).getUint32(4), code);
    assert.match(c.log[0], new RegExp(`^error ${code} `));
    assert.equal(c.protocol.failed, true);
    c.protocol.fail();
    assert.deepEqual(c.log.slice(1), ["a close 0 1 gone"]);
  }
});

/** `:status: 200`, then a literal `x-big` without indexing whose value is `valueBytes` long. */
function bigBlock(valueBytes: number): Uint8Array {
  const name = new TextEncoder().encode("x-big");
  const prefix = valueBytes < 127 ? [valueBytes] : [127, ...hpackRest(valueBytes - 127)];
  return concatBytes([
    STATUS_200,
    Uint8Array.of(0x00, name.length),
    name,
    Uint8Array.from(prefix),
    new Uint8Array(valueBytes).fill(0x61),
  ]);
}

/** The continuation octets of an HPACK integer beyond its prefix (RFC 7541 §5.1). */
function hpackRest(value: number): number[] {
  const out: number[] = [];
  while (value >= 128) {
    out.push((value % 128) + 128);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return out;
}

/**
 * Feeds `bytes` as a transport does: through one read buffer reused from its start whenever the
 * receiver took everything, the reads cut at `cut`.
 */
function readInTwo(c: ReturnType<typeof client>, bytes: Uint8Array, cut: number): void {
  const buffer = new Uint8Array(bytes.length);
  let start = 0;
  let end = 0;
  for (const piece of [bytes.subarray(0, cut), bytes.subarray(cut)]) {
    buffer.set(piece, end);
    end += piece.length;
    start += c.protocol.receive(buffer, start, end);
    if (start === end) {
      buffer.fill(0xee); // what the next read overwrites
      start = end = 0;
    }
  }
}

Deno.test("a header block split across reads is decoded whole, wherever the reads cut it", () => {
  const block = bigBlock(40);
  for (let split = 1; split < block.length; split++) {
    const bytes = concatBytes([
      frame(FRAME.headers, FLAG.endStream, 1, block.subarray(0, split)),
      frame(FRAME.continuation, FLAG.endHeaders, 1, block.subarray(split)),
    ]);
    for (let cut = 1; cut < bytes.length; cut++) {
      const c = client();
      c.protocol.request(STATUS_200, undefined, c.stream("a"));
      readInTwo(c, bytes, cut);
      assert.deepEqual(c.log, [`a response 200 ${block.length}`, "a close 0 1"], `${split}/${cut}`);
    }
  }
});

Deno.test("a header block over 16 KiB in HEADERS and CONTINUATION frames read apart is decoded", () => {
  const block = bigBlock(40_000);
  const bytes = concatBytes([
    frame(FRAME.headers, FLAG.endStream, 1, block.subarray(0, 16_384)),
    frame(FRAME.continuation, 0, 1, block.subarray(16_384, 32_768)),
    frame(FRAME.continuation, FLAG.endHeaders, 1, block.subarray(32_768)),
  ]);
  for (const cut of [9 + 16_384, 2 * (9 + 16_384), 20_000]) {
    const c = client();
    c.protocol.request(STATUS_200, undefined, c.stream("a"));
    readInTwo(c, bytes, cut);
    assert.deepEqual(c.log, [`a response 200 ${block.length}`, "a close 0 1"], `cut ${cut}`);
  }
});

/** The GOAWAY code the client sent, or undefined. */
function goawayCode(c: ReturnType<typeof client>): number | undefined {
  const goaway = c.sent().find((f) => f.type === FRAME.goaway);
  return goaway && new DataView(goaway.payload.buffer).getUint32(4);
}

Deno.test("a CONTINUATION flood ends the connection: at most 8 CONTINUATION frames, 64 KiB a block", () => {
  for (const [fragmentBytes, allowed] of [[0, 8], [1, 8], [16_384, 3]] as const) {
    const c = client();
    const id = c.protocol.request(STATUS_200, undefined, c.stream("a"));
    c.protocol.cancel(id); // a stream given up: its block is still read, and still bounded
    c.sent();
    c.receive(frame(FRAME.headers, 0, 1, new Uint8Array(fragmentBytes ? 16_384 : 1).fill(0x88)));
    const fragment = new Uint8Array(fragmentBytes).fill(0x88);
    for (let i = 1; i <= allowed; i++) {
      c.receive(frame(FRAME.continuation, 0, 1, fragment));
      assert.equal(c.protocol.failed, false, `${fragmentBytes}: frame ${i}`);
    }
    c.receive(frame(FRAME.continuation, 0, 1, fragment));
    assert.equal(c.protocol.failed, true, `${fragmentBytes}`);
    assert.equal(goawayCode(c), H2_CODE.enhanceYourCalm);
    assert.match(c.log.at(-1)!, /^error 11 a header block (in over 8 CONTINUATION|over 64 KiB)/);
  }
});

Deno.test("a block of exactly 64 KiB in 8 CONTINUATION frames is taken", () => {
  const block = bigBlock(65_536 - 12);
  assert.equal(block.length, 65_536);
  const c = client();
  c.protocol.request(STATUS_200, undefined, c.stream("a"));
  const frames = [frame(FRAME.headers, FLAG.endStream, 1, block.subarray(0, 7_282))];
  for (let at = 7_282; at < block.length; at += 7_282) {
    const last = at + 7_282 >= block.length;
    frames.push(
      frame(FRAME.continuation, last ? FLAG.endHeaders : 0, 1, block.subarray(at, at + 7_282)),
    );
  }
  assert.equal(frames.length, 9);
  c.receive(...frames);
  assert.deepEqual(c.log, ["a response 200 65536", "a close 0 1"]);
});

Deno.test("PING and SETTINGS the client cannot acknowledge pile up to 1,000, then the connection ends", () => {
  const ping = frame(FRAME.ping, 0, 0, new Uint8Array(8));
  const settings = settingsFrame([]);
  // The writes go out at once: a server may ping as often as it likes.
  const draining = client();
  for (let i = 0; i < 5_000; i++) draining.receive(i % 2 ? ping : settings);
  assert.equal(draining.protocol.failed, false);
  // Nothing written leaves (the server reads nothing): the 1,001st acknowledgement is refused.
  const stuck = client();
  stuck.backlog(1);
  for (let i = 0; i < 1_000; i++) stuck.receive(i % 2 ? ping : settings);
  assert.equal(stuck.protocol.failed, false);
  assert.equal(stuck.written.length, 1_000);
  stuck.receive(ping);
  assert.equal(stuck.protocol.failed, true);
  assert.equal(goawayCode(stuck), H2_CODE.enhanceYourCalm);
  assert.match(stuck.log.at(-1)!, /^error 11 .*1,000 PING and SETTINGS/);
  // Once the writes leave again, the count starts over.
  const relieved = client();
  relieved.backlog(1);
  for (let i = 0; i < 999; i++) relieved.receive(ping);
  relieved.backlog(0);
  relieved.receive(ping);
  relieved.backlog(1);
  for (let i = 0; i < 999; i++) relieved.receive(ping);
  assert.equal(relieved.protocol.failed, false);
});

Deno.test("a window raised past 2^31 - 1 is a FLOW_CONTROL_ERROR: of the stream, or the connection", () => {
  const c = client();
  c.protocol.request(STATUS_200, undefined, c.stream("a"));
  c.protocol.request(STATUS_200, undefined, c.stream("b"));
  c.sent();
  c.receive(windowUpdateFrame(1, 0x7fff_ffff - 65_535), windowUpdateFrame(1, 1));
  assert.deepEqual(c.log, [`a close ${MALFORMED_RESPONSE} 1`]);
  const [rst] = c.sent();
  assert.deepEqual([rst.type, rst.streamId, rst.payload[3]], [
    FRAME.rstStream,
    1,
    H2_CODE.flowControlError,
  ]);
  assert.equal(c.protocol.failed, false);
  c.receive(windowUpdateFrame(0, 0x7fff_ffff - 65_535));
  assert.equal(c.protocol.failed, false, "exactly 2^31 - 1 is allowed");
  c.receive(windowUpdateFrame(0, 1));
  assert.equal(c.protocol.failed, true);
  assert.equal(goawayCode(c), H2_CODE.flowControlError);
  // SETTINGS_INITIAL_WINDOW_SIZE moving an open stream's window past the limit.
  const d = client();
  d.protocol.request(STATUS_200, undefined, d.stream("a"));
  d.receive(windowUpdateFrame(1, 0x7fff_ffff - 65_535));
  d.receive(settingsFrame([[SETTING.initialWindowSize, 65_536]]));
  assert.equal(goawayCode(d), H2_CODE.flowControlError);
});

Deno.test("a DATA frame hands its stream the data's bytes, without the pad length or padding", () => {
  const c = client();
  const got: string[] = [];
  c.protocol.request(new Uint8Array([0x82]), undefined, {
    ...c.stream("a"),
    onData: (n, data, from) => got.push(new TextDecoder().decode(data.subarray(from, from + n))),
  });
  const text = new TextEncoder().encode("expired");
  // Padded: the pad length (3), the data, three bytes of padding.
  const padded = new Uint8Array([3, ...text, 0, 0, 0]);
  c.receive(
    frame(FRAME.headers, FLAG.endHeaders, 1, STATUS_404),
    frame(FRAME.data, FLAG.padded, 1, padded),
    frame(FRAME.data, FLAG.endStream, 1, new TextEncoder().encode(" token")),
  );
  assert.deepEqual(got, ["expired", " token"]);
});

/** A literal field without indexing, its name new: `name: value` (HPACK, no Huffman). */
function literal(name: string, value: string): number[] {
  const bytes = (s: string) => [...new TextEncoder().encode(s)];
  return [0x00, name.length, ...bytes(name), value.length, ...bytes(value)];
}

Deno.test("a stream that keeps its response gets its final head's fields, an interim head's not", async () => {
  const { KeptResponse } = await import("../../../../runner/engine/kept_response.ts");
  const c = client();
  const kept = new KeptResponse(100);
  c.protocol.request(new Uint8Array([0x82]), undefined, { ...c.stream("a"), kept });
  c.protocol.request(new Uint8Array([0x82]), undefined, c.stream("b"));
  c.receive(
    frame(
      FRAME.headers,
      FLAG.endHeaders,
      1,
      Uint8Array.of(...STATUS_100, ...literal("x-interim", "1")),
    ),
    frame(
      FRAME.headers,
      FLAG.endHeaders | FLAG.endStream,
      1,
      Uint8Array.of(...STATUS_200, ...literal("content-type", "application/json")),
    ),
    frame(
      FRAME.headers,
      FLAG.endHeaders | FLAG.endStream,
      3,
      Uint8Array.of(...STATUS_404, ...literal("x-b", "2")),
    ),
  );
  assert.deepEqual(c.log, ["a response 200 32", "a close 0 1", "b response 404 8", "b close 0 3"]);
  const headers = kept.headers();
  assert.deepEqual([headers.header("content-type"), headers.header("x-interim")], [[
    "application/json",
  ], []]);
});

Deno.test("a gRPC stream reports its trailers' grpc-status and grpc-message before it closes", () => {
  const c = client();
  const grpc = (name: string): H2StreamEvents => ({
    ...c.stream(name),
    grpc: true,
    onTrailers: (status, message, octets) =>
      c.log.push(`${name} trailers ${status} "${message}" ${octets}`),
  });
  c.protocol.request(new Uint8Array([0x82]), undefined, grpc("a"));
  c.protocol.request(new Uint8Array([0x82]), undefined, grpc("b"));
  c.protocol.request(new Uint8Array([0x82]), undefined, c.stream("http"));
  const trailers = Uint8Array.of(
    ...literal("grpc-status", "14"),
    ...literal("grpc-message", "down%20now"),
  );
  c.receive(
    frame(FRAME.headers, FLAG.endHeaders, 1, STATUS_200),
    frame(FRAME.data, 0, 1, new Uint8Array(5)),
    frame(FRAME.headers, FLAG.endHeaders | FLAG.endStream, 1, trailers),
    // A trailers-only response: one HEADERS with the status and grpc-status, END_STREAM.
    frame(
      FRAME.headers,
      FLAG.endHeaders | FLAG.endStream,
      3,
      Uint8Array.of(...STATUS_200, ...literal("grpc-status", "12")),
    ),
    // An HTTP stream's trailers are decoded (the table stays in step) and not reported.
    frame(FRAME.headers, FLAG.endHeaders, 5, STATUS_200),
    frame(FRAME.headers, FLAG.endHeaders | FLAG.endStream, 5, trailers),
  );
  assert.deepEqual(c.log, [
    "a response 200 1",
    "a data 5",
    `a trailers 14 "down%20now" ${trailers.length}`,
    "a close 0 1",
    "b response 200 17",
    'b trailers 12 "" 0',
    "b close 0 3",
    "http response 200 1",
    "http close 0 5",
  ]);
});

Deno.test("a gRPC stream that keeps its response reads a trailers-only head's grpc-status", async () => {
  const { KeptResponse } = await import("../../../../runner/engine/kept_response.ts");
  const c = client();
  const kept = new KeptResponse(100);
  c.protocol.request(new Uint8Array([0x82]), undefined, {
    ...c.stream("a"),
    kept,
    grpc: true,
    onTrailers: (status, message, octets) =>
      c.log.push(`a trailers ${status} ${message} ${octets}`),
  });
  c.receive(frame(
    FRAME.headers,
    FLAG.endHeaders | FLAG.endStream,
    1,
    Uint8Array.of(...STATUS_200, ...literal("grpc-status", "5"), ...literal("grpc-message", "x")),
  ));
  assert.deepEqual(c.log, ["a response 200 32", "a trailers 5 x 0", "a close 0 1"]);
});
