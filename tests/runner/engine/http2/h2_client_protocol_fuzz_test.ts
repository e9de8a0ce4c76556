/**
 * The HTTP/2 reader's frame fuzzer: seeded random frame sequences (every frame type and some
 * unknown, random flags, stream ids near the streams open, lengths legal and not, HPACK bytes
 * valid and not, CONTINUATION runs, floods of PING and SETTINGS while the writes back up) go
 * through {@linkcode H2ClientProtocol.receive} in reads cut at random offsets of a reused read
 * buffer, as a transport delivers them. Whatever arrives, the protocol must not throw, must give
 * each stream at most one response and exactly one close (none after it), must write only whole,
 * well-formed frames, nothing after its GOAWAY, and must keep what it holds bounded. Bounded in
 * count and time; `TAILGATE_FUZZ_SEED` replays a seed, which every failure names.
 */
import assert from "node:assert/strict";
import { H2ClientProtocol } from "../../../../runner/engine/http2/h2_client_protocol.ts";
import {
  CLIENT_PREFACE,
  concatBytes,
  FLAG,
  FRAME,
  frame,
} from "../../../../runner/engine/http2/h2_frame.ts";
import { mulberry32 } from "../../../_helpers/seeded_random.ts";

const MAX_CASES = 3_000;
const MAX_TOTAL_MS = 10_000;
const MAX_FRAMES_PER_CASE = 60;

/** HPACK bytes: valid fields (`:status` in several forms), and random octets. */
const BLOCKS: readonly Uint8Array[] = [
  Uint8Array.of(0x88),
  Uint8Array.of(0x8d),
  Uint8Array.of(0x08, 0x03, 0x31, 0x30, 0x30), // :status 100
  Uint8Array.of(0x08, 0x03, 0x32, 0x65, 0x32), // :status 2e2
  Uint8Array.of(0x48, 0x03, 0x32, 0x30, 0x34, 0xbe), // :status 204, indexed, then used again
  Uint8Array.of(0x20, 0x3f, 0xe1, 0x1f, 0x88), // table size 0, then 4096
  Uint8Array.of(0x3f, 0xe1, 0x3f), // a size above the SETTINGS
  Uint8Array.of(0x82), // :method GET: no status
];

interface Check {
  responses: Map<number, number>;
  closes: Map<number, number>;
  goaways: number;
  afterFailure: number;
}

/** A random frame for a connection whose client opened streams 1, 3, ... `2 * open - 1`. */
function randomFrame(next: () => number, open: number): Uint8Array {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const type = next() < 0.9 ? pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) : Math.floor(next() * 256);
  const flags = next() < 0.7 ? pick([0, 1, 4, 5, 8, 0x20, 0x25]) : Math.floor(next() * 256);
  const streamId = next() < 0.8
    ? 2 * Math.floor(next() * (open + 1)) + 1
    : pick([0, 2, 0x7fff_ffff, Math.floor(next() * 1000)]);
  let payload: Uint8Array;
  const r = next();
  if ((type === FRAME.headers || type === FRAME.continuation) && r < 0.7) {
    payload = pick(BLOCKS);
    if (flags & FLAG.padded && payload.length > 0) payload = Uint8Array.of(0, ...payload);
    if (flags & FLAG.priority) payload = Uint8Array.of(0, 0, 0, 0, 0, ...payload);
  } else if (type === FRAME.settings && r < 0.6) {
    payload = Uint8Array.from({ length: 6 * Math.floor(next() * 3) }, () => next() * 256);
  } else if (r < 0.9) {
    payload = Uint8Array.from({ length: pick([0, 1, 4, 8, 9, 17]) }, () => next() * 256);
  } else {
    payload = new Uint8Array(pick([16_384, 16_385, 70_000]));
  }
  return frame(type, flags, streamId, payload.subarray(0, Math.min(payload.length, 0xff_ffff)));
}

/** Every frame in the client's output is whole, of a known type, and the output starts right. */
function checkWritten(bytes: Uint8Array, where: string): void {
  let at = 0;
  if (CLIENT_PREFACE.every((b, i) => bytes[i] === b)) at = CLIENT_PREFACE.length;
  while (at < bytes.length) {
    assert.ok(bytes.length - at >= 9, `a cut frame header at ${where}`);
    const length = (bytes[at] << 16) | (bytes[at + 1] << 8) | bytes[at + 2];
    assert.ok(length <= 16_384, `a frame of ${length} octets at ${where}`);
    assert.ok(
      [0, 1, 3, 4, 6, 7, 8, 9].includes(bytes[at + 3]),
      `type ${bytes[at + 3]} at ${where}`,
    );
    at += 9 + length;
    assert.ok(at <= bytes.length, `a cut frame at ${where}`);
  }
}

