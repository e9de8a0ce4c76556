import assert from "node:assert/strict";
import { EpollLoop } from "../../../../runner/engine/native/epoll_loop.ts";
import { prepareRequest } from "../../../../runner/engine/http1/http1_request.ts";
import { NET, openLibcNet, socketAddress } from "../../../../runner/engine/native/libc_net.ts";
import { errnoKind, NativeConnection } from "../../../../runner/engine/native/native_connection.ts";
import { PERFORMANCE_CLOCK, type PreparedRequest } from "../../../../runner/engine/types.ts";
import { startTarget } from "../../../../runner/target/mod.ts";
import { tcpServer } from "../../../_helpers/tcp_server.ts";
import { h2cServer } from "../../../_helpers/http2_servers.ts";

const libc = openLibcNet();
const ignore = libc === undefined; // not Linux, or no FFI: the engine uses Deno's sockets
const encoder = new TextEncoder();

function request(url: string, method = "GET", bodyBytes = 0): PreparedRequest {
  return prepareRequest({
    label: `${method} /`,
    method,
    url,
    headers: [],
    weight: 1,
    timeoutMs: 2_000,
    expect: { codes: [], classes: [2] },
    ...(bodyBytes > 0 ? { body: { kind: "text" as const, text: "x".repeat(bodyBytes) } } : {}),
  }, 0);
}

