/**
 * The least an HTTP/1.1 load generator can do per request in Deno, the project's stack: the loops
 * of floor_client.c, line for line, through the same libc calls over FFI (`--allow-ffi`), with no
 * parsing, no histogram and no other thread. What this costs per request beyond the C loop is the
 * runtime's own share (V8 entering and leaving each FFI call, its code and heap back in the cache
 * after each sleep), which no engine written for this stack goes under (bench/floor/stack_floor.sh).
 *
 *     deno run --allow-ffi bench/floor/floor_client.ts open PORT RATE_PER_SEC COUNT WAKES(1|2)
 *     deno run --allow-ffi bench/floor/floor_client.ts peak PORT CONNS SECS
 *
 * `open`: one keep-alive connection, sleep until each fire time, send, read the response (with
 * WAKES 1 just before the next send, as tailgate's deferred reads do; with 2 at once). `peak`:
 * wrk's closed loop over CONNS connections; prints the requests answered per second.
 *
 * @module
 */

const MSG_DONTWAIT = 0x40;
const MSG_NOSIGNAL = 0x4000;
const CLOCK_MONOTONIC = 1;
const TIMER_ABSTIME = 1;
const EPOLLIN = 1;
const EPOLL_CTL_ADD = 1;
/** `struct epoll_event` is packed on x86_64: 4 bytes of events, then 8 of data. */
const EVENT_BYTES = 12;

if (Deno.build.os !== "linux" || Deno.build.arch !== "x86_64") {
  throw new Error("floor_client.ts reads x86_64 Linux's epoll_event layout");
}
const libc = Deno.dlopen("libc.so.6", {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  setsockopt: { parameters: ["i32", "i32", "i32", "buffer", "u32"], result: "i32" },
  send: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
  recv: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
  clock_nanosleep: { parameters: ["i32", "i32", "buffer", "pointer"], result: "i32" },
  clock_gettime: { parameters: ["i32", "buffer"], result: "i32" },
  epoll_create1: { parameters: ["i32"], result: "i32" },
  epoll_ctl: { parameters: ["i32", "i32", "i32", "buffer"], result: "i32" },
  epoll_wait: { parameters: ["i32", "buffer", "i32", "i32"], result: "i32" },
});
const { symbols } = libc;
// As runner/engine/native/libc_net.ts does: Deno's FFI takes a number for a 64-bit parameter at
// run time though its types say bigint, which saves a BigInt per call.
type Io = (fd: number, bytes: Uint8Array, length: number, flags: number) => number | bigint;
const send = symbols.send as unknown as Io;
const recv = symbols.recv as unknown as Io;

const request = new TextEncoder().encode("GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
const buf = new Uint8Array(65536);

function connectTo(port: number): number {
  const fd = symbols.socket(2, 1, 0); // AF_INET, SOCK_STREAM
  symbols.setsockopt(fd, 6, 1, new Uint8Array(new Int32Array([1]).buffer), 4); // TCP_NODELAY
  const address = new Uint8Array(16);
  new DataView(address.buffer).setUint16(0, 2, true);
  new DataView(address.buffer).setUint16(2, port, false);
  address.set([127, 0, 0, 1], 4);
  if (symbols.connect(fd, address, 16) !== 0) throw new Error(`cannot connect to port ${port}`);
  return fd;
}

function sendRequest(fd: number): void {
  if (Number(send(fd, request, request.length, MSG_NOSIGNAL)) !== request.length) {
    throw new Error("send failed");
  }
}

function readResponse(fd: number, flags: number): void {
  if (Number(recv(fd, buf, buf.length, flags)) > 0) return;
  if (flags !== 0) return readResponse(fd, 0); // not there yet: wait for it
  throw new Error("recv failed");
}

function openLoop(port: number, ratePerSec: number, count: number, oneWake: boolean): void {
  const fd = connectTo(port);
  const timespec = new Uint8Array(16);
  const view = new DataView(timespec.buffer);
  symbols.clock_gettime(CLOCK_MONOTONIC, timespec);
  const startNs = Number(view.getBigInt64(0, true)) * 1e9 + Number(view.getBigInt64(8, true));
  for (let i = 0; i < count; i++) {
    const dueNs = startNs + Math.floor(i * 1e9 / ratePerSec);
    view.setUint32(0, Math.floor(dueNs / 1e9), true);
    view.setUint32(8, dueNs % 1e9, true);
    symbols.clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, timespec, null);
    if (oneWake && i > 0) readResponse(fd, MSG_DONTWAIT);
    sendRequest(fd);
    if (!oneWake) readResponse(fd, 0);
  }
  if (oneWake && count > 0) readResponse(fd, 0);
  console.log(`${count} requests`);
}

function closedLoop(port: number, conns: number, secs: number): void {
  const epfd = symbols.epoll_create1(0);
  const event = new Uint8Array(EVENT_BYTES);
  const eventView = new DataView(event.buffer);
  for (let c = 0; c < conns; c++) {
    const fd = connectTo(port);
    eventView.setUint32(0, EPOLLIN, true);
    eventView.setInt32(4, fd, true);
    symbols.epoll_ctl(epfd, EPOLL_CTL_ADD, fd, event);
    sendRequest(fd);
  }
  const events = new Uint8Array(EVENT_BYTES * 256);
  const view = new DataView(events.buffer);
  let answered = 0;
  const endMs = performance.now() + secs * 1000;
  while (performance.now() < endMs) {
    const n = symbols.epoll_wait(epfd, events, 256, 100);
    for (let i = 0; i < n; i++) {
      const fd = view.getInt32(i * EVENT_BYTES + 4, true);
      if (Number(recv(fd, buf, buf.length, MSG_DONTWAIT)) <= 0) continue;
      answered++;
      sendRequest(fd);
    }
  }
  console.log(`${(answered / secs).toFixed(0)} requests/s`);
}

const [mode, ...numbers] = Deno.args;
const [port, a, b, c] = numbers.map(Number);
if (mode === "open" && numbers.length === 4 && a > 0 && (c === 1 || c === 2)) {
  openLoop(port, a, b, c === 1);
} else if (mode === "peak" && numbers.length === 3 && a > 0 && b > 0) {
  closedLoop(port, a, b);
} else {
  console.error(
    "usage: floor_client.ts open PORT RATE_PER_SEC COUNT WAKES(1|2) | peak PORT CONNS SECS",
  );
  Deno.exit(2);
}
