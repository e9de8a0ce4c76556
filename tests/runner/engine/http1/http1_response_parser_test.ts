import assert from "node:assert/strict";
import {
  Http1ResponseParser,
  MAX_RESPONSE_HEAD_BYTES,
} from "../../../../runner/engine/http1/http1_response_parser.ts";
import { NGINX_H2C_REPLY, NODE_H2C_REPLY } from "../../../_helpers/http2_servers.ts";
import { BodyCapture } from "../../../../runner/engine/body_sample.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Parsed {
  done: boolean;
  failed: boolean;
  status: number;
  keepAlive: boolean;
  /** Bytes the parser did not consume (past the response, or an unfinished head line). */
  leftover: string;
}

/**
 * Feeds `bytes` cut at `cuts`, keeping unconsumed bytes in front of the next piece as the
 * connection does; `eof` calls `finish()` at the end.
 */
function parse(
  input: string | Uint8Array,
  options: { cuts?: number[]; isHead?: boolean; eof?: boolean; parser?: Http1ResponseParser } = {},
): Parsed {
  const bytes = typeof input === "string" ? encoder.encode(input) : input;
  const parser = options.parser ?? new Http1ResponseParser();
  parser.reset(options.isHead ?? false);
  let pending = new Uint8Array(0);
  let from = 0;
  for (const cut of [...(options.cuts ?? []), bytes.length]) {
    const buffer = new Uint8Array(pending.length + cut - from);
    buffer.set(pending);
    buffer.set(bytes.subarray(from, cut), pending.length);
    from = cut;
    pending = buffer.subarray(parser.execute(buffer, 0, buffer.length));
  }
  if (options.eof) parser.finish();
  const { done, failed, status, keepAlive } = parser;
  return { done, failed, status, keepAlive, leftover: decoder.decode(pending) };
}

/** Every way of cutting `text` in two, and one byte at a time. */
function everySplit(text: string): number[][] {
  const length = encoder.encode(text).length;
  const splits = Array.from({ length: length + 1 }, (_, i) => [i]);
  splits.push(Array.from({ length }, (_, i) => i));
  return splits;
}

const CHUNKED_WITH_TRAILERS = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
  "5;name=value\r\nhello\r\n1A\r\n" + "x".repeat(26) +
  "\r\n0\r\nX-Checksum: abc\r\nX-More: 1\r\n\r\n";

const RESPONSES: Array<{ name: string; text: string; eof?: boolean; isHead?: boolean }> = [
  { name: "content-length", text: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello" },
  { name: "chunked with trailers", text: CHUNKED_WITH_TRAILERS },
  { name: "close-delimited", text: "HTTP/1.1 200 OK\r\nX-A: b\r\n\r\nstreamed body", eof: true },
  {
    name: "interim 100 then 201",
    text: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n",
  },
  { name: "HEAD", text: "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", isHead: true },
];

Deno.test("a response split at any byte parses the same as the whole response", () => {
  for (const { name, text, eof, isHead } of RESPONSES) {
    const whole = parse(text, { eof, isHead });
    assert.equal(whole.done, true, name);
    assert.equal(whole.leftover, "", name);
    for (const cuts of everySplit(text)) {
      assert.deepEqual(parse(text, { cuts, eof, isHead }), whole, `${name} cut at ${cuts}`);
    }
  }
});

Deno.test("a content-length response is done at its last body byte, not before", () => {
  const text = "HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello";
  const partial = parse(text.slice(0, -1));
  assert.deepEqual([partial.done, partial.failed, partial.status], [false, false, 200]);
  const whole = parse(text);
  assert.deepEqual([whole.done, whole.status, whole.keepAlive], [true, 200, true]);
});

Deno.test("chunked: trailers are read to the final blank line and later bytes are left", () => {
  assert.equal(parse(CHUNKED_WITH_TRAILERS.slice(0, -2)).done, false);
  const r = parse(CHUNKED_WITH_TRAILERS + "HTTP/1.1 200");
  assert.deepEqual([r.done, r.keepAlive, r.leftover], [true, true, "HTTP/1.1 200"]);
  const noTrailers = parse(
    "HTTP/1.1 200 OK\r\ntransfer-encoding: CHUNKED\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
  );
  assert.deepEqual([noTrailers.done, noTrailers.leftover], [true, ""]);
});

Deno.test("HEAD, 204 and 304 responses have no body whatever their headers say", () => {
  const head = parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nnext", { isHead: true });
  assert.deepEqual([head.done, head.leftover], [true, "next"]);
  for (const status of [204, 304]) {
    const r = parse(`HTTP/1.1 ${status} X\r\nContent-Length: 10\r\n\r\n`);
    assert.deepEqual([r.done, r.status, r.keepAlive], [true, status, true]);
  }
  const chunkedHead = parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", {
    isHead: true,
  });
  assert.equal(chunkedHead.done, true);
});