/** A loop and a connection to `url`, closed when the test's scope ends. */
function connect(url: string, onHttp2Reply?: () => void, clock = PERFORMANCE_CLOCK) {
  const loop = new EpollLoop({ libc: libc!, clock });
  const { hostname, port } = new URL(url);
  const connection = new NativeConnection({
    loop,
    clock,
    socketAddress: socketAddress(hostname, Number(port)),
    onHttp2Reply,
  });
  /**
   * Runs the loop until `promise` settles. The servers here live on this thread, so the loop
   * polls without waiting and lets the thread's event loop run a timer turn in between (a bare
   * macrotask yield does not give their sockets' I/O a turn).
   */
  const drive = async <T>(promise: Promise<T>): Promise<T> => {
    let settled = false;
    promise.finally(() => settled = true);
    const giveUpMs = performance.now() + 5_000;
    while (!settled && performance.now() < giveUpMs) {
      loop.poll(0);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    assert.ok(settled, "the request never settled");
    return await promise;
  };
  return Object.assign(connection, {
    loop,
    drive,
    [Symbol.dispose]: () => {
      connection.close();
      loop.close();
    },
  });
}

/** Reads one request head and `bodyBytes` after it; false at end of stream. */
async function readRequest(conn: Deno.Conn, bodyBytes = 0): Promise<boolean> {
  const buffer = new Uint8Array(64 * 1024);
  let seen = 0;
  let head = "";
  while (!head.includes("\r\n\r\n")) {
    const n = await conn.read(buffer);
    if (n === null) return false;
    head += new TextDecoder().decode(buffer.subarray(0, n));
  }
  seen = head.length - head.indexOf("\r\n\r\n") - 4;
  while (seen < bodyBytes) {
    const n = await conn.read(buffer);
    if (n === null) return false;
    seen += n;
  }
  return true;
}

const OK = encoder.encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");

Deno.test({
  name: "native: 200s on one kept-alive socket, timed and counted",
  ignore,
  async fn() {
    await using target = await startTarget({ mode: "hello", port: 0 });
    using connection = connect(target.url);
    assert.equal(await connection.drive(connection.open()), undefined);
    const get = request(target.url);
    for (let i = 0; i < 3; i++) {
      const before = performance.now();
      const outcome = await connection.drive(connection.send(get));
      assert.deepEqual([outcome.status, outcome.error], [200, undefined]);
      assert.equal(outcome.bytesSent, get.bytes.length);
      assert.ok(outcome.bytesReceived > 0);
      assert.ok(before <= outcome.writtenAtMs && outcome.writtenAtMs <= outcome.completedAtMs);
      assert.equal(connection.busy, false);
    }
    assert.equal(connection.socketsOpened, 1);
  },
});

Deno.test({
  name: "native: a request that opened its connection says how long the connect took",
  ignore,
  async fn() {
    await using server = tcpServer(async (conn) => {
      if (await readRequest(conn)) {
        await conn.write(encoder.encode(
          "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok",
        ));
      }
    });
    // Each reading 1 ms on from the last: a connect spans two readings, so it takes time.
    let reads = 0;
    const clock = { nowMs: () => performance.now() + reads++ };
    using connection = connect(server.url, undefined, clock);
    assert.equal(await connection.drive(connection.open()), undefined);
    const first = await connection.drive(connection.send(request(server.url)));
    assert.deepEqual([first.status, first.connectMs], [200, 0], "opened before the request");
    const calledAtMs = clock.nowMs();
    const second = await connection.drive(connection.send(request(server.url)));
    assert.equal(second.status, 200);
    assert.ok(second.connectMs! > 0, `${second.connectMs}`);
    assert.ok(second.writtenAtMs - second.connectMs! >= calledAtMs, "the connect began at send");
    assert.equal(connection.socketsOpened, 2);
  },
});

Deno.test({
  name: "native: a response read late completes when it arrived (the kernel's receive timestamp)",
  ignore,
  async fn() {
    let answeredAtMs = NaN;
    await using server = tcpServer(async (conn) => {
      while (await readRequest(conn)) {
        answeredAtMs = performance.now();
        await conn.write(OK);
      }
    });
    using connection = connect(server.url);
    // A first exchange, and a pause: the kernel turns stamping on in deferred work (see below).
    assert.equal((await connection.drive(connection.send(request(server.url)))).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    answeredAtMs = NaN;
    const sent = connection.send(request(server.url));
    // The server answers on this thread's event loop while the epoll loop is not polled.
    while (connection.busy && !(answeredAtMs === answeredAtMs)) {
      connection.loop.poll(0); // writes the request once connected
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const readFromMs = answeredAtMs + 60;
    while (performance.now() < readFromMs) await new Promise((r) => setTimeout(r, 10));
    const outcome = await connection.drive(sent);
    assert.equal(outcome.status, 200);
    // Read at least 60 ms after the answer; the completion is the answer's arrival.
    assert.ok(
      outcome.completedAtMs - answeredAtMs < 30,
      `completed ${(outcome.completedAtMs - answeredAtMs).toFixed(2)} ms after the answer`,
    );
    assert.ok(outcome.completedAtMs >= outcome.writtenAtMs);
  },
});

/** The least of five waits: a busy machine can only lengthen a wait, never shorten one. */
const leastOf = (wait: () => number) => Math.min(...Array.from({ length: 5 }, wait));

/**
 * A libc socket connected to a Deno listener on loopback, and the listener's end of it: disposing
 * of it closes the socket, its peer and the listener, and `loop` (which watched it) when given.
 */
async function connectedSocket(loop?: EpollLoop) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const fd = libc!.symbols.socket(NET.AF_INET, NET.SOCK_STREAM, 0);
  const accepted = listener.accept();
  assert.equal(libc!.symbols.connect(fd, socketAddress("127.0.0.1", listener.addr.port), 16), 0);
  const peer = await accepted;
  return {
    fd,
    peer,
    [Symbol.dispose]() {
      loop?.remove(fd);
      libc!.symbols.close(fd);
      peer.close();
      listener.close();
      loop?.close();
    },
  };
}

Deno.test({
  name: "native: recvTimed reads into each caller's buffer, looking its address up once per buffer",
  ignore,
  async fn() {
    using socket = await connectedSocket();
    const { fd, peer } = socket;
    const pointerOf = Deno.UnsafePointer.of;
    let lookups = 0;
    Deno.UnsafePointer.of = (value) => {
      lookups++;
      return pointerOf(value);
    };
    try {
      // Two connections' buffers, read in turn (as 50 connections' are under load), and a read
      // after a kept head line (into a view at an offset of the same buffer).
      const a = new Uint8Array(1024);
      const b = new Uint8Array(1024);
      const reads: [Uint8Array, string][] = [[a, "one"], [b, "two"], [a, "three"], [b, "four"]];
      for (const [into, text] of reads) {
        await peer.write(encoder.encode(text));
        libc!.sleepMs(5);
        assert.equal(libc!.recvTimed(fd, into, 0), text.length);
        assert.equal(new TextDecoder().decode(into.subarray(0, text.length)), text);
      }
      await peer.write(encoder.encode("tail"));
      libc!.sleepMs(5);
      assert.equal(libc!.recvTimed(fd, a.subarray(100), 0), 4);
      assert.equal(new TextDecoder().decode(a.subarray(100, 104)), "tail");
      assert.equal(new TextDecoder().decode(a.subarray(0, 5)), "three");
      assert.equal(lookups, 2, "one address lookup per buffer");
    } finally {
      Deno.UnsafePointer.of = pointerOf;
    }
  },
});

Deno.test({
  name: "native: recvTimed reports the arrival time on the realtime scale, NaN without a timestamp",
  ignore,
  async fn() {
    using socket = await connectedSocket();
    const { fd, peer } = socket;
    const into = new Uint8Array(1024);
    await peer.write(encoder.encode("before"));
    assert.equal(libc!.recvTimed(fd, into, 0), 6);
    assert.ok(Number.isNaN(libc!.arrivalRealMs), "no timestamp asked for");
    assert.ok(libc!.timestampArrivals(fd));
    // The kernel switches packet stamping on for the whole system in deferred work when the first
    // socket asks, so bytes arriving just after that may carry no stamp (the connection then
    // uses the read time): a few tries, with a pause, until one is stamped.
    let stamped = false;
    for (let attempt = 0; attempt < 10 && !stamped; attempt++) {
      const writtenRealMs = libc!.realtimeMs();
      await peer.write(encoder.encode("after"));
      libc!.sleepMs(40);
      const readRealMs = libc!.realtimeMs();
      assert.equal(libc!.recvTimed(fd, into, 0), 5);
      assert.equal(new TextDecoder().decode(into.subarray(0, 5)), "after");
      const arrival = libc!.arrivalRealMs;
      if (Number.isNaN(arrival)) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      stamped = true;
      assert.ok(arrival >= writtenRealMs - 1 && arrival < readRealMs - 30, `${arrival}`);
    }
    assert.ok(stamped, "no arrival was stamped in 10 tries");
  },
});

Deno.test({
  name: "native: the loop wakes at most once per gap for sockets, at once when eager",
  ignore,
  async fn() {
    const loop = new EpollLoop({ libc: libc!, clock: PERFORMANCE_CLOCK, minGapUs: 40_000 });
    using socket = await connectedSocket(loop);
    const { fd, peer } = socket;
    let ready = 0;
    loop.add(fd, NET.EPOLLIN, { onEvents: () => ready++ });
    await peer.write(encoder.encode("x")); // readable, and stays so (never read)
    const far = () => performance.now() + 10_000;
    loop.poll(far()); // the first wake: the gap starts here
    const t0 = performance.now();
    loop.poll(far());
    const gapWaitMs = performance.now() - t0;
    const t1 = performance.now();
    loop.poll(far(), true);
    const eagerWaitMs = performance.now() - t1;
    // (a 40 ms gap: a single wait is at most MAX_WAIT_MS, 50 ms)
    assert.ok(gapWaitMs >= 35, `waited ${gapWaitMs.toFixed(1)} ms of a 40 ms gap`);
    assert.ok(eagerWaitMs < 20, `eager waited ${eagerWaitMs.toFixed(1)} ms`);
    assert.equal(ready, 3);
  },
});

Deno.test({
  name: "native: the gap holds for sockets above one send per two gaps, for sends above two a gap",
  ignore,
  async fn() {
    const loop = new EpollLoop({ libc: libc!, clock: PERFORMANCE_CLOCK, minGapUs: 1_000 });
    using socket = await connectedSocket(loop);
    const { fd, peer } = socket;
    const socketWaitMs = () => {
      loop.poll(performance.now() + 30); // a wake for the socket: any gap starts here
      const t0 = performance.now();
      loop.poll(performance.now() + 30);
      return performance.now() - t0;
    };
    assert.deepEqual([loop.gapped, loop.batching], [true, true], "before the dispatcher says");
    let ready = 0;
    loop.add(fd, NET.EPOLLIN, { onEvents: () => ready++ });
    await peer.write(encoder.encode("x")); // readable, and stays so (never read)
    loop.pace(5); // a send every 5 ms: more than two 1 ms gaps apart
    assert.deepEqual([loop.gapped, loop.batching], [false, false]);
    const freeMs = leastOf(socketWaitMs);
    assert.ok(freeMs < 0.9, `a ready socket waited ${freeMs.toFixed(2)} ms without the gap`);
    loop.pace(1); // every 1 ms: the gap holds for sockets, not for deadlines
    assert.deepEqual([loop.gapped, loop.batching], [true, false]);
    const gappedMs = socketWaitMs();
    assert.ok(
      gappedMs >= 0.9 && gappedMs < 20,
      `a ready socket waited ${gappedMs.toFixed(2)} ms of the 1 ms gap`,
    );
    const deadlineMs = leastOf(() => {
      loop.poll(performance.now() + 30); // a wake: the gap starts here
      const t0 = performance.now();
      while (performance.now() < t0 + 0.3) loop.poll(t0 + 0.3); // a deadline inside the gap
      return performance.now() - t0;
    });
    assert.ok(deadlineMs < 0.9, `a deadline 0.3 ms away waited ${deadlineMs.toFixed(2)} ms`);
    loop.pace(0.2); // every 0.2 ms, more than twice a gap: deadlines wait for it too
    assert.deepEqual([loop.gapped, loop.batching], [true, true]);
    loop.poll(performance.now() + 30); // a wake: the gap starts here
    const t1 = performance.now();
    while (performance.now() < t1 + 0.3) loop.poll(t1 + 0.3);
    const batchedMs = performance.now() - t1;
    assert.ok(
      batchedMs >= 0.9 && batchedMs < 20,
      `a deadline 0.3 ms away waited ${batchedMs.toFixed(2)} ms`,
    );
    assert.ok(ready >= 6, `${ready} wakes saw the socket`);
  },
});

Deno.test({
  name: "native: with readDeferMs a ready socket waits for the deadline unless a socket is urgent",
  ignore,
  async fn() {
    const loop = new EpollLoop({ libc: libc!, clock: PERFORMANCE_CLOCK, readDeferMs: 20 });
    using socket = await connectedSocket(loop);
    const { fd, peer } = socket;
    loop.pace(5); // 200/s: no gap
    let ready = 0;
    loop.add(fd, NET.EPOLLIN, { onEvents: () => ready++ });
    await peer.write(encoder.encode("x")); // readable, and stays so (never read)
    const waitMs = (deadlineInMs: number) => {
      loop.poll(performance.now() + 30); // a wake: the deferral counts from here
      const t0 = performance.now();
      loop.poll(t0 + deadlineInMs);
      return performance.now() - t0;
    };
    const urgentMs = leastOf(() => waitMs(200));
    assert.ok(urgentMs < 5, `an fd urgent since add waited ${urgentMs.toFixed(2)} ms`);
    loop.mayDefer(fd, true);
    const capMs = waitMs(200);
    assert.ok(capMs >= 19 && capMs < 150, `waited ${capMs.toFixed(1)} ms: readDeferMs, not 200`);
    const deadlineMs = waitMs(8);
    assert.ok(deadlineMs >= 7.9, `waited ${deadlineMs.toFixed(1)} ms: until the 8 ms deadline`);
    loop.arrivalMs(NaN); // a read without a kernel timestamp: it would be timed when read
    const stamplessMs = leastOf(() => waitMs(200));
    assert.ok(stamplessMs < 5, `after a stampless read: waited ${stamplessMs.toFixed(2)} ms`);
    loop.arrivalMs(Date.now()); // stamped again
    assert.ok(waitMs(200) >= 19, "stamped again: deferred again");
    loop.mayDefer(fd, false);
    const urgentAgainMs = leastOf(() => waitMs(200));
    assert.ok(urgentAgainMs < 5, `urgent again: waited ${urgentAgainMs.toFixed(2)} ms`);
    assert.ok(ready >= 12, `${ready} wakes saw the socket`);
  },
});

Deno.test({
  name: "native: a connection lets the loop defer only a socket with nothing of an answer read",
  ignore,
  async fn() {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => release = resolve);
    const written = Promise.withResolvers<void>();
    await using server = tcpServer(async (conn) => {
      while (await readRequest(conn)) {
        await conn.write(encoder.encode("HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nok"));
        written.resolve();
        await released;
        await conn.write(encoder.encode("ok"));
      }
    });
    using connection = connect(server.url);
    const told: boolean[] = [];
    const mayDefer = connection.loop.mayDefer.bind(connection.loop);
    connection.loop.mayDefer = (fd, may) => {
      if (told.at(-1) !== may) told.push(may);
      mayDefer(fd, may);
    };
    const sent = connection.send(request(server.url));
    assert.deepEqual(told, [false], "connecting: urgent");
    const until = async (what: boolean) => {
      const giveUpMs = performance.now() + 5_000;
      while (told.at(-1) !== what && performance.now() < giveUpMs) {
        connection.loop.poll(0);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    };
    await until(true); // connected and written: the answer may wait
    assert.deepEqual(told, [false, true]);
    await written.promise;
    await until(false); // half an answer read: the rest is read at once
    assert.deepEqual(told, [false, true, false]);
    assert.equal(connection.busy, true);
    release();
    assert.equal((await connection.drive(sent)).status, 200);
    assert.deepEqual(told, [false, true, false, true], "answered whole: idle, may wait");
  },
});

Deno.test({
  name: "native: a port nobody listens on is error refused, at open and at send",
  ignore,
  async fn() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const url = `http://127.0.0.1:${listener.addr.port}/`;
    listener.close();
    using connection = connect(url);
    assert.equal(await connection.drive(connection.open()), "refused");
    const outcome = await connection.drive(connection.send(request(url)));
    assert.deepEqual([outcome.status, outcome.error, outcome.bytesSent], [0, "refused", 0]);
    assert.equal(outcome.writtenAtMs, outcome.completedAtMs, "nothing was written");
  },
});

Deno.test({
  name: "native: a server closing an idle connection causes a reconnect, not an error",
  ignore,
  async fn() {
    await using server = tcpServer(async (conn) => {
      if (await readRequest(conn)) await conn.write(OK); // then close while idle
    });
    using connection = connect(server.url);
    for (let i = 0; i < 3; i++) {
      const outcome = await connection.drive(connection.send(request(server.url)));
      assert.deepEqual([outcome.status, outcome.error], [200, undefined], `request ${i}`);
      await connection.drive(new Promise((resolve) => setTimeout(resolve, 30)));
    }
    assert.equal(connection.socketsOpened, 3);
    assert.equal(server.accepted(), 3);
  },
});

Deno.test({
  name: "native: a close mid-body is reset, bytes that are not HTTP are protocol",
  ignore,
  async fn() {
    const cases = [
      ["HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nonly some", "reset"],
      ["SSH-2.0-OpenSSH\r\n", "protocol"],
    ] as const;
    for (const [reply, kind] of cases) {
      await using server = tcpServer(async (conn) => {
        if (await readRequest(conn)) await conn.write(encoder.encode(reply));
      });
      using connection = connect(server.url);
      const outcome = await connection.drive(connection.send(request(server.url)));
      assert.deepEqual([outcome.status, outcome.error], [0, kind], reply);
    }
  },
});

Deno.test({
  name: "native: abort('timeout') settles a request the server never answers at once",
  ignore,
  async fn() {
    await using server = tcpServer(async (conn) => {
      await readRequest(conn);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    using connection = connect(server.url);
    const pending = connection.send(request(server.url));
    await connection.drive(new Promise((resolve) => setTimeout(resolve, 20)));
    assert.equal(connection.busy, true);
    connection.abort("timeout");
    const outcome = await pending;
    assert.deepEqual([outcome.status, outcome.error], [0, "timeout"]);
    assert.equal(connection.busy, false);
  },
});

Deno.test({
  name: "native: a request larger than the socket buffer is written whole across EPOLLOUT waits",
  ignore,
  async fn() {
    const bodyBytes = 8 * 1024 * 1024;
    await using server = tcpServer(async (conn) => {
      if (await readRequest(conn, bodyBytes)) await conn.write(OK);
    });
    using connection = connect(server.url);
    const post = request(server.url, "POST", bodyBytes);
    const outcome = await connection.drive(connection.send(post));
    assert.deepEqual([outcome.status, outcome.error], [200, undefined]);
    assert.equal(outcome.bytesSent, post.bytes.length);
    // The same socket carries the next request: the EPOLLOUT watch was dropped after the write.
    const again = await connection.drive(connection.send(request(server.url)));
    assert.equal(again.status, 0, "this server answers once per connection, then hangs up");
  },
});

Deno.test({
  name: "native: bytes arriving with nothing asked close the socket; the next send reconnects",
  ignore,
  async fn() {
    await using server = tcpServer(async (conn) => {
      if (!await readRequest(conn)) return;
      await conn.write(OK);
      await conn.write(OK); // an answer nobody asked for
      await readRequest(conn);
    });
    using connection = connect(server.url);
    const first = await connection.drive(connection.send(request(server.url)));
    assert.equal(first.status, 200);
    await connection.drive(new Promise((resolve) => setTimeout(resolve, 30)));
    const second = await connection.drive(connection.send(request(server.url)));
    assert.equal(second.status, 200);
    assert.equal(connection.socketsOpened, 2);
  },
});

Deno.test("errnoKind names refused and reset the way Deno's errors are named", () => {
  assert.equal(errnoKind(NET.ECONNREFUSED), "refused");
  for (const errno of [NET.ECONNRESET, NET.EPIPE, NET.ECONNABORTED]) {
    assert.equal(errnoKind(errno), "reset");
  }
  assert.equal(errnoKind(NET.EAGAIN), "other");
});

Deno.test("socketAddress builds sockaddr_in and sockaddr_in6, and refuses what is not an address", () => {
  const v4 = socketAddress("127.0.0.1", 8080);
  assert.deepEqual([...v4.subarray(0, 8)], [NET.AF_INET, 0, 0x1f, 0x90, 127, 0, 0, 1]);
  const v6 = socketAddress("::1", 443);
  assert.equal(v6.length, 28);
  assert.deepEqual([...v6.subarray(0, 4)], [NET.AF_INET6, 0, 0x01, 0xbb]);
  assert.deepEqual([...v6.subarray(8, 24)], [...new Array(15).fill(0), 1]);
  const full = socketAddress("fe80::1:2", 80);
  assert.deepEqual([...full.subarray(8, 10)], [0xfe, 0x80]);
  assert.deepEqual([...full.subarray(20, 24)], [0, 1, 0, 2]);
  assert.throws(() => socketAddress("127.0.0.256", 80), RangeError);
  assert.throws(() => socketAddress("1::2::3", 80), RangeError);
  assert.throws(() => socketAddress("::ffff:127.0.0.1", 80), RangeError);
});

Deno.test({
  name: "EpollLoop: a sleep returns at its deadline or later, never before, and reports it",
  ignore,
  async fn() {
    const resumes: number[] = [];
    const loop = new EpollLoop({
      libc: libc!,
      clock: PERFORMANCE_CLOCK,
      onResume: (stallMs) => resumes.push(stallMs),
    });
    try {
      for (let i = 0; i < 5; i++) {
        const deadlineMs = performance.now() + 2;
        while (performance.now() < deadlineMs) await loop.sleepUntil(deadlineMs);
        assert.ok(performance.now() >= deadlineMs);
      }
      assert.ok(resumes.length >= 5, `${resumes.length} resumes`);
      assert.ok(resumes.every((ms) => ms >= 0));
    } finally {
      loop.close();
    }
  },
});

Deno.test({
  name:
    "native: an answer before the request was written whole closes the socket (stream out of step)",
  ignore,
  async fn() {
    let connections = 0;
    await using server = tcpServer(async (conn) => {
      const first = ++connections === 1;
      if (!await readRequest(conn)) return; // the head only: the 8 MiB body is not read
      if (first) {
        await conn.write(
          encoder.encode("HTTP/1.1 413 Payload Too Large\r\ncontent-length: 0\r\n\r\n"),
        );
        await new Promise((resolve) => setTimeout(resolve, 200)); // keep the socket open
      } else {
        await conn.write(OK);
      }
    });
    using connection = connect(server.url);
    const post = request(server.url, "POST", 8 * 1024 * 1024);
    const early = await connection.drive(connection.send(post));
    assert.deepEqual([early.status, early.error], [413, undefined]);
    // The rest of the body will never be sent, so the next request takes a fresh socket.
    const next = await connection.drive(connection.send(request(server.url)));
    assert.deepEqual([next.status, next.error], [200, undefined]);
    assert.equal(connection.socketsOpened, 2);
  },
});

Deno.test({
  name: "native: an h2c server's frames fail the request as protocol and are named",
  ignore,
  async fn() {
    await using server = await h2cServer();
    let named = 0;
    using connection = connect(server.url, () => named++);
    const outcome = await connection.drive(connection.send(request(server.url)));
    assert.deepEqual([outcome.status, outcome.error], [0, "protocol"]);
    assert.equal(named, 1);
  },
});