Deno.test("the HTTP/2 reader survives random frames in random reads, its promises kept", () => {
  const seed = Number(Deno.env.get("TAILGATE_FUZZ_SEED") ?? 20261129);
  const next = mulberry32(seed);
  const startMs = performance.now();
  let cases = 0;
  for (; cases < MAX_CASES && performance.now() - startMs < MAX_TOTAL_MS; cases++) {
    const where = `seed ${seed}, case ${cases}`;
    const check: Check = { responses: new Map(), closes: new Map(), goaways: 0, afterFailure: 0 };
    const written: Uint8Array[] = [];
    const backlogBytes = next() < 0.2 ? 1 : 0;
    const protocol: H2ClientProtocol = new H2ClientProtocol(16 * 1024 * 1024, {
      write: (bytes) => {
        if (check.goaways > 0) check.afterFailure++;
        written.push(bytes);
        return backlogBytes;
      },
      onSettings: () => {},
      onGoaway: () => {},
      onConnectionError: () => check.goaways++,
    });
    protocol.start();
    const open = 1 + Math.floor(next() * 4);
    for (let i = 0; i < open; i++) {
      protocol.request(Uint8Array.of(0x82), next() < 0.3 ? new Uint8Array(100_000) : undefined, {
        onResponse: (status) => {
          assert.ok(!check.closes.has(2 * i + 1), `a response after the close at ${where}`);
          assert.ok(status >= 200 && status <= 999, `status ${status} at ${where}`);
          check.responses.set(2 * i + 1, (check.responses.get(2 * i + 1) ?? 0) + 1);
        },
        onData: () => assert.ok(!check.closes.has(2 * i + 1), `DATA after the close at ${where}`),
        onClose: (_code, id) => {
          assert.equal(id, 2 * i + 1, `another stream's close at ${where}`);
          check.closes.set(id, (check.closes.get(id) ?? 0) + 1);
        },
      });
    }
    // A run of frames: random, or a flood of one kind.
    const frames: Uint8Array[] = [];
    const flood = next();
    const count = flood < 0.1 ? 2_000 : 1 + Math.floor(next() * MAX_FRAMES_PER_CASE);
    for (let i = 0; i < count; i++) {
      if (flood < 0.04) frames.push(frame(FRAME.ping, 0, 0, new Uint8Array(8)));
      else if (flood < 0.07) frames.push(frame(FRAME.continuation, 0, 1, new Uint8Array(3)));
      else if (flood < 0.1) frames.push(frame(FRAME.settings, 0, 0, new Uint8Array(0)));
      else frames.push(randomFrame(next, open));
    }
    if (flood >= 0.04 && flood < 0.07) frames.unshift(frame(FRAME.headers, 0, 1, BLOCKS[0]));
    const bytes = concatBytes(frames);
    // Delivered as a transport does: a reused buffer, reads cut at random offsets.
    const buffer = new Uint8Array(64 * 1024 + 100_000);
    let start = 0;
    let end = 0;
    for (let at = 0; at < bytes.length && !protocol.failed;) {
      const n = Math.min(bytes.length - at, 1 + Math.floor(next() * 20_000));
      if (end + n > buffer.length) {
        buffer.copyWithin(0, start, end);
        end -= start;
        start = 0;
      }
      buffer.set(bytes.subarray(at, at + n), end);
      end += n;
      at += n;
      try {
        start += protocol.receive(buffer, start, end);
      } catch (error) {
        assert.fail(`receive threw at ${where}: ${error}`);
      }
      assert.ok(start <= end, `took more than it had at ${where}`);
      if (start === end) {
        buffer.fill(0xee, 0, end);
        start = end = 0;
      }
    }
    const output = concatBytes(written);
    checkWritten(output, where);
    assert.ok(check.goaways <= 1, `${check.goaways} connection errors at ${where}`);
    assert.equal(check.afterFailure, 0, `a write after the GOAWAY at ${where}`);
    assert.ok(output.length < 1_000_000 + 200_000, `${output.length} octets written at ${where}`);
    for (const [id, n] of check.responses) {
      assert.equal(n, 1, `${n} responses on ${id} at ${where}`);
    }
    // A flood is bounded: 2,000 CONTINUATION frames, or acknowledgements that cannot leave.
    const bounded = (flood >= 0.04 && flood < 0.07) || (flood < 0.1 && backlogBytes > 0);
    if (bounded) assert.equal(check.goaways, 1, `a flood taken whole at ${where}`);
    protocol.fail();
    for (let i = 0; i < open; i++) {
      assert.equal(check.closes.get(2 * i + 1), 1, `stream ${2 * i + 1}'s closes at ${where}`);
    }
  }
  assert.ok(cases >= 100, `only ${cases} cases in ${MAX_TOTAL_MS} ms`);
});