Deno.test("1xx interim responses are skipped; 101 ends the response and the connection", () => {
  const r = parse(
    "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\n" +
      "Content-Length: 0\r\n\r\n",
  );
  assert.deepEqual([r.done, r.status], [true, 200]);
  const interimOnly = parse("HTTP/1.1 100 Continue\r\n\r\n");
  assert.deepEqual([interimOnly.done, interimOnly.status], [false, 0]);
  const upgrade = parse("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n");
  assert.deepEqual([upgrade.done, upgrade.status, upgrade.keepAlive], [true, 101, false]);
});

Deno.test("without length or chunking the body runs to the close and the connection ends", () => {
  const text = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end";
  const open = parse(text);
  assert.deepEqual([open.done, open.keepAlive, open.leftover], [false, false, ""]);
  assert.equal(parse(text, { eof: true }).done, true);
  const gzip = parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nzz", { eof: true });
  assert.deepEqual([gzip.done, gzip.keepAlive], [true, false]);
});

Deno.test("a close before the framed end leaves the response incomplete", () => {
  for (
    const text of [
      "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
      "HTTP/1.1 200 OK\r\nContent-Len",
      "",
    ]
  ) {
    const r = parse(text, { eof: true });
    assert.deepEqual([r.done, r.failed], [false, false], JSON.stringify(text));
  }
});

Deno.test("keep-alive follows the version and the connection header", () => {
  const keepAlive = (head: string) => parse(`${head}\r\nContent-Length: 0\r\n\r\n`).keepAlive;
  assert.equal(keepAlive("HTTP/1.1 200 OK"), true);
  assert.equal(keepAlive("HTTP/1.1 200 OK\r\nConnection: close"), false);
  assert.equal(keepAlive("HTTP/1.1 200 OK\r\nconnection: Upgrade, CLOSE"), false);
  assert.equal(keepAlive("HTTP/1.1 200 OK\r\nConnection: closed"), true);
  assert.equal(keepAlive("HTTP/1.0 200 OK"), false);
  assert.equal(keepAlive("HTTP/1.0 200 OK\r\nConnection: Keep-Alive"), true);
  assert.equal(keepAlive("HTTP/1.0 200 OK\r\nConnection: keep-alive, close"), false);
  const both = parse(
    "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n" +
      "0\r\n\r\n",
  );
  assert.deepEqual([both.done, both.keepAlive], [true, false]);
});

Deno.test("bytes that cannot start a status line fail at once, before any newline", () => {
  const garbage = new Uint8Array([0x00, 0xff, 0x74, 0x61]);
  const r = parse(garbage);
  assert.deepEqual([r.failed, r.done], [true, false]);
  assert.equal(parse("HTTx").failed, true);
  assert.equal(parse("HTT").failed, false);
});

Deno.test("malformed heads and chunk framing are protocol errors, not exceptions", () => {
  const bad = [
    "HTTP/2 200 OK\r\n\r\n",
    "HTTP/1.1 2x0 OK\r\n\r\n",
    "HTTP/1.1 200OK\r\n\r\n",
    "HTTP/1.1 099 Low\r\n\r\n",
    "HTTP/1.1 200 OK\n\n",
    "HTTP/1.1 200 OK\r\nNo-Colon\r\n\r\n",
    "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
    "HTTP/1.1 200 OK\r\n: empty-name\r\n\r\n",
    "HTTP/1.1 200 OK\r\nX: a\r\n folded\r\n\r\n",
    "HTTP/1.1 200 OK\r\nX: a\x00b\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000\r\n",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\n\r\n",
  ];
  for (const text of bad) {
    const parser = new Http1ResponseParser();
    const r = parse(text, { parser });
    assert.deepEqual([r.failed, r.done], [true, false], JSON.stringify(text));
    assert.ok(parser.error.length > 0);
    assert.equal(parser.keepAlive, false);
  }
  const same = parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\ncontent-length: 2\r\n\r\nok");
  assert.equal(same.done, true);
});

Deno.test("a head over the limit fails, even when it never ends a line", () => {
  const parser = new Http1ResponseParser(256);
  const long = `HTTP/1.1 200 OK\r\nX-Big: ${"a".repeat(300)}`;
  assert.equal(parse(long, { parser, cuts: [20, 100, 200] }).failed, true);
  assert.match(parser.error, /longer than 256 bytes/);
  const manyLines = `HTTP/1.1 200 OK\r\n${"X-A: b\r\n".repeat(40)}\r\n`;
  assert.equal(parse(manyLines, { parser }).failed, true);
  const fits = `HTTP/1.1 200 OK\r\n${"X-A: b\r\n".repeat(20)}Content-Length: 0\r\n\r\n`;
  assert.equal(parse(fits, { parser }).done, true);
  const huge = `HTTP/1.1 200 OK\r\nX-Big: ${"a".repeat(MAX_RESPONSE_HEAD_BYTES)}\r\n\r\n`;
  assert.equal(parse(huge).failed, true);
  const trailers = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" +
    `X-T: ${"t".repeat(300)}\r\n\r\n`;
  assert.equal(parse(trailers, { parser }).failed, true);
});

Deno.test("one parser reads response after response once reset", () => {
  const parser = new Http1ResponseParser();
  assert.equal(parse("HTTP/1.1 500 Oops\r\nConnection: close\r\n\r\n", { parser }).done, false);
  const second = parse("HTTP/1.1 404 Not Found\r\nContent-Length: 1\r\n\r\nx", { parser });
  assert.deepEqual([second.done, second.status, second.keepAlive], [true, 404, true]);
  const failed = parse("junk", { parser });
  assert.equal(failed.failed, true);
  const after = parse("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", { parser });
  assert.deepEqual([after.done, after.failed, parser.error], [true, false, ""]);
});

Deno.test("a status line without a reason phrase is accepted", () => {
  const r = parse("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n");
  assert.deepEqual([r.done, r.status], [true, 200]);
});

Deno.test("an HTTP/2 server's reply fails as HTTP/2 however it is cut, waiting for the frame header", () => {
  for (const reply of [NGINX_H2C_REPLY, NODE_H2C_REPLY]) {
    for (const cuts of everyByteSplit(reply.length)) {
      const parser = new Http1ResponseParser();
      const parsed = parse(reply, { cuts, parser });
      assert.equal(parsed.failed, true, `cut at ${cuts}`);
      assert.equal(parser.http2, true, `cut at ${cuts}`);
      assert.match(parser.error, /HTTP\/2 SETTINGS frame/);
    }
  }
  // Fewer bytes than a frame header: nothing is decided yet, and nothing is consumed.
  const parser = new Http1ResponseParser();
  const short = parse(NGINX_H2C_REPLY.subarray(0, 8), { parser });
  assert.deepEqual([short.done, short.failed, short.leftover.length], [false, false, 8]);
  // The next response on the same parser starts clean.
  assert.equal(parse("HTTP/1.1 204 No Content\r\n\r\n", { parser }).status, 204);
  assert.equal(parser.http2, false);
});

Deno.test("bytes led by 0 that are no HTTP/2 frame fail as not HTTP, not as HTTP/2", () => {
  const parser = new Http1ResponseParser();
  const parsed = parse(new Uint8Array([0, 0, 0, 1, 0, 0, 0, 0, 1, 10]), { parser });
  assert.equal(parsed.failed, true);
  assert.equal(parser.http2, false);
  assert.equal(parser.error, "response does not start with HTTP/");
});

/** Every way of cutting `length` bytes in two, and one byte at a time. */
function everyByteSplit(length: number): number[][] {
  const splits = Array.from({ length: length + 1 }, (_, i) => [i]);
  splits.push(Array.from({ length }, (_, i) => i));
  return splits;
}

/** Parses `input` whole with a parser that captures the body of the statuses in `capture`. */
function captured(
  input: string,
  options: { isHead?: boolean; eof?: boolean; cuts?: number[] } = {},
) {
  const parser = new Http1ResponseParser();
  const seen: number[] = [];
  let capture: BodyCapture | undefined;
  parser.onFinalStatus = (status) => {
    seen.push(status);
    return status === 200 ? undefined : capture = new BodyCapture();
  };
  const parsed = parse(input, { ...options, parser });
  const body = capture && decoder.decode(capture.bytes.subarray(0, capture.length));
  return { parsed, seen, body, bodyBytes: capture?.bodyBytes, kept: parser.capture === capture };
}

Deno.test("a body the parser was asked to capture is kept as sent: content-length, chunked, close-delimited", () => {
  const length = captured('HTTP/1.1 401 No\r\nContent-Length: 19\r\n\r\n{"error":"expired"}');
  assert.deepEqual(
    { body: length.body, bodyBytes: length.bodyBytes, done: length.parsed.done, kept: length.kept },
    { body: '{"error":"expired"}', bodyBytes: 19, done: true, kept: true },
  );
  // Chunk data only: no sizes, extensions, line ends or trailers.
  for (const cuts of everySplit(CHUNKED_WITH_TRAILERS.replace("200 OK", "503 Busy"))) {
    const chunked = captured(CHUNKED_WITH_TRAILERS.replace("200 OK", "503 Busy"), { cuts });
    assert.equal(chunked.body, "hello" + "x".repeat(26), `cut at ${cuts}`);
    assert.equal(chunked.parsed.done, true);
  }
  const closed = captured("HTTP/1.1 500 Oops\r\n\r\nstreamed body", { eof: true });
  assert.equal(closed.body, "streamed body");
});

Deno.test("the parser asks once per final status, never for an interim one, and a bodiless answer captures nothing", () => {
  const interim = captured(
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\ngone",
  );
  assert.deepEqual(interim.seen, [404]);
  assert.equal(interim.body, "gone");
  const head = captured("HTTP/1.1 403 No\r\nContent-Length: 99\r\n\r\n", { isHead: true });
  assert.deepEqual([head.body, head.bodyBytes, head.parsed.done], ["", 0, true]);
  const ok = captured("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello");
  assert.deepEqual([ok.seen, ok.body], [[200], undefined]);
});

Deno.test("a reset parser forgets the capture of the response before", () => {
  const parser = new Http1ResponseParser();
  parser.onFinalStatus = () => new BodyCapture();
  parse("HTTP/1.1 500 Oops\r\nContent-Length: 2\r\n\r\nno", { parser });
  assert.ok(parser.capture);
  parser.onFinalStatus = () => undefined;
  parse("HTTP/1.1 500 Oops\r\nContent-Length: 2\r\n\r\nno", { parser });
  assert.equal(parser.capture, undefined);
});

Deno.test("a 429's or 503's Retry-After is read, any other status's never", () => {
  const parse = (head: string) => {
    const parser = new Http1ResponseParser();
    parser.reset(false);
    const bytes = encoder.encode(head);
    parser.execute(bytes, 0, bytes.length);
    assert.ok(parser.done, head);
    return parser.retryAfterS;
  };
  assert.equal(parse("HTTP/1.1 429 Too Many\r\nRETRY-AFTER: 7 \r\ncontent-length: 0\r\n\r\n"), 7);
  assert.equal(parse("HTTP/1.1 503 Busy\r\nContent-Length: 0\r\nRetry-After: 0\r\n\r\n"), 0);
  assert.ok(Number.isNaN(parse("HTTP/1.1 200 OK\r\nRetry-After: 7\r\nContent-Length: 0\r\n\r\n")));
  assert.ok(Number.isNaN(parse("HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n")));
  assert.ok(
    Number.isNaN(parse("HTTP/1.1 429 No\r\nRetry-After: later\r\nContent-Length: 0\r\n\r\n")),
  );
  // An interim response's header is not the final one's.
  assert.ok(
    Number.isNaN(
      parse(
        "HTTP/1.1 103 Early\r\nRetry-After: 9\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
      ),
    ),
  );
});

Deno.test("reset() forgets the previous response's Retry-After", () => {
  const parser = new Http1ResponseParser();
  parser.reset(false);
  const first = encoder.encode("HTTP/1.1 429 X\r\nRetry-After: 3\r\nContent-Length: 0\r\n\r\n");
  parser.execute(first, 0, first.length);
  assert.equal(parser.retryAfterS, 3);
  parser.reset(false);
  const second = encoder.encode("HTTP/1.1 429 X\r\nContent-Length: 0\r\n\r\n");
  parser.execute(second, 0, second.length);
  assert.ok(Number.isNaN(parser.retryAfterS));
});
